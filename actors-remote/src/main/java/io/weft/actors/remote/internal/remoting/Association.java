package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.Terminated;
import io.weft.actors.remote.CodecException;
import io.weft.actors.remote.RemoteMetrics.Drop;
import io.weft.actors.remote.internal.Output;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
     * Outbound: tell encodes at once on the caller's thread (the message is captured as it was;
     * an encode failure is a dead letter there) and offers the envelope to the bounded queue of
     * its lane; a full queue is a counted dead letter. One virtual thread per lane drains its
     * queue into frames (many envelopes per ordinary frame, one per large frame) and sends them
     * once `established` (our HELLO acknowledged), so order per sender and receiver holds on each
     * lane. Control frames go through their own queue and thread.
     *
     * Direct send on the ordinary lane: handing an envelope to the writer costs a virtual thread's
     * wake-up per message, most of a round trip's time when messages are sparse. So a sender
     * writes its one-envelope frame itself when established and the lane is quiet (LaneClaim:
     * nothing queued or in the writer's hands, nothing sent lately, the claim free), which keeps
     * order per sender. A stream of messages finds the lane busy and goes through the queue and
     * the writer, batched as before.
     *
     * System messages (watch, unwatch, terminated) carry a sequence number, stay in `unacked`
     * until the peer's cumulative ACK and are resent on every tick; the receiver delivers only the
     * next expected number, so each is delivered once and in order.
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
     * forgotten and numbering restarts at 1, under `lock` with sendSystem.
     *
     * Watchers that stop: every local watcher is also watched by the WatchHelper's actor; when it
     * stops, watcherStopped removes it from every target, and a target left without watchers is
     * unwatched on the peer.
     */

    private static final int MAX_BATCH_BYTES = 256 * 1024;
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
    private final BlockingQueue<Envelope> ordinary;
    private final BlockingQueue<Envelope> large;
    private final BlockingQueue<byte[]> control = new LinkedBlockingQueue<>(100_000);
    private final Map<String, RemoteRefImpl> refs = new ConcurrentHashMap<>();
    private final Map<String, Set<ActorRef<?>>> watchers = new ConcurrentHashMap<>();
    private final AtomicLong nextSeq = new AtomicLong();
    private final ConcurrentSkipListMap<Long, byte[]> unacked = new ConcurrentSkipListMap<>();
    private long lastDelivered;
    private final List<Thread> writers = new ArrayList<>();
    /** Who writes the ordinary lane's next frame: its writer, or a sender when the lane is quiet. */
    private final LaneClaim ordinaryClaim = new LaneClaim();
    private final Map<String, ActorRef<Object>> resolved = new ConcurrentHashMap<>();
    final io.weft.actors.remote.RefResolver resolver;

    /** A message on its way out. */
    record Envelope(RemoteRefImpl recipient, Object message, ActorRef<?> sender, String senderAddress, byte[] bytes) {
    }

    Association(RemotingCore core, String system, String hostPort, InetSocketAddress peer, long peerIncarnation) {
        this.core = core;
        this.resolver = address -> core.resolve(address, this);
        this.system = system;
        this.hostPort = hostPort;
        this.peer = peer;
        this.peerIncarnation = peerIncarnation;
        int q = core.settings.outboundQueueSize();
        this.ordinary = new ArrayBlockingQueue<>(q);
        this.large = new ArrayBlockingQueue<>(q);
        String name = "weft-remote-" + hostPort + "-";
        writers.add(Thread.ofVirtual().name(name + "ordinary").start(() -> writeEnvelopes(Lane.ORDINARY, ordinary)));
        writers.add(Thread.ofVirtual().name(name + "large").start(() -> writeEnvelopes(Lane.LARGE, large)));
        writers.add(Thread.ofVirtual().name(name + "control").start(this::writeControl));
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
        return switch (lane) {
            case ORDINARY -> ordinary.size();
            case LARGE -> large.size();
            case CONTROL -> control.size();
        };
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
        Envelope e = new Envelope(recipient, message, sender, senderAddress, bytes);
        BlockingQueue<Envelope> q = bytes.length > core.settings.largeMessageThreshold() ? large : ordinary;
        if (q == ordinary) {
            if (sendDirect(e)) {
                return;
            }
            ordinaryClaim.enqueued();
        }
        if (!q.offer(e)) {
            if (q == ordinary) {
                ordinaryClaim.dropped(1);
            }
            core.deadLetter(message, recipient, sender, DeadLetter.Reason.REMOTE_OUTBOUND_OVERFLOW, Drop.OUTBOUND_OVERFLOW,
                    q == large ? Lane.LARGE : Lane.ORDINARY);
        }
    }

    void sendControl(byte[] frame) {
        if (!quarantined && !control.offer(frame)) {
            core.count(Drop.OUTBOUND_OVERFLOW, Lane.CONTROL, hostPort);
        }
    }

    void sendSystem(int op, String target, String watcher) {
        byte[] frame;
        lock.lock();
        try {
            long seq = nextSeq.incrementAndGet();
            Output out = Frames.start(Frames.SYSTEM, 64 + target.length() + watcher.length());
            out.writeLong(core.incarnation);
            out.writeLong(seq);
            out.writeInt(op);
            out.writeString(target);
            out.writeString(watcher);
            frame = out.toByteArray();
            unacked.put(seq, frame);
        } finally {
            lock.unlock();
        }
        if (established) {
            sendControl(frame);
        }
    }

    void resendUnacked() {
        if (established) {
            for (byte[] f : unacked.values()) {
                sendControl(f);
            }
        }
    }

    void acked(long seq) {
        unacked.headMap(seq, true).clear();
    }

    /** @return true if the system message with this number is the next one, to be delivered */
    boolean accept(long seq) {
        lock.lock();
        try {
            if (seq == lastDelivered + 1) {
                lastDelivered = seq;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    long lastDelivered() {
        lock.lock();
        try {
            return lastDelivered;
        } finally {
            lock.unlock();
        }
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

    private boolean awaitEstablished() throws InterruptedException {
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

    private void writeEnvelopes(Lane lane, BlockingQueue<Envelope> queue) {
        List<Envelope> batch = new ArrayList<>();
        try {
            while (!core.isClosed() && !quarantined) {
                Envelope first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                if (!awaitEstablished()) {
                    core.deadLetter(first.message(), first.recipient(), first.sender(), DeadLetter.Reason.REMOTE_UNREACHABLE, Drop.UNREACHABLE, lane);
                    if (lane == Lane.ORDINARY) {
                        ordinaryClaim.dropped(1);
                    }
                    continue;
                }
                boolean claimed = lane == Lane.ORDINARY;
                if (claimed) {
                    ordinaryClaim.claimForWriter();
                }
                batch.clear();
                batch.add(first);
                int bytes = first.bytes().length;
                try {
                    if (lane == Lane.ORDINARY) {
                        Envelope e;
                        while (bytes < MAX_BATCH_BYTES && (e = queue.poll()) != null) {
                            batch.add(e);
                            bytes += e.bytes().length;
                        }
                    }
                    writeFrame(lane, batch, bytes);
                } finally {
                    if (claimed) {
                        ordinaryClaim.releaseWriter(batch.size());
                    }
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        drain(lane, queue);
    }

    /** Encodes the envelopes into one frame and hands it to the link; on failure they go to dead letters. */
    private void writeFrame(Lane lane, List<Envelope> batch, int bytes) throws InterruptedException {
        byte[] frame = Frames.envelopes(core.incarnation, batch, bytes);
        OutboundLink l = link;
        try {
            if (l == null) {
                throw new IllegalStateException("no link");
            }
            l.send(lane, frame);
            core.sent(lane, frame.length, batch.size());
        } catch (IllegalStateException | IllegalArgumentException ex) {
            for (Envelope e : batch) {
                core.deadLetter(e.message(), e.recipient(), e.sender(), DeadLetter.Reason.REMOTE_UNREACHABLE, Drop.UNREACHABLE, lane);
            }
        }
    }

    /**
     * Sends an ordinary envelope on the caller's thread when established and the lane is quiet
     * (LaneClaim.tryDirect); order per sender holds.
     *
     * @return whether the envelope was sent (or dead-lettered) here; false: queue it
     */
    private boolean sendDirect(Envelope e) {
        if (!established || !ordinaryClaim.tryDirect()) {
            return false;
        }
        try {
            if (!established || quarantined) {
                return false;
            }
            writeFrame(Lane.ORDINARY, List.of(e), e.bytes().length);
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            core.deadLetter(e.message(), e.recipient(), e.sender(), DeadLetter.Reason.REMOTE_UNREACHABLE, Drop.UNREACHABLE, Lane.ORDINARY);
        } finally {
            ordinaryClaim.releaseDirect();
        }
        return true;
    }

    private int drain(Lane lane, BlockingQueue<Envelope> queue) {
        int n = 0;
        Envelope e;
        while ((e = queue.poll()) != null) {
            core.deadLetter(e.message(), e.recipient(), e.sender(), DeadLetter.Reason.REMOTE_UNREACHABLE, Drop.UNREACHABLE, lane);
            n++;
        }
        if (lane == Lane.ORDINARY && n > 0) {
            ordinaryClaim.dropped(n);
        }
        return n;
    }

    private void writeControl() {
        try {
            while (!core.isClosed() && !quarantined) {
                byte[] f = control.poll(200, TimeUnit.MILLISECONDS);
                if (f == null) {
                    continue;
                }
                OutboundLink l = link;
                if (l == null) {
                    continue;
                }
                try {
                    l.send(Lane.CONTROL, f);
                    core.sent(Lane.CONTROL, f.length, 1);
                } catch (IllegalStateException | IllegalArgumentException ex) {
                    // lost with the link; handshakes and heartbeats repeat, system messages are resent
                }
            }
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    // ------------------------------------------------------------------ watch

    void watch(RemoteRefImpl target, ActorRef<?> watcher) {
        if (target.isTerminated()) {
            tellTerminated(watcher, new Terminated(target, core.gone(this)));
            return;
        }
        if (gated()) {
            tellTerminated(watcher, new Terminated(target, handshakeFailure()));
            return;
        }
        core.watchedLocally(watcher);
        boolean[] first = new boolean[1];
        watchers.compute(target.address(), (k, set) -> {
            Set<ActorRef<?>> s = set == null ? ConcurrentHashMap.newKeySet() : set;
            first[0] = s.isEmpty();
            s.add(watcher);
            return s;
        });
        if (first[0]) {
            sendSystem(Frames.WATCH, target.address(), core.localAddress());
            core.ensureLink(this);
        }
        if (quarantined) {
            notifyWatchers();
        }
    }

    void unwatch(RemoteRefImpl target, ActorRef<?> watcher) {
        boolean[] last = new boolean[1];
        watchers.computeIfPresent(target.address(), (k, s) -> {
            s.remove(watcher);
            last[0] = s.isEmpty();
            return s.isEmpty() ? null : s;
        });
        if (last[0]) {
            sendSystem(Frames.UNWATCH, target.address(), core.localAddress());
        }
    }

    /** A local watcher stopped: its watches go, and a target it was the last watcher of is unwatched on the peer. */
    void watcherStopped(ActorRef<?> watcher) {
        for (String target : List.copyOf(watchers.keySet())) {
            boolean[] last = new boolean[1];
            watchers.computeIfPresent(target, (k, s) -> {
                last[0] = s.remove(watcher) && s.isEmpty();
                return s.isEmpty() ? null : s;
            });
            if (last[0] && !quarantined) {
                sendSystem(Frames.UNWATCH, target, core.localAddress());
            }
        }
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
            unacked.clear();
            nextSeq.set(0);
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
        control.clear();
        int dropped = drain(Lane.ORDINARY, ordinary) + drain(Lane.LARGE, large);
        for (String target : List.copyOf(watchers.keySet())) {
            Set<ActorRef<?>> ws = watchers.remove(target);
            if (ws != null) {
                RemoteRefImpl r = ref(Address.parse(target), target);
                for (ActorRef<?> w : ws) {
                    tellTerminated(w, new Terminated(r, cause));
                }
            }
        }
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
        Set<ActorRef<?>> ws = watchers.remove(target);
        if (ws != null) {
            ActorRef<?> r = ref != null ? ref : ref(Address.parse(target), target);
            for (ActorRef<?> w : ws) {
                tellTerminated(w, new Terminated(r, null));
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static void tellTerminated(ActorRef<?> watcher, Terminated t) {
        ((ActorRef<Object>) watcher).tell(t);
    }

    private void notifyWatchers() {
        for (String target : List.copyOf(watchers.keySet())) {
            Set<ActorRef<?>> ws = watchers.remove(target);
            if (ws != null) {
                RemoteRefImpl r = ref(Address.parse(target), target);
                for (ActorRef<?> w : ws) {
                    tellTerminated(w, new Terminated(r, core.gone(this)));
                }
            }
        }
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
        notifyWatchers();
        for (Thread t : writers) {
            t.interrupt();
        }
        control.clear();
        unacked.clear();
    }

    void close() {
        for (Thread t : writers) {
            t.interrupt();
        }
        OutboundLink l = link;
        if (l != null) {
            l.close();
        }
    }

    void join() {
        for (Thread t : writers) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "Association[" + system + "@" + hostPort + " #" + peerIncarnation + (quarantined ? ", quarantined" : "") + "]";
    }
}
