package io.weft.actors.remote.transport;

import java.time.Duration;
import java.util.Objects;
import javax.net.ssl.KeyManager;
import javax.net.ssl.TrustManager;

/**
 * Settings of the gRPC engine ({@link Transport#grpc(GrpcSettings)}).
 *
 * <p>Defaults ({@link #defaults()}): plaintext, 16 MiB frames, one executor thread per core for
 * inbound delivery (at least 2), HTTP/2 keepalive pings every 10 s (gRPC's minimum) that declare the
 * link lost when unanswered for 5 s. The remoting layer's own heartbeats notice a silent partition
 * sooner; keepalive is what ends the dead TCP connections under it.
 *
 * @param maxFrameBytes the largest frame sent or accepted, at least 1 KiB
 * @param keepAliveTime time between keepalive pings on an idle or busy link; at least 10 s (gRPC
 *     raises shorter times to 10 s)
 * @param keepAliveTimeout how long an unanswered ping waits before the link is declared lost
 * @param tls TLS settings, or null for plaintext
 * @param threads event-loop threads for all links of the engine, at least 1
 */
public record GrpcSettings(int maxFrameBytes, Duration keepAliveTime, Duration keepAliveTimeout, Tls tls, int threads) {

    /** The default maximum frame: 16 MiB. */
    public static final int DEFAULT_MAX_FRAME_BYTES = 16 << 20;

    /**
     * Validates.
     *
     * @param maxFrameBytes at least 1024
     * @param keepAliveTime positive
     * @param keepAliveTimeout positive
     * @param tls any, null for plaintext
     * @param threads at least 1
     */
    public GrpcSettings {
        if (maxFrameBytes < 1024) {
            throw new IllegalArgumentException("maxFrameBytes must be at least 1024, was " + maxFrameBytes);
        }
        positive(keepAliveTime, "keepAliveTime");
        positive(keepAliveTimeout, "keepAliveTimeout");
        if (threads < 1) {
            throw new IllegalArgumentException("threads must be at least 1, was " + threads);
        }
    }

    private static void positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + d);
        }
    }

    /**
     * The defaults: plaintext, 16 MiB frames, keepalive 10 s / 5 s, one event-loop thread per core.
     *
     * @return the default settings
     */
    public static GrpcSettings defaults() {
        return new GrpcSettings(DEFAULT_MAX_FRAME_BYTES, Duration.ofSeconds(10), Duration.ofSeconds(5), null,
                Math.max(1, Runtime.getRuntime().availableProcessors()));
    }

    /**
     * A copy with another maximum frame size.
     *
     * @param bytes at least 1024
     * @return the new settings
     */
    public GrpcSettings withMaxFrameBytes(int bytes) {
        return new GrpcSettings(bytes, keepAliveTime, keepAliveTimeout, tls, threads);
    }

    /**
     * A copy with other keepalive times.
     *
     * @param time between pings, positive
     * @param timeout for an answer, positive
     * @return the new settings
     */
    public GrpcSettings withKeepAlive(Duration time, Duration timeout) {
        return new GrpcSettings(maxFrameBytes, time, timeout, tls, threads);
    }

    /**
     * A copy with TLS.
     *
     * @param tls the TLS settings, or null for plaintext
     * @return the new settings
     */
    public GrpcSettings withTls(Tls tls) {
        return new GrpcSettings(maxFrameBytes, keepAliveTime, keepAliveTimeout, tls, threads);
    }

    /**
     * TLS for the engine's links: the same key and trust serve the listening side and the
     * connecting side.
     *
     * @param keyManagers this system's certificate and private key (from a
     *     {@link javax.net.ssl.KeyManagerFactory}), not empty
     * @param trustManagers which peers' certificates are trusted (from a
     *     {@link javax.net.ssl.TrustManagerFactory}), not empty
     * @param mutual whether the listening side requires and checks a client certificate (mutual
     *     TLS); without it, any client that trusts this system's certificate may connect
     */
    public record Tls(KeyManager[] keyManagers, TrustManager[] trustManagers, boolean mutual) {

        /**
         * Validates.
         *
         * @param keyManagers not empty
         * @param trustManagers not empty
         * @param mutual whether client certificates are required
         */
        public Tls {
            if (keyManagers == null || keyManagers.length == 0) {
                throw new IllegalArgumentException("TLS needs key managers: pass KeyManagerFactory.getKeyManagers() of a key store holding this system's key");
            }
            if (trustManagers == null || trustManagers.length == 0) {
                throw new IllegalArgumentException("TLS needs trust managers: pass TrustManagerFactory.getTrustManagers() of a trust store holding the peers' certificates");
            }
            keyManagers = keyManagers.clone();
            trustManagers = trustManagers.clone();
        }

        /**
         * The key managers.
         *
         * @return a copy of the array
         */
        @Override
        public KeyManager[] keyManagers() {
            return keyManagers.clone();
        }

        /**
         * The trust managers.
         *
         * @return a copy of the array
         */
        @Override
        public TrustManager[] trustManagers() {
            return trustManagers.clone();
        }
    }
}
