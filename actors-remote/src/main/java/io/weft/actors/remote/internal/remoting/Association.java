package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.RemoteMetrics.Drop;
import io.weft.actors.remote.internal.Output;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** This system's state for one incarnation of one peer: link, lanes' queues, watches, detector. */
final class Association {

    /* design
     * One Association per (peer host:port, peer incarnation). Until the handshake names the
     * incarnation, peerIncarnation is 0; a handshake naming another incarnation than a known one
     * quarantines this Association and RemotingCore makes a new one, so refs resolved earlier stay
     * bound to the dead incarnation and report terminated.
     *
     * Its parts, each with its own design block: OutboundLanes (the lanes' queues, writers and
     * direct sends), SystemMessages (numbered, resent until acknowledged) and PeerWatches (local
     * watchers of the peer's actors). This class keeps the link and handshake state they read:
     * `established` (our HELLO acknowledged), `quarantined`, the gate, and `ready`, the condition
     * a writer waits on in awaitEstablished.
     *
     * Quarantine is final for the Association: queues drain to dead letters, watchers of its refs
     * get Terminated, its link closes, and RemotingCore refuses its incarnation from then on.
     *
     * Handshake timeout: handshakeSince is set when a link comes up unhandshaken and cleared when
     * the handshake completes. If the first handshake (no peer incarnation known) takes longer than
     * the setting, the tick calls handshakeTimedOut: the gate closes first (send and watch then
     * answer at once: dead letter, Terminated), then the link closes, the queues drain to dead
     * letters and the watchers are told. A writer holding an envelope sees the gate in
     * awaitEstablished and dead-letters it, so nothing waits past the timeout. No incarnation is
     * declared dead: after the gate, the next message tries a new handshake. The peer never
     * received a system message (they are sent only once established), so the unacked ones are
     * forgotten and numbering restarts at 1 (SystemMessages.reset, inside `lock`).
     */

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Association.class);

    final RemotingCore core;
    final String hostPort;
    final InetSocketAddress peer;
    volatile String system;
    volatile long peerIncarnation;
    private volatile boolean quarantined;
    private volatile boolean established;
    private volatile OutboundLink link;
    volatile long linkNonce;
    volatile long linkDownSince;
    volatile PhiAccrual detector;
    private volatile long handshakeSince;
    private volatile long gatedUntil;

    private final ReentrantLock lock = new ReentrantLock();
    final ReentrantLock linkLock = new ReentrantLock();
    private final Condition ready = lock.newCondition();
    private final Map<String, RemoteRefImpl> refs = new ConcurrentHashMap<>();
    private final SystemMessages systemMessages;
    private final PeerWatches watches;
    private final OutboundLanes lanes;
    private final Map<String, ActorRef<Object>> resolved = new ConcurrentHashMap<>();
    final io.weft.actors.remote.RefResolver resolver;

    Association(RemotingCore core, String system, String hostPort, InetSocketAddress peer, long peerIncarnation) {
        this.core = core;
        this.resolver = address -> core.resolve(address, this);
        this.system = system;
        this.hostPort = hostPort;
        this.peer = peer;
        this.peerIncarnation = peerIncarnation;
        this.systemMessages = new SystemMessages(this);
        this.watches = new PeerWatches(this);
        this.lanes = new OutboundLanes(this);
    }

    /**
     * Resolves an address that arrived from this peer, remembering up to 4,096 of them: most
     * traffic names the same few recipients and senders. A remembered ref that stops delivers to
     * dead letters, as a freshly resolved one would. An ask's temporary ref (a negative id) is
     * not remembered: each ask's address comes once as a request's sender and once as its reply's
     * recipient, and remembering them would push the lasting refs out of the cache.
     */
    @SuppressWarnings("unchecked")
    ActorRef<Object> cached(String address, io.weft.actors.remote.RefResolver r) {
        ActorRef<Object> ref = resolved.get(address);
        if (ref == null || ref.isTerminated()) {
            ref = (ActorRef<Object>) r.resolve(address);
            if (ref.id() < 0) {
                return ref;
            }
            if (resolved.size() >= 4096) {
                resolved.clear();
            }
            resolved.put(address, ref);
        }
        return ref;
    }

    boolean isQuarantined() {
        return quarantined;
    }

    boolean isEstablished() {
        return established;
    }

    /**
     * The ref to the peer's actor at this address. Refs to lasting actors are kept in `refs`, one
     * per address, so a TERMINATED from the peer marks the ref its holders have. An ask's temporary
     * ref on the peer (a negative id) is made fresh and not kept: there is one per ask, it is used
     * for one reply, and keeping it would grow `refs` by one entry per ask received.
     */
    RemoteRefImpl ref(Address a, String address) {
        if (a.id() < 0) {
            RemoteRefImpl kept = refs.get(address);
            return kept != null ? kept : new RemoteRefImpl(this, address, a.name(), a.id());
        }
        return refs.computeIfAbsent(address, k -> new RemoteRefImpl(this, k, a.name(), a.id()));
    }

    /** @return the refs to the peer's actors this Association keeps */
    int keptRefs() {
        return refs.size();
    }

    /** @return the addresses from this peer remembered by {@link #cached} */
    int cachedAddresses() {
        return resolved.size();
    }

    int depth(Lane lane) {
        return lanes.depth(lane);
    }

    // ------------------------------------------------------------------ outbound

    /** @return whether a handshake timeout closed the gate and it has not opened yet */
    boolean gated() {
        long g = gatedUntil;
        return g != 0 && g - System.nanoTime() > 0;
    }

    /** @return whether the first handshake has waited longer than the handshake timeout */
    boolean handshakeOverdue(long now) {
        long since = handshakeSince;
        return since != 0 && !established && peerIncarnation == 0 && now - since > core.settings.handshakeTimeout().toNanos();
    }

    void send(RemoteRefImpl recipient, Object message, ActorRef<?> sender) {
        if (quarantined || core.isClosed() || gated()) {
            core.deadLetter(message, recipient, sender, DeadLetter.Reason.REMOTE_UNREACHABLE, Drop.UNREACHABLE, null);
            return;
        }
        byte[] bytes;
        String senderAddress;
        try {
            Output out = core.encodeBuffer();
            core.codec.encode(message, out);
            bytes = out.toByteArray();
            senderAddress = sender == null ? "" : core.wireAddress(sender);
        } catch (CodecException e) {
            core.refusedOnce("a message to " + recipient + " cannot be encoded: " + e.getMessage());
            core.deadLetter(message, recipient, sender, DeadLetter.Reason.REMOTE_REFUSED, Drop.ENCODE_FAILED, null);
            return;
        }
        if (link == null && linkDownSince == 0) {
            core.ensureLink(this);
        }
        lanes.send(new OutboundLanes.Envelope(recipient, message, sender, senderAddress, bytes));
    }

    void sendControl(byte[] frame) {
        lanes.sendControl(frame);
    }

    void sendSystem(int op, String target, String watcher) {
        systemMessages.send(op, target, watcher);
    }

    void resendUnacked() {
        systemMessages.resendUnacked();
    }

    void acked(long seq) {
        systemMessages.acked(seq);
    }

    /** @return true if the system message with this number is the next one, to be delivered */
    boolean accept(long seq) {
        return systemMessages.accept(seq);
    }

    long lastDelivered() {
        return systemMessages.lastDelivered();
    }

    void linkUp(OutboundLink l) {
        linkNonce = java.util.concurrent.ThreadLocalRandom.current().nextLong();
        link = l;
        established = false;
        if (handshakeSince == 0) {
            handshakeSince = System.nanoTime();
        }
    }

    OutboundLink link() {
        return link;
    }

    void linkLost(OutboundLink l) {
        if (link == l) {
            link = null;
            if (established) {
                RemoteEvents.association(core, this, RemoteEvents.LINK_LOST, "the outbound link to the peer closed");
            }
            established = false;
            if (linkDownSince == 0) {
                linkDownSince = System.nanoTime();
            }
        }
    }

    void established() {
        lock.lock();
        try {
            established = true;
            linkDownSince = 0;
            handshakeSince = 0;
            ready.signalAll();
        } finally {
            lock.unlock();
        }
        resendUnacked();
    }

    /** @return once established (true), or quarantined, closed or gated (false, unless established) */
    boolean awaitEstablished() throws InterruptedException {
        lock.lock();
        try {
            while (!established && !quarantined && !core.isClosed() && !gated()) {
                ready.await(200, TimeUnit.MILLISECONDS);
            }
            return established && !quarantined;
        } finally {
            lock.unlock();
        }
    }

    // ------------------------------------------------------------------ watch

    void watch(RemoteRefImpl target, ActorRef<?> watcher) {
        watches.watch(target, watcher);
    }

    void unwatch(RemoteRefImpl target, ActorRef<?> watcher) {
        watches.unwatch(target, watcher);
    }

    /** A local watcher stopped: its watches go, and a target it was the last watcher of is unwatched on the peer. */
    void watcherStopped(ActorRef<?> watcher) {
        watches.watcherStopped(watcher);
    }

    /** The cause a watcher's {@code Terminated} carries when the first handshake timed out. */
    Throwable handshakeFailure() {
        return new IllegalStateException("system " + system + " at " + hostPort + " did not answer the handshake within "
                + core.settings.handshakeTimeout() + " (gated for " + core.settings.retryGate() + ", not quarantined)");
    }

    /**
     * The first handshake took longer than the timeout: close the gate, drop the link, send what
     * waits to dead letters, tell the watchers, log one line. The peer is not quarantined.
     */
    void handshakeTimedOut() {
        Throwable cause = handshakeFailure();
        lock.lock();
        try {
            long until = System.nanoTime() + core.settings.retryGate().toNanos();
            gatedUntil = until == 0 ? 1 : until;
            handshakeSince = 0;
            systemMessages.reset();
            ready.signalAll();
        } finally {
            lock.unlock();
        }
        OutboundLink l = link;
        link = null;
        linkDownSince = 0;
        if (l != null) {
            l.close();
        }
        int dropped = lanes.dropWaiting();
        watches.terminateAll(() -> cause);
        RemoteEvents.association(core, this, RemoteEvents.HANDSHAKE_TIMEOUT, "no handshake within " + core.settings.handshakeTimeout());
        LOG.warn("system {} at {} did not complete a handshake within {}: {} waiting messages went to dead letters, watchers of its "
                + "actors were told Terminated, and it is gated for {} (messages to it go to dead letters; not quarantined)",
                system, hostPort, core.settings.handshakeTimeout(), dropped, core.settings.retryGate());
    }

    /** The peer says its actor stopped. */
    void remoteTerminated(String target) {
        RemoteRefImpl ref = refs.get(target);
        if (ref != null) {
            ref.markTerminated();
        }
        watches.remoteTerminated(target, ref);
    }

    /** Declares this incarnation dead; true the first time. {@link #afterQuarantine()} follows. */
    boolean markQuarantined() {
        lock.lock();
        try {
            if (quarantined) {
                return false;
            }
            quarantined = true;
            ready.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Closes the link, tells the watchers, ends the writers. */
    void afterQuarantine() {
        OutboundLink l = link;
        if (l != null) {
            l.close();
        }
        watches.terminateAll(() -> core.gone(this));
        lanes.stop();
        lanes.clearControl();
        systemMessages.clear();
    }

    void close() {
        lanes.stop();
        OutboundLink l = link;
        if (l != null) {
            l.close();
        }
    }

    void join() {
        lanes.join();
    }

    @Override
    public String toString() {
        return "Association[" + system + "@" + hostPort + " #" + peerIncarnation + (quarantined ? ", quarantined" : "") + "]";
    }
}
