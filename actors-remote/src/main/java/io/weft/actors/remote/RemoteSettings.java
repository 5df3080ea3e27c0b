package io.weft.actors.remote;

import io.weft.actors.remote.transport.AeronSettings;
import io.weft.actors.remote.transport.GrpcSettings;
import io.weft.actors.remote.transport.Transport;
import java.time.Duration;
import java.util.Objects;
import java.util.Set;
import java.util.function.Supplier;

/**
 * Settings of a system's remoting ({@link Remoting#attach}).
 *
 * <p>Defaults ({@link #defaults()}): listen on 127.0.0.1, a free port, over gRPC in plaintext;
 * heartbeats every second; a peer whose heartbeats stop is declared dead when the phi-accrual
 * detector passes 10 with an acceptable pause of 7 s (a silent partition is noticed in about 10 s);
 * a peer whose link is lost and cannot be reconnected for 3 s is declared dead (a crashed process
 * is noticed in about 3 s); 16,384 messages per outbound lane and peer; messages over 64 KiB on the
 * large lane; untrusted mode unless the transport uses TLS; any system may connect; a first
 * handshake that takes over 20 s sends the waiting messages to dead letters and gates the peer for
 * 5 s.
 *
 * <p>Over Aeron ({@link #withAeron}) there is no TLS, so untrusted mode is on unless
 * {@link #withUntrusted} turns it off: a peer on the network can then reach local actors only with
 * ordinary messages and the watch protocol, never stop, kill or supervise them.
 *
 * @param host the host to bind and to name in this system's addresses
 * @param port the port to bind, 0 for a free one
 * @param transport makes the transport engine
 * @param tls whether the transport uses TLS (decides the default of untrusted mode)
 * @param heartbeatInterval time between heartbeats to each peer
 * @param phiThreshold phi above which a silent peer is declared dead
 * @param acceptableHeartbeatPause a pause of heartbeats the detector tolerates before phi rises
 * @param lostLinkTimeout how long a lost link may stay unreconnected before the peer is declared dead
 * @param outboundQueueSize messages queued per lane and peer before new ones go to dead letters
 * @param largeMessageThreshold encoded size in bytes above which a message takes the large lane
 * @param untrusted whether remote peers are refused system messages to local actors (see
 *     {@link Remoting}); null means on without TLS, off with TLS
 * @param allowedSystems names of the systems allowed to connect; empty allows all
 * @param advertisedPort the port other systems reach this one at, when it differs from the bound
 *     port (behind a port mapping or a proxy); 0 for the bound port
 * @param handshakeTimeout how long the first handshake with a peer may take before the messages
 *     waiting for it go to dead letters and its watchers are told (the peer is not quarantined)
 * @param retryGate how long a peer whose handshake timed out stays gated: messages to it go to
 *     dead letters at once and no connection is tried until it passes
 */
