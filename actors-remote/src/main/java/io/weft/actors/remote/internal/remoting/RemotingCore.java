package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.remote.internal.Output;
import io.weft.actors.remote.transport.InboundLink;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import io.weft.actors.remote.transport.Transport;
import io.weft.actors.spi.AddressResolver;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** The remoting layer of one system: associations, links, quarantine, ticks; its inbound side is {@link Inbound}. */
public final class RemotingCore implements Remoting, AddressResolver {

    /* design
     * associations maps a peer's host:port to its current Association; inbound maps each
     * InboundLink to the Association its handshake named. `dead` holds host:port#incarnation of
     * quarantined peers: their handshakes and frames are refused for good. This class owns that
     * state; the inbound side (the InboundHandler given to transport.bind: frame checks, handshakes,
     * system messages, envelope batches, counted refusals) lives in Inbound and reaches it through
     * package-private accessors.
     *
     * A timer thread ticks every heartbeat interval: (re)connects, repeats HELLO until acked, sends
     * heartbeats, resends unacked system messages, checks phi and lost links, times out first
     * handshakes (gating the peer, not quarantining it), and sweeps exported ask refs that are done.
     *
     * Asks: an ask's temporary ref is exported when its request is encoded (wireAddress) and
     * removed when its reply is delivered (replied) or, for an ask that timed out or failed, by the
     * next tick; so `exported` holds the pending asks and at most one tick's finished ones. The
     * replying side keeps no entry per ask (Association.ref, Association.cached).
     */

    private static final Logger LOG = LoggerFactory.getLogger(RemotingCore.class);

    final ActorSystem system;
    final CodecRegistry codec;
    final RemoteSettings settings;
    final long incarnation;
    private final Transport transport;
    private final InetSocketAddress bound;
    private final String hostPort;
    private final int advertisedPort;
    private final Map<String, Association> associations = new ConcurrentHashMap<>();
    private final Map<InboundLink, Association> inbound = new ConcurrentHashMap<>();
    private final Set<String> dead = ConcurrentHashMap.newKeySet();
    private final Map<String, ActorRef<?>> exported = new ConcurrentHashMap<>();
    private final Metrics metrics = new Metrics();
    private final ScheduledExecutorService timer;
    private final AtomicBoolean closed = new AtomicBoolean();
    private final WatchHelper watchHelper;
    private long lastRefusedLog;
    private final ThreadLocal<Output> encodeBuffers = ThreadLocal.withInitial(() -> {
        Output out = new Output(1024);
        out.refAddresses(this::wireAddress);
        return out;
    });

