package io.weft.actors.remote.transport;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;

/**
 * Settings of the Aeron engine ({@link Transport#aeron(AeronSettings)}).
 *
 * <p>Defaults ({@link #defaults()}): 16 MiB frames, 4 MiB term buffers on the ordinary and large
 * lanes (64 KiB on the control lane), Aeron's default MTU of 1408 bytes, a peer declared lost after
 * 5 s of silence, and the media driver's files under {@code /dev/shm} when it exists and is
 * writable, else under {@code java.io.tmpdir}.
 *
 * <p>Memory: each lane of each link maps three term buffers at the sender and three at the
 * receiver, so a link with the defaults maps about 24 MiB on each side, in the driver directory.
 *
 * @param maxFrameBytes the largest frame sent or accepted, at least 1 KiB; frames above an Aeron
 *     message's limit (an eighth of the term length) are sent in several messages and reassembled
 * @param termLength the term buffer length of the ordinary and large lanes: a power of two from
 *     64 KiB to 1 GiB
 * @param mtu the largest UDP datagram's payload: a multiple of 32 from 512 to 65504; keep the
 *     default on a real network, raise it (8192 or more) for loopback only
 * @param peerTimeout how long a link may stay without a sign of its peer before it is declared lost:
 *     an unconnected outbound link, or an inbound link whose sender went silent; at least 1 s
 * @param directory where the embedded media driver's directory is made (a fresh, uniquely named
 *     child, deleted on close), or null for {@code /dev/shm} (else {@code java.io.tmpdir})
 */
public record AeronSettings(int maxFrameBytes, int termLength, int mtu, Duration peerTimeout, Path directory) {

    /** The default maximum frame: 16 MiB. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;

    /** The default term length of the ordinary and large lanes: 4 MiB. */
    public static final int DEFAULT_TERM_LENGTH = 4 << 20;

    /** Aeron's default MTU, safe on an Ethernet LAN. */
    public static final int DEFAULT_MTU = 1408;

    /**
     * Validates.
     *
     * @param maxFrameBytes at least 1024
     * @param termLength a power of two from 64 KiB to 1 GiB
     * @param mtu a multiple of 32 from 512 to 65504
     * @param peerTimeout at least 1 s
     * @param directory any, null for the default
     */
    public AeronSettings {
        if (maxFrameBytes < 1024) {
            throw new IllegalArgumentException("maxFrameBytes must be at least 1024, was " + maxFrameBytes);
        }
        if (termLength < (64 << 10) || termLength > (1 << 30) || Integer.bitCount(termLength) != 1) {
            throw new IllegalArgumentException("termLength must be a power of two from 65536 to 1073741824, was " + termLength);
        }
        if (mtu < 512 || mtu > 65504 || mtu % 32 != 0) {
            throw new IllegalArgumentException("mtu must be a multiple of 32 from 512 to 65504, was " + mtu);
        }
        Objects.requireNonNull(peerTimeout, "peerTimeout");
        if (peerTimeout.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException("peerTimeout must be at least 1 s, was " + peerTimeout);
        }
    }

    /**
     * The defaults: 16 MiB frames, 4 MiB terms, MTU 1408, peers lost after 5 s, files under
     * {@code /dev/shm} (else {@code java.io.tmpdir}).
     *
     * @return the default settings
     */
    public static AeronSettings defaults() {
        return new AeronSettings(DEFAULT_MAX_FRAME_BYTES, DEFAULT_TERM_LENGTH, DEFAULT_MTU, Duration.ofSeconds(5), null);
    }

    /**
     * The directory the driver's own directory is made in: {@link #directory()}, or {@code /dev/shm}
     * when it is a writable directory, else {@code java.io.tmpdir}.
     *
     * @return the parent directory
     */
    public Path parentDirectory() {
        if (directory != null) {
            return directory;
        }
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm;
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /**
     * A copy with another maximum frame size.
     *
     * @param bytes at least 1024
     * @return the new settings
     */
    public AeronSettings withMaxFrameBytes(int bytes) {
        return new AeronSettings(bytes, termLength, mtu, peerTimeout, directory);
    }

    /**
     * A copy with another term length for the ordinary and large lanes.
     *
     * @param bytes a power of two from 64 KiB to 1 GiB
     * @return the new settings
     */
    public AeronSettings withTermLength(int bytes) {
        return new AeronSettings(maxFrameBytes, bytes, mtu, peerTimeout, directory);
    }

    /**
     * A copy with another MTU.
     *
     * @param bytes a multiple of 32 from 512 to 65504
     * @return the new settings
     */
    public AeronSettings withMtu(int bytes) {
        return new AeronSettings(maxFrameBytes, termLength, bytes, peerTimeout, directory);
    }

    /**
     * A copy with another peer timeout.
     *
     * @param timeout at least 1 s
     * @return the new settings
     */
    public AeronSettings withPeerTimeout(Duration timeout) {
        return new AeronSettings(maxFrameBytes, termLength, mtu, timeout, directory);
    }

    /**
     * A copy with another parent directory for the driver's files.
     *
     * @param parent the directory, or null for the default
     * @return the new settings
     */
    public AeronSettings withDirectory(Path parent) {
        return new AeronSettings(maxFrameBytes, termLength, mtu, peerTimeout, parent);
    }
}
