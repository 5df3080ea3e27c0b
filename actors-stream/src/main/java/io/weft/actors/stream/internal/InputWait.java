package io.weft.actors.stream.internal;

import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.TimeUnit;

/**
 * How a {@link StageFrame} on a pool worker decides between another turn, a short wait for input
 * and going idle: the worker-state checks of its execute loop.
 */
final class InputWait {

    /* design
     * A stage whose queue ran empty after a turn that consumed items waits up to SPIN_NANOS for
     * more (spinning with Thread.onSpinWait, a Thread.yield every 64 looks so that a producer on
     * the same core runs), and only while its worker has no local task and its pool no
     * submission; going idle at once would make the producer pay an activation and a pool
     * submission (often a worker wake-up) for its next item. A wait that looked at the queues only
     * once per microsecond, spinning on the clock in between (so that the producer keeps the
     * queue's cache lines while it writes), was slower on this machine: 2-stage put and Feeder /
     * baseline 0.90 and 0.89 per round against 1.12 and 1.06 with this spin (21 rounds each,
     * alternating JVMs, load 7-9; Mann-Whitney p 0.15 and 0.03; docs/streaming.md).
     * LAG: once input is there, the stage lets up to LAG_ITEMS queue up, for at most LAG_NANOS,
     * before its next turn, and looks at the queues every 16th spin only. A stage that drains
     * faster than its producer fills otherwise starts a turn per few items and reads the slot
     * and item lines the producer is writing, so every producer store needs its line back, and
     * the full fence after a feeder's or an SPSC offer (I2) waits for that each time (that
     * fence removed, as a diagnostic: 2.00x). With the lag the 2-stage Feeder pipeline ran
     * 1.39x and put 1.14x the code without it (p 0.04 and 0.03, 11 alternating JVMs each, load
     * 1.4-2.2; 3-stage 1.08x and 1.00x; bench/results/stream-pipeline2-profile-ab.txt), turns per 5 M tuples
     * 61,000-314,000 -> 17,000-29,000. An item that arrives alone waits up to LAG_NANOS more.
     * End of stream, a stop and a closed lane end the wait at once; the deadline and queued work
     * end it with a turn if input is there.
     * A nested frame (run on its producer's thread, the hand-off) never waits: its producer is
     * the same thread.
     */

    /** How long a drained stage waits for more input before it goes idle. */
    static final long SPIN_NANOS = TimeUnit.MICROSECONDS.toNanos(20);

    /** Items a waiting stage lets queue up before its next turn (LAG below). */
    static final int LAG_ITEMS = 64;
    /** How long a waiting stage that saw input lets more queue up at most. */
    static final long LAG_NANOS = TimeUnit.MICROSECONDS.toNanos(2);

    private InputWait() {
    }

    /** @return whether the current pool worker has no local task and its pool no submission */
    static boolean nothingElseQueued() {
        return Thread.currentThread() instanceof ForkJoinWorkerThread w
                && ForkJoinTask.getQueuedTaskCount() == 0 && !w.getPool().hasQueuedSubmissions();
    }

    /**
     * Input flows and {@code frame}'s queue ran empty: waits up to {@link #SPIN_NANOS} for more
     * instead of going idle, only on a pool worker with nothing else queued.
     *
     * @param frame the drained frame, owned by the calling thread
     * @return true if input (or end of stream, or a stop) arrived
     */
    static boolean awaitInput(StageFrame<?, ?> frame) {
        if (!(Thread.currentThread() instanceof ForkJoinWorkerThread w) || ForkJoinTask.getQueuedTaskCount() != 0) {
            return false;
        }
        long deadline = System.nanoTime() + SPIN_NANOS;
        long seen = 0;
        for (int i = 1; ; i++) {
            if ((i & 15) == 0 && frame.workLeft()) {
                long now = System.nanoTime();
                if (seen == 0) {
                    seen = now | 1;
                }
                if (frame.input.size() >= LAG_ITEMS || now - seen >= LAG_NANOS || frame.isStopped()
                        || frame.input.allEnded() || frame.input.closedLane()) {
                    return true;
                }
            }
            if ((i & 63) == 0) {
                if (System.nanoTime() - deadline > 0 || ForkJoinTask.getQueuedTaskCount() != 0
                        || w.getPool().hasQueuedSubmissions()) {
                    if (seen != 0) {
                        return true; // input is there: one more turn, as without the lag
                    }
                    if (StageStats.ON) {
                        StageStats.SPIN_TIMEOUTS.increment();
                    }
                    return false;
                }
                Thread.yield(); // a producer that shares this core gets to run
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
