package io.weft.actors.remote.internal;

import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.CodecOutput;
import io.weft.actors.remote.FrameBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The growable buffer frames are encoded into; also the {@link CodecOutput} plugged codecs write
 * to. Not thread-safe.
 */
public final class Output implements FrameBuffer, CodecOutput {

    /* design
     * One class for the buffer a transport keeps and the writer the codecs use, so encoding into a
     * kept buffer allocates nothing but growth. The encode state (registry, depth, the frame's start
     * and its byte limit) is set by Registry.encode for the duration of one call and restored
     * afterwards, so a nested encode into the same buffer (a plugged codec calling encode) does not
     * corrupt the outer one; a failed encode truncates the buffer back to the frame's start.
     *
     * Invariant: 0 <= len <= buf.length; outside an encode, registry is null.
     */

    private static final byte[] EMPTY = new byte[0];

    private byte[] buf;
    private int len;

    private Registry registry;
    private int depth;
    private int frameStart;
    private long frameLimit = Long.MAX_VALUE;
    private java.util.function.Function<io.weft.actors.ActorRef<?>, String> refAddresses;

    /**
     * Creates an empty buffer.
     *
     * @param initialCapacity initial array size, at least 0
     */
    public Output(int initialCapacity) {
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initialCapacity must be at least 0, was " + initialCapacity);
        }
        buf = initialCapacity == 0 ? EMPTY : new byte[initialCapacity];
    }

    /**
     * Sets how refs in encoded values become addresses (a remoting layer adds its host and port);
     * by default a ref's own {@link io.weft.actors.ActorRef#address()}.
     *
     * @param addresses the mapping, or null for the default
     */
    public void refAddresses(java.util.function.Function<io.weft.actors.ActorRef<?>, String> addresses) {
        this.refAddresses = addresses;
    }

    String addressOf(io.weft.actors.ActorRef<?> ref) {
        return refAddresses == null ? ref.address() : refAddresses.apply(ref);
    }

    @Override
    public int length() {
        return len;
    }

    @Override
    public byte[] array() {
        return buf;
    }

    @Override
    public void clear() {
        len = 0;
    }

    @Override
    public byte[] toByteArray() {
        return Arrays.copyOf(buf, len);
    }

    /** Encodes one frame with {@code reg}; on failure the buffer keeps its previous content. */
    void encodeFrame(Registry reg, Object message) {
        Registry savedRegistry = registry;
        int savedDepth = depth;
        int savedStart = frameStart;
        long savedLimit = frameLimit;
        int start = len;
        registry = reg;
        depth = 0;
        frameStart = start;
        frameLimit = (long) start + reg.maxFrameBytes;
        boolean done = false;
        try {
            writeValue(message);
            done = true;
        } finally {
            if (!done) {
                len = start;
            }
            registry = savedRegistry;
            depth = savedDepth;
            frameStart = savedStart;
            frameLimit = savedLimit;
        }
    }

    private void ensure(int n) {
        long need = (long) len + n;
        if (need > frameLimit) {
            throw new CodecException(CodecException.Reason.TOO_LARGE,
                    "frame too large: encoding needs more than " + registry.maxFrameBytes
                            + " bytes, the registry's maxFrameBytes; send smaller messages or raise maxFrameBytes on both sides");
        }
        if (need > buf.length) {
            if (need > Integer.MAX_VALUE - 8) {
                throw new CodecException(CodecException.Reason.TOO_LARGE,
                        "frame too large: the buffer cannot grow past " + (Integer.MAX_VALUE - 8) + " bytes");
            }
            long grown = Math.max(need, Math.max(16L, (long) buf.length * 2));
            buf = Arrays.copyOf(buf, (int) Math.min(grown, Integer.MAX_VALUE - 8));
        }
    }

    void writeRaw(int b) {
        ensure(1);
        buf[len++] = (byte) b;
    }

    void writeVarInt(int v) {
        ensure(5);
        while ((v & ~0x7F) != 0) {
            buf[len++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    void writeVarLong(long v) {
        ensure(10);
        while ((v & ~0x7FL) != 0) {
            buf[len++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buf[len++] = (byte) v;
    }

    @Override
    public void writeBoolean(boolean value) {
        writeRaw(value ? 1 : 0);
    }

    @Override
    public void writeByte(byte value) {
        writeRaw(value);
    }

    @Override
    public void writeInt(int value) {
        writeVarInt(Wire.zigzag(value));
    }

    @Override
    public void writeLong(long value) {
        writeVarLong(Wire.zigzag(value));
    }

    @Override
    public void writeFloat(float value) {
        int bits = Float.floatToRawIntBits(value);
        ensure(4);
        buf[len++] = (byte) (bits >>> 24);
        buf[len++] = (byte) (bits >>> 16);
        buf[len++] = (byte) (bits >>> 8);
        buf[len++] = (byte) bits;
    }

    @Override
    public void writeDouble(double value) {
        long bits = Double.doubleToRawLongBits(value);
        ensure(8);
        for (int shift = 56; shift >= 0; shift -= 8) {
            buf[len++] = (byte) (bits >>> shift);
        }
    }

    @Override
    public void writeLength(int length) {
        if (length < 0) {
            throw new IllegalArgumentException("a length must be at least 0, was " + length);
        }
        writeVarInt(length);
    }

    /** Refuses a length the peer would refuse. */
    void checkLength(int length, String what) {
        if (registry != null && length > registry.maxLength) {
            throw new CodecException(CodecException.Reason.TOO_LARGE,
                    what + " of length " + length + " exceeds the registry's maxLength " + registry.maxLength
                            + "; split it, or raise maxLength on both sides");
        }
    }

    @Override
    public void writeString(String value) {
        int n = value.length();
        checkLength(n, "a string");
        // ASCII fast path: one byte per char, written in place; left at the first non-ASCII char.
        int start = len;
        ensure(varIntSize(n) + n);
        writeVarInt(n);
        int i = 0;
        while (i < n) {
            char c = value.charAt(i);
            if (c >= 0x80) {
                break;
            }
            buf[len++] = (byte) c;
            i++;
        }
        if (i == n) {
            return;
        }
        len = start;
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        checkSurrogates(value);
        checkLength(utf8.length, "a string's UTF-8 encoding");
        writeVarInt(utf8.length);
        writeRawBytes(utf8);
    }

    private static int varIntSize(int v) {
        return v < (1 << 7) ? 1 : v < (1 << 14) ? 2 : v < (1 << 21) ? 3 : v < (1 << 28) ? 4 : 5;
    }

    private static void checkSurrogates(String s) {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new CodecException(CodecException.Reason.MALFORMED,
                        "a string holds an unpaired surrogate U+" + Integer.toHexString(c).toUpperCase(java.util.Locale.ROOT)
                                + " at index " + i + ", which UTF-8 cannot carry; send the text as byte[] or fix it");
            }
        }
    }

    private void writeRawBytes(byte[] bytes) {
        ensure(bytes.length);
        System.arraycopy(bytes, 0, buf, len, bytes.length);
        len += bytes.length;
    }

    @Override
    public void writeBytes(byte[] value) {
        checkLength(value.length, "a byte[]");
        writeVarInt(value.length);
        writeRawBytes(value);
    }

    @Override
    public void writeValue(Object value) {
        Registry reg = registry;
        if (reg == null) {
            throw new IllegalStateException("this CodecOutput is used outside of MessageCodec.write; it is valid only during that call");
        }
        if (value == null) {
            writeRaw(Wire.NULL);
            return;
        }
        TypeCodec codec = reg.codecFor(value);
        if (depth >= reg.maxDepth) {
            throw new CodecException(CodecException.Reason.TOO_DEEP,
                    "values nest deeper than the registry's maxDepth " + reg.maxDepth + " at a " + codec.describe()
                            + "; flatten the message (or it contains itself)");
        }
        depth++;
        try {
            writeVarInt(codec.id);
            codec.write(value, this);
        } finally {
            depth--;
        }
    }

    Registry registry() {
        return registry;
    }
}
