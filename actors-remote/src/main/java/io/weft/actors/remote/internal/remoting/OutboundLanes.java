package io.weft.actors.remote.internal.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.remote.RemoteMetrics.Drop;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/** One Association's outbound lanes: their bounded queues, their writer threads, and direct sends on the ordinary lane. */
final class OutboundLanes {

    /* design
     * Outbound: Association.send encodes at once on the caller's thread (the message is captured
     * as it was; an encode failure is a dead letter there) and offers the envelope here, to the
     * bounded queue of its lane; a full queue is a counted dead letter. One virtual thread per lane
     * drains its queue into frames (many envelopes per ordinary frame, one per large frame) and
     * sends them once the Association is established (our HELLO acknowledged), so order per sender
     * and receiver holds on each lane. Control frames go through their own queue and thread; a
     * control frame lost with a link is not resent here (handshakes and heartbeats repeat, system
     * messages are resent by SystemMessages).
     *
     * Direct send on the ordinary lane: handing an envelope to the writer costs a virtual thread's
     * wake-up per message, most of a round trip's time when messages are sparse. So a sender
     * writes its one-envelope frame itself when established and the lane is quiet (LaneClaim:
     * nothing queued or in the writer's hands, nothing sent lately, the claim free), which keeps
     * order per sender. A stream of messages finds the lane busy and goes through the queue and
     * the writer, batched as before.
     *
     * Invariants: every envelope offered leaves as part of a frame handed to the link or as a
     * counted dead letter; every envelope the ordinary lane's LaneClaim counted as enqueued is
     * released by the writer or reported dropped. A writer ends when the Association is
     * quarantined or the system closes, and then sends what its queue holds to dead letters.
     * A send that passed Association.send's check before the quarantine (or close) can offer its
     * envelope after that final drain; so a sender that finds the Association quarantined or the
     * system closed after its offer drains the queue to dead letters itself. Either the writer's
     * drain or the sender's sees the envelope: the quarantine flag is set before the writers are
     * interrupted, and the sender reads it after its offer.
     */

    private static final int MAX_BATCH_BYTES = 256 * 1024;

    /** A message on its way out. */
    record Envelope(RemoteRefImpl recipient, Object message, ActorRef<?> sender, String senderAddress, byte[] bytes) {
    }

    private final Association association;
    private final RemotingCore core;
    private final BlockingQueue<Envelope> ordinary;
    private final BlockingQueue<Envelope> large;
    private final BlockingQueue<byte[]> control = new LinkedBlockingQueue<>(100_000);
    private final List<Thread> writers = new ArrayList<>();
    /** Who writes the ordinary lane's next frame: its writer, or a sender when the lane is quiet. */
    private final LaneClaim ordinaryClaim = new LaneClaim();

    /** Makes the queues and starts one writer per lane. */
    OutboundLanes(Association association) {
        this.association = association;
        this.core = association.core;
        int q = core.settings.outboundQueueSize();
        this.ordinary = new ArrayBlockingQueue<>(q);
        this.large = new ArrayBlockingQueue<>(q);
        String name = "weft-remote-" + association.hostPort + "-";
        writers.add(Thread.ofVirtual().name(name + "ordinary").start(() -> writeEnvelopes(Lane.ORDINARY, ordinary)));
        writers.add(Thread.ofVirtual().name(name + "large").start(() -> writeEnvelopes(Lane.LARGE, large)));
        writers.add(Thread.ofVirtual().name(name + "control").start(this::writeControl));
    }

    int depth(Lane lane) {
        return switch (lane) {
            case ORDINARY -> ordinary.size();
            case LARGE -> large.size();
            case CONTROL -> control.size();
        };
    }

    /** Sends the encoded envelope directly or through its lane's queue; a full queue is a dead letter. */
    void send(Envelope e) {
        BlockingQueue<Envelope> q = e.bytes().length > core.settings.largeMessageThreshold() ? large : ordinary;
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
            core.deadLetter(e.message(), e.recipient(), e.sender(), DeadLetter.Reason.REMOTE_OUTBOUND_OVERFLOW, Drop.OUTBOUND_OVERFLOW,
                    q == large ? Lane.LARGE : Lane.ORDINARY);
        } else if (association.isQuarantined() || core.isClosed()) {
            // the writer may have drained its queue and ended between the sender's check and this offer
            drain(q == large ? Lane.LARGE : Lane.ORDINARY, q);
        }
    }

    void sendControl(byte[] frame) {
        if (!association.isQuarantined() && !control.offer(frame)) {
            core.count(Drop.OUTBOUND_OVERFLOW, Lane.CONTROL, association.hostPort);
        }
    }

    private void writeEnvelopes(Lane lane, BlockingQueue<Envelope> queue) {
        List<Envelope> batch = new ArrayList<>();
        try {
            while (!core.isClosed() && !association.isQuarantined()) {
                Envelope first = queue.poll(200, TimeUnit.MILLISECONDS);
                if (first == null) {
                    continue;
                }
                if (!association.awaitEstablished()) {
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
        OutboundLink l = association.link();
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
        if (!association.isEstablished() || !ordinaryClaim.tryDirect()) {
            return false;
        }
        try {
            if (!association.isEstablished() || association.isQuarantined()) {
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

    /**
     * Forgets the waiting control frames and sends the waiting envelopes to dead letters; the
     * writers go on.
     *
     * @return how many envelopes went to dead letters
     */
    int dropWaiting() {
        control.clear();
        return drain(Lane.ORDINARY, ordinary) + drain(Lane.LARGE, large);
    }

    private void writeControl() {
        try {
            while (!core.isClosed() && !association.isQuarantined()) {
                byte[] f = control.poll(200, TimeUnit.MILLISECONDS);
                if (f == null) {
                    continue;
                }
                OutboundLink l = association.link();
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

    /** Ends the writers; each sends what its queue holds to dead letters. */
    void stop() {
        for (Thread t : writers) {
            t.interrupt();
        }
    }

    /** Forgets the waiting control frames. */
    void clearControl() {
        control.clear();
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
}
