package io.weft.actors.remote.internal.remoting;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Who may write the ordinary lane's next frame: its writer thread, or a sender when the lane is quiet. */
final class LaneClaim {

    /* design
     * Whoever writes a frame holds the claim, so frames never interleave. `pending` counts the
     * envelopes offered to the lane's queue and not yet handed to the link (or to dead letters):
     * a sender increments it before its offer, the writer decrements it after the link took the
     * batch, while still holding the claim. A sender that takes the claim and then finds pending
     * 0 has no earlier message still waiting, so writing its own frame keeps order per sender.
     * tryDirect also asks for QUIET_NS without a frame, so a stream of messages goes through the
     * queue and is batched by the writer; only sparse messages skip the writer's wake-up.
     */

    /** How long the lane must have been quiet before a sender may write its frame itself. */
    static final long QUIET_NS = 20_000;

    private final AtomicInteger pending = new AtomicInteger();
    private final AtomicBoolean claim = new AtomicBoolean();
    private volatile long lastFrameNs = System.nanoTime() - QUIET_NS;

    /** @return whether the caller now holds the claim and may write its envelope directly; then {@link #releaseDirect()} */
    boolean tryDirect() {
        if (pending.get() != 0 || System.nanoTime() - lastFrameNs < QUIET_NS || !claim.compareAndSet(false, true)) {
            return false;
        }
        if (pending.get() != 0) {
            releaseDirect();
            return false;
        }
        return true;
    }

    /** Ends a direct write. */
    void releaseDirect() {
        lastFrameNs = System.nanoTime();
        claim.set(false);
    }

    /** An envelope is about to be offered to the queue. */
    void enqueued() {
        pending.incrementAndGet();
    }

    /** Envelopes left the queue without a frame (refused offer, dead letters). */
    void dropped(int n) {
        pending.addAndGet(-n);
    }

    /** The writer takes the claim; a direct sender holds it for one send at most. */
    void claimForWriter() {
        int spins = 0;
        while (!claim.compareAndSet(false, true)) {
            if (++spins < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
    }

    /** The writer handed n queued envelopes to the link (or to dead letters) and lets go. */
    void releaseWriter(int n) {
        pending.addAndGet(-n);
        lastFrameNs = System.nanoTime();
        claim.set(false);
    }
}