    private RemotingCore(ActorSystem system, CodecRegistry codec, RemoteSettings settings) throws IOException {
        this.system = system;
        this.codec = codec;
        this.settings = settings;
        SecureRandom random = new SecureRandom();
        long inc;
        do {
            inc = random.nextLong();
        } while (inc == 0);
        this.incarnation = inc;
        this.transport = settings.transport().get();
        try {
            this.bound = transport.bind(new InetSocketAddress(settings.host(), settings.port()), new Inbound(this));
        } catch (IOException | RuntimeException e) {
            transport.close();
            throw e;
        }
        this.advertisedPort = settings.advertisedPort() == 0 ? bound.getPort() : settings.advertisedPort();
        this.hostPort = settings.host() + ":" + advertisedPort;
        this.watchHelper = new WatchHelper(this);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "weft-remote-timer-" + system.name());
            t.setDaemon(true);
            return t;
        });
        long period = settings.heartbeatInterval().toMillis();
        timer.scheduleWithFixedDelay(this::tick, period, period, TimeUnit.MILLISECONDS);
        AddressResolver.install(system, this);
        RemoteEvents.started(this);
    }

    /**
     * Attaches remoting to a system.
     *
     * @param system the system
     * @param codec the codec
     * @param settings the settings
     * @return the remoting
     * @throws IOException if binding fails
     */
    public static Remoting start(ActorSystem system, CodecRegistry codec, RemoteSettings settings) throws IOException {
        return new RemotingCore(system, codec, settings);
    }

    boolean isClosed() {
        return closed.get();
    }

    // ------------------------------------------------------------------ addresses

    @Override
    public InetSocketAddress address() {
        return bound;
    }

    @Override
    public long incarnation() {
        return incarnation;
    }

    String localAddress() {
        return "weft://" + system.name() + "@" + hostPort + "/$remote#0";
    }

    @Override
    public String addressOf(ActorRef<?> ref) {
        return wireAddress(ref);
    }

    /** The address a ref travels as: remote refs as they are, local ones with this system's host and port. */
    String wireAddress(ActorRef<?> ref) {
        if (ref instanceof RemoteRefImpl r) {
            return r.address();
        }
        String full = Address.full(system.name(), hostPort, ref.name(), ref.id());
        if (ref.id() < 0 && !ref.isTerminated()) {
            // an ask's temporary ref is not in the system's table: export it so replies find it
            exported.put(exportKey(ref), ref);
        }
        return full;
    }

    private String exportKey(ActorRef<?> ref) {
        return "weft://" + system.name() + "/" + ref.name() + "#" + ref.id();
    }

    /** A reply reached an ask's temporary ref: once its ask is done, it is no longer exported. */
    void replied(ActorRef<?> recipient) {
        if (recipient.id() < 0 && recipient.isTerminated()) {
            exported.remove(exportKey(recipient), recipient);
        }
    }

    /** @return the asks' temporary refs exported for replies */
    int exportedRefs() {
        return exported.size();
    }

    /**
     * A cleared buffer of the calling thread for encoding one message (a copy of its content is
     * what is queued), so a sender's messages are encoded without growing a new array each time.
     * A buffer that grew past 1 MiB for a large message is replaced, not kept.
     */
    Output encodeBuffer() {
        Output out = encodeBuffers.get();
        if (out.array().length > 1 << 20) {
            encodeBuffers.remove();
            out = encodeBuffers.get();
        }
        out.clear();
        return out;
    }

    @Override
    public ActorRef<Object> resolve(String address) {
        return resolve(address, null);
    }

    @SuppressWarnings("unchecked")
    ActorRef<Object> resolve(String address, Association from) {
        Address a = Address.parse(address);
        if (a.host() == null) {
            if (a.system().equals(system.name())) {
                return local(a);
            }
            throw new IllegalArgumentException("address \"" + Address.clip(address) + "\" names no host and port; a remote address is weft://system@host:port/name#id");
        }
        if (a.hostPort().equals(hostPort) || (a.port() == advertisedPort && a.system().equals(system.name()) && isLoopback(a.host()))) {
            if (!a.system().equals(system.name())) {
                throw new IllegalArgumentException("address \"" + Address.clip(address) + "\" names system " + a.system()
                        + " at this node's host and port, where system " + system.name() + " runs");
            }
            return local(a);
        }
        Association assoc = association(a.system(), a.hostPort(), a.host(), a.port());
        return (ActorRef<Object>) (ActorRef<?>) assoc.ref(a, address);
    }

    private static boolean isLoopback(String host) {
        return host.equals("127.0.0.1") || host.equals("localhost");
    }

    @SuppressWarnings("unchecked")
    private ActorRef<Object> local(Address a) {
        String form = a.localForm();
        ActorRef<?> ex = exported.get(form);
        if (ex != null) {
            return (ActorRef<Object>) ex;
        }
        return system.resolve(form);
    }

    private Association association(String sys, String hp, String host, int port) {
        return associations.computeIfAbsent(hp, k -> new Association(this, sys, k, new InetSocketAddress(host, port), 0));
    }

    // ------------------------------------------------------------------ links

    void ensureLink(Association a) {
        if (closed.get() || a.isQuarantined() || a.gated()) {
            return;
        }
        a.linkLock.lock();
        try {
            OutboundLink l = a.link();
            if (l != null && l.isOpen()) {
                return;
            }
            OutboundLink[] box = new OutboundLink[1];
            box[0] = transport.connect(a.peer, cause -> {
                OutboundLink lost = box[0];
                if (lost != null) {
                    a.linkLost(lost);
                }
            });
            a.linkUp(box[0]);
            if (!box[0].isOpen()) {
                a.linkLost(box[0]);
                return;
            }
            a.sendControl(hello(Frames.HELLO, a.peerIncarnation, a.linkNonce));
        } catch (IllegalStateException e) {
            // the transport is closing
        } finally {
            a.linkLock.unlock();
        }
    }

    /**
     * A HELLO names the link it travels on by a nonce; the HELLO_ACK echoes it, so an answer to a
     * HELLO sent on an earlier link does not mark the current link as handshaken.
     */
    byte[] hello(int kind, long answering, long nonce) {
        Output out = Frames.start(kind, 64);
        out.writeString(system.name());
        out.writeString(settings.host());
        out.writeInt(advertisedPort);
        out.writeLong(incarnation);
        out.writeLong(answering);
        out.writeLong(nonce);
        return out.toByteArray();
    }

    private void tick() {
        try {
            long now = System.nanoTime();
            long nowMs = System.currentTimeMillis();
            for (Association a : associations.values()) {
                if (a.isQuarantined()) {
                    continue;
                }
                long down = a.linkDownSince;
                if (down != 0 && a.peerIncarnation != 0 && now - down > settings.lostLinkTimeout().toNanos()) {
                    quarantine(a, "its link was lost and could not be reconnected for " + settings.lostLinkTimeout());
                    continue;
                }
                if (a.handshakeOverdue(now)) {
                    a.handshakeTimedOut();
                    continue;
                }
                if (a.gated()) {
                    continue;
                }
                PhiAccrual d = a.detector;
                if (d != null && d.phi(nowMs) > settings.phiThreshold()) {
                    quarantine(a, "no heartbeat for too long (phi " + String.format("%.1f", d.phi(nowMs)) + " > " + settings.phiThreshold() + ")");
                    continue;
                }
                OutboundLink l = a.link();
                if (l == null || !l.isOpen()) {
                    if (a.peerIncarnation != 0 || a.depth(Lane.ORDINARY) + a.depth(Lane.LARGE) > 0) {
                        ensureLink(a);
                    }
                    continue;
                }
                if (!a.isEstablished()) {
                    a.sendControl(hello(Frames.HELLO, a.peerIncarnation, a.linkNonce));
                } else {
                    Output out = Frames.start(Frames.HEARTBEAT, 16);
                    out.writeLong(incarnation);
                    a.sendControl(out.toByteArray());
                    a.resendUnacked();
                }
            }
            exported.values().removeIf(ActorRef::isTerminated);
        } catch (RuntimeException e) {
            LOG.warn("remoting tick of system {} failed", system.name(), e);
        }
    }

    void quarantine(Association a, String why) {
        associations.remove(a.hostPort, a);
        if (a.peerIncarnation != 0) {
            dead.add(a.hostPort + "#" + a.peerIncarnation);
        }
        if (a.markQuarantined()) {
            metrics.quarantined.increment();
            RemoteEvents.association(this, a, RemoteEvents.QUARANTINED, why);
            a.afterQuarantine();
            LOG.warn("system {} at {} (incarnation {}) quarantined: {}; its refs report terminated and its traffic is refused",
                    a.system, a.hostPort, a.peerIncarnation, why);
            inbound.entrySet().removeIf(e -> {
                if (e.getValue() == a) {
                    e.getKey().close();
                    return true;
                }
                return false;
            });
            watchHelper.gone(a);
        }
    }

    @Override
    public boolean quarantine(String host, int port, long inc, String reason) {
        if (inc == 0 || port <= 0 || port > 65535) {
            throw new IllegalArgumentException("quarantine of " + host + ":" + port + " incarnation " + inc
                    + ": needs a port in 1..65535 and an incarnation other than 0 (the peer's Remoting.incarnation())");
        }
        String hp = host + ":" + port;
        boolean added = dead.add(hp + "#" + inc);
        Association a = associations.get(hp);
        if (a != null && a.peerIncarnation == inc) {
            quarantine(a, reason);
        } else if (added) {
            metrics.quarantined.increment();
            LOG.warn("system at {} (incarnation {}) quarantined: {}; its handshakes and frames are refused", hp, inc, reason);
        }
        return added;
    }

    @Override
    public boolean isQuarantined(String host, int port, long inc) {
        return dead.contains(host + ":" + port + "#" + inc);
    }

    /** The WatchHelper's actor watches a local watcher of remote actors, to unwatch them when it stops. */
    void watchedLocally(ActorRef<?> watcher) {
        watchHelper.localWatcher(watcher);
    }

    /** A local watcher of remote actors stopped. */
    void watcherStopped(ActorRef<?> watcher) {
        for (Association a : associations.values()) {
            a.watcherStopped(watcher);
        }
    }

    Throwable gone(Association a) {
        return new IllegalStateException("system " + a.system + " at " + a.hostPort + " (incarnation " + a.peerIncarnation
                + ") is unreachable or quarantined");
    }

    void refusedOnce(String what) {
        long now = System.nanoTime();
        if (now - lastRefusedLog > 1_000_000_000L) {
            lastRefusedLog = now;
            LOG.warn("remoting of system {}: {}", system.name(), what);
        }
    }

    void count(RemoteMetrics.Drop why, Lane lane, String peer) {
        metrics.drop(why);
        RemoteEvents.drop(this, why, lane, peer);
    }

    void sent(Lane lane, int bytes, int messages) {
        metrics.sent(lane, bytes, messages);
    }

    void deadLetter(Object message, RemoteRefImpl recipient, ActorRef<?> sender, DeadLetter.Reason reason, RemoteMetrics.Drop why, Lane lane) {
        metrics.drop(why);
        RemoteEvents.drop(this, why, lane, recipient.peer());
        try {
            system.deadLetters().post(new DeadLetter(message, recipient, sender, reason));
        } catch (UnsupportedOperationException e) {
            refusedOnce("a dead letter (" + reason + ") to " + recipient + " could not be posted: " + e.getMessage());
        }
    }

    // ------------------------------------------------------------------ metrics and close

    @Override
    public RemoteMetrics metrics() {
        return metrics.view(this);
    }

    int watchedByPeers() {
        return watchHelper.entries();
    }

    Map<String, Association> associations() {
        return associations;
    }

    /** Each inbound link with a handshake, mapped to the Association it named. */
    Map<InboundLink, Association> inboundLinks() {
        return inbound;
    }

    /** host:port#incarnation of every quarantined peer. */
    Set<String> deadIncarnations() {
        return dead;
    }

    Metrics counters() {
        return metrics;
    }

    WatchHelper watchHelper() {
        return watchHelper;
    }

    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        AddressResolver.uninstall(system, this);
        RemoteEvents.closed(this);
        timer.shutdownNow();
        try {
            timer.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        watchHelper.close();
        for (Association a : associations.values()) {
            a.close();
        }
        for (Association a : associations.values()) {
            a.join();
        }
        transport.close();
    }
}