public record RemoteSettings(String host, int port, Supplier<Transport> transport, boolean tls, Duration heartbeatInterval,
        double phiThreshold, Duration acceptableHeartbeatPause, Duration lostLinkTimeout, int outboundQueueSize,
        int largeMessageThreshold, Boolean untrusted, Set<String> allowedSystems, int advertisedPort, Duration handshakeTimeout,
        Duration retryGate) {

    /**
     * Validates.
     *
     * @param host not blank
     * @param port 0 to 65535
     * @param transport not null
     * @param tls whether the transport uses TLS
     * @param heartbeatInterval positive
     * @param phiThreshold positive
     * @param acceptableHeartbeatPause not negative
     * @param lostLinkTimeout positive
     * @param outboundQueueSize at least 1
     * @param largeMessageThreshold at least 1
     * @param untrusted null for the default
     * @param allowedSystems not null
     * @param advertisedPort 0 to 65535
     * @param handshakeTimeout positive
     * @param retryGate positive
     */
    public RemoteSettings {
        if (host == null || host.isBlank()) {
            throw new IllegalArgumentException("host must not be blank");
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port must be 0 to 65535, was " + port);
        }
        Objects.requireNonNull(transport, "transport");
        positive(heartbeatInterval, "heartbeatInterval");
        positive(lostLinkTimeout, "lostLinkTimeout");
        positive(handshakeTimeout, "handshakeTimeout");
        positive(retryGate, "retryGate");
        Objects.requireNonNull(acceptableHeartbeatPause, "acceptableHeartbeatPause");
        if (!(phiThreshold > 0)) {
            throw new IllegalArgumentException("phiThreshold must be positive, was " + phiThreshold);
        }
        if (outboundQueueSize < 1 || largeMessageThreshold < 1) {
            throw new IllegalArgumentException("outboundQueueSize and largeMessageThreshold must be at least 1, were "
                    + outboundQueueSize + " and " + largeMessageThreshold);
        }
        allowedSystems = Set.copyOf(allowedSystems);
        if (advertisedPort < 0 || advertisedPort > 65535) {
            throw new IllegalArgumentException("advertisedPort must be 0 to 65535, was " + advertisedPort);
        }
    }

    private static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(20);
    private static final Duration DEFAULT_RETRY_GATE = Duration.ofSeconds(5);

    private static void positive(Duration d, String what) {
        Objects.requireNonNull(d, what);
        if (d.isNegative() || d.isZero()) {
            throw new IllegalArgumentException(what + " must be positive, was " + d);
        }
    }

    /**
     * The defaults, described at the class.
     *
     * @return the settings
     */
    public static RemoteSettings defaults() {
        return new RemoteSettings("127.0.0.1", 0, () -> Transport.grpc(GrpcSettings.defaults()), false, Duration.ofSeconds(1),
                10.0, Duration.ofSeconds(7), Duration.ofSeconds(3), 16_384, 64 * 1024, null, Set.of(), 0, DEFAULT_HANDSHAKE_TIMEOUT,
                DEFAULT_RETRY_GATE);
    }

    /**
     * A copy bound to another host and port.
     *
     * @param host the host
     * @param port the port, 0 for a free one
     * @return the new settings
     */
    public RemoteSettings withAddress(String host, int port) {
        return new RemoteSettings(host, port, transport, tls, heartbeatInterval, phiThreshold, acceptableHeartbeatPause,
                lostLinkTimeout, outboundQueueSize, largeMessageThreshold, untrusted, allowedSystems, advertisedPort, handshakeTimeout, retryGate);
    }

    /**
     * A copy over the gRPC engine with these settings.
     *
     * @param grpc the engine's settings
     * @return the new settings; {@link #tls()} follows {@code grpc.tls()}
     */
    public RemoteSettings withGrpc(GrpcSettings grpc) {
        return new RemoteSettings(host, port, () -> Transport.grpc(grpc), grpc.tls() != null, heartbeatInterval, phiThreshold,
                acceptableHeartbeatPause, lostLinkTimeout, outboundQueueSize, largeMessageThreshold, untrusted, allowedSystems, advertisedPort, handshakeTimeout, retryGate);
    }

    /**
     * A copy over the Aeron engine with these settings. Aeron has no TLS: {@link #tls()} is false,
     * so untrusted mode is on unless set explicitly with {@link #withUntrusted}. The JVM needs
     * {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} (class path) or
     * {@code =org.agrona} (module path).
     *
     * @param aeron the engine's settings
     * @return the new settings
     */
    public RemoteSettings withAeron(AeronSettings aeron) {
        Objects.requireNonNull(aeron, "aeron");
        return new RemoteSettings(host, port, () -> Transport.aeron(aeron), false, heartbeatInterval, phiThreshold,
                acceptableHeartbeatPause, lostLinkTimeout, outboundQueueSize, largeMessageThreshold, untrusted, allowedSystems, advertisedPort, handshakeTimeout, retryGate);
    }

    /**
     * A copy with other failure-detection settings.
     *
     * @param heartbeatInterval time between heartbeats
     * @param phiThreshold phi above which a silent peer is dead
     * @param acceptableHeartbeatPause pause tolerated before phi rises
     * @param lostLinkTimeout how long a lost link may stay down
     * @return the new settings
     */
    public RemoteSettings withFailureDetection(Duration heartbeatInterval, double phiThreshold, Duration acceptableHeartbeatPause,
            Duration lostLinkTimeout) {
        return new RemoteSettings(host, port, transport, tls, heartbeatInterval, phiThreshold, acceptableHeartbeatPause,
                lostLinkTimeout, outboundQueueSize, largeMessageThreshold, untrusted, allowedSystems, advertisedPort, handshakeTimeout, retryGate);
    }

    /**
     * A copy with another queue size and large-message threshold.
     *
     * @param outboundQueueSize messages per lane and peer
     * @param largeMessageThreshold bytes
     * @return the new settings
     */
    public RemoteSettings withQueues(int outboundQueueSize, int largeMessageThreshold) {
        return new RemoteSettings(host, port, transport, tls, heartbeatInterval, phiThreshold, acceptableHeartbeatPause,
                lostLinkTimeout, outboundQueueSize, largeMessageThreshold, untrusted, allowedSystems, advertisedPort, handshakeTimeout, retryGate);
    }

    /**
     * A copy with untrusted mode set explicitly.
     *
     * @param on whether remote peers are untrusted
     * @return the new settings
     */
    public RemoteSettings withUntrusted(boolean on) {
        return new RemoteSettings(host, port, transport, tls, heartbeatInterval, phiThreshold, acceptableHeartbeatPause,
                lostLinkTimeout, outboundQueueSize, largeMessageThreshold, on, allowedSystems, advertisedPort, handshakeTimeout, retryGate);
    }

    /**
     * A copy that accepts handshakes only from these systems.
     *
     * @param names system names; empty allows all
     * @return the new settings
     */
    public RemoteSettings withAllowedSystems(Set<String> names) {
        return new RemoteSettings(host, port, transport, tls, heartbeatInterval, phiThreshold, acceptableHeartbeatPause,
                lostLinkTimeout, outboundQueueSize, largeMessageThreshold, untrusted, names, advertisedPort, handshakeTimeout, retryGate);
    }

    /**
     * A copy that tells other systems to reach this one at another port than the bound one.
     *
     * @param port the advertised port, 0 for the bound port
     * @return the new settings
     */
    public RemoteSettings withAdvertisedPort(int port) {
        return new RemoteSettings(host, this.port, transport, tls, heartbeatInterval, phiThreshold, acceptableHeartbeatPause,
                lostLinkTimeout, outboundQueueSize, largeMessageThreshold, untrusted, allowedSystems, port, handshakeTimeout, retryGate);
    }

    /**
     * A copy with another handshake timeout and retry gate (Pekko's {@code handshake-timeout} and
     * {@code retry-gate-closed-for}).
     *
     * @param handshakeTimeout how long the first handshake with a peer may take
     * @param retryGate how long a peer stays gated after its handshake timed out
     * @return the new settings
     */
    public RemoteSettings withHandshakeTimeout(Duration handshakeTimeout, Duration retryGate) {
        return new RemoteSettings(host, port, transport, tls, heartbeatInterval, phiThreshold, acceptableHeartbeatPause,
                lostLinkTimeout, outboundQueueSize, largeMessageThreshold, untrusted, allowedSystems, advertisedPort, handshakeTimeout,
                retryGate);
    }

    /**
     * Whether untrusted mode is on, after the default.
     *
     * @return true if remote peers are untrusted
     */
    public boolean isUntrusted() {
        return untrusted == null ? !tls : untrusted;
    }
}
