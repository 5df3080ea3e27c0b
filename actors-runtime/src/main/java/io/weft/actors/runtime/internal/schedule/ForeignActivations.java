package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.runtime.internal.ActivationWord;
import io.weft.actors.spi.Frame;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;
import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;

/**
 * The frames that threads outside a ForkJoin scheduler's pool have activated and that no worker has
 * taken yet, handed to the pool by one submitted {@link Drain} per batch instead of one submission
 * per activation. The drain is owned through an {@link ActivationWord}, as an actor is.
 */
public final class ForeignActivations extends ActivationWord {

    /* design
     * Why: a thread outside the pool (a producer telling many actors, an I/O thread) activates
     * idle actors one by one. One pool.execute per activation costs a task object, the submission
     * queue's lock (a CAS, the array store, the unlock) and the pool's signalWork check on that
     * thread, and one submission per activation for the workers to find. Here the thread offers
     * the frame to an MPSC queue (one CAS on its producer index, no allocation but a new 2 KiB
     * chunk per CHUNK frames) and reads this object's activation word; only the activation that
     * finds the word idle submits a Drain.
     *
     * Protocol: this object is a frame of its own kind: its "mailbox" is `queue`, its turn is a
     * Drain, and ActivationWord's protocol decides who owns the drain (ActivationWord's design
     * block; workPending() = the queue is not empty).
     *   P1 offer (any thread outside the pool): queue.offer(frame), then activateIfIdle(); the
     *      winner submits one Drain (pool.execute: the pool signals an idle worker at once, so a
     *      single tell to an idle actor waits for no batch).
     *   P2 Drain (the owner): polls up to MAX_BATCH frames: every frame but the first is forked
     *      as a fresh FrameTask to its worker's local queue (the first fork wakes an idle worker,
     *      which steals); then it gives the word up with idleOrReclaim, polling again while that
     *      reclaims it; then it runs the first frame in its own task, as a FrameTask would. The
     *      word is given up before that turn, so activations during a long turn submit a Drain of
     *      their own. A Drain that reaches MAX_BATCH while still owning submits a fresh Drain to
     *      take the rest (no worker serves the queue for ever); if the pool refuses it (shut
     *      down), the Drain goes on itself.
     * Invariants:
     *   F1 (no stranded frame): ActivationWord's A2 with the queue as the mailbox. The offer is a
     *      CAS on the producer index (a full fence) before the read of the word, and isEmpty reads
     *      that index after the drain's store of 0: either the offering thread reads 0 and wins
     *      the word (it submits a Drain), or the drain sees the frame and reclaims the word.
     *   F2 (exactly once, Prokopec 2016, Theorem 1): a frame is offered once per schedule (the
     *      activation word of the frame hands it to schedule once at a time), polled once by the
     *      single consumer (only the owner of this object's word polls: A1), and each polled frame
     *      goes to exactly one run (the inline one or one fresh FrameTask).
     *   F3 at most one Drain owns the word; a Drain that wins nothing (its frames were polled by
     *      the Drain before it, and the word given up, before its submitter's activateIfIdle) finds
     *      the queue empty and gives the word up again.
     * The jcstress test ForeignActivationsTests (actors-verify) checks F1-F3 with two offering
     * threads against a draining owner.
     *
     * Off the pool: a Drain run by a thread that is not a worker of this pool (the blocking
     * watchdog runs what it took when the pool refuses) runs every frame it polls itself.
     * Shutdown: ForkJoinScheduler.schedule sends frames straight to pool.execute once its shutdown
     * flag is set, so the pool's refusal reaches the caller's rejection path (CellSending
     * scheduleOwned: the actor stops, its messages go to dead letters). A Drain queued before the
     * pool's shutdown still runs (an orderly shutdown runs queued tasks). A thread that beat the
     * flag and whose Drain the pool refuses owns the word: it polls every frame and runs each one
     * except its own on its own thread (their schedule calls returned normally; Pool.signalWorker
     * does the same with what the pool refuses), gives the word up (polling again while that
     * reclaims it), then rethrows the refusal for its own frame. Those turns run with the flag
     * set, so a frame that schedules itself again meets the refusal directly.
     * Every kind of frame takes this path (a stream stage as well as a PoolFrame): the queue holds
     * Frames and adds nothing to them.
     */

    /** Frames a Drain hands on before it leaves the rest to a fresh Drain. */
    static final int MAX_BATCH = 1024;
    /** Frames per array chunk of the queue. */
    private static final int CHUNK = 512;

    private final MpscUnboundedAtomicArrayQueue<Frame> queue = new MpscUnboundedAtomicArrayQueue<>(CHUNK);

    /** An empty queue, its word idle. */
    public ForeignActivations() {
    }

    @Override
    protected boolean workPending() {
        return !queue.isEmpty();
    }

    /**
     * P1: queues {@code frame}, which the caller owns (its activation was won), and tries to win
     * the drain.
     *
     * @param frame the activated frame
     * @return true if the caller won the word: it must submit one {@link Drain}
     */
    public boolean offer(Frame frame) {
        queue.offer(frame);
        return activateIfIdle();
    }

    /**
     * The owner of the word only: takes the oldest queued frame.
     *
     * @return the frame, or null if the queue is empty
     */
    public Frame poll() {
        return queue.poll();
    }

    /**
     * The owner of the word only: gives it up, unless frames arrived meanwhile.
     *
     * @return true if the caller still owns the word (it must poll again), false if it gave it up
     */
    public boolean release() {
        return idleOrReclaim();
    }

    /**
     * Any thread outside the pool: hands {@code frame} to the pool through the queue.
     *
     * @throws RejectedExecutionException if the pool refuses the drain (it is shut down); every
     *     other queued frame has then run on this thread
     */
    void schedule(Frame frame, ForkJoinScheduler scheduler) {
        if (offer(frame)) {
            submitDrain(frame, scheduler);
        } // else the word's owner will poll it (F1)
    }

    /**
     * The caller won the word by offering {@code own}: submits one {@link Drain}. If the pool
     * refuses it, runs every other queued frame here, gives the word up and rethrows the refusal.
     */
    void submitDrain(Frame own, ForkJoinScheduler scheduler) {
        try {
            scheduler.pool.execute(new Drain(this, scheduler));
        } catch (RejectedExecutionException refused) {
            do {
                for (Frame f; (f = poll()) != null; ) {
                    if (f != own) {
                        FrameTask.run(f);
                    }
                }
            } while (release());
            throw refused;
        }
    }

    /**
     * One submission that drains the queue (P2): a fresh task per submission, like {@link FrameTask}
     * (a task object is never pushed twice). It owns the word from its submission until its
     * release.
     */
    @SuppressWarnings("serial") // a ForkJoinTask only to be submitted; never serialized
    static final class Drain extends ForkJoinTask<Void> {

        private final ForeignActivations owner;
        private final ForkJoinScheduler scheduler;

        Drain(ForeignActivations owner, ForkJoinScheduler scheduler) {
            this.owner = owner;
            this.scheduler = scheduler;
        }

        @Override
        public Void getRawResult() {
            return null;
        }

        @Override
        protected void setRawResult(Void value) {
        }

        @Override
        protected boolean exec() {
            if (!(Thread.currentThread() instanceof Worker w && w.getPool() == scheduler.pool)) {
                do {
                    for (Frame f; (f = owner.poll()) != null; ) {
                        FrameTask.run(f);
                    }
                } while (owner.release());
                return true;
            }
            Frame first = null;
            int handed = 0;
            do {
                for (Frame f; handed < MAX_BATCH && (f = owner.poll()) != null; handed++) {
                    if (first == null) {
                        first = f;
                    } else {
                        scheduler.pushLocal(f, true); // the first fork wakes an idle worker to steal
                    }
                }
                if (handed >= MAX_BATCH) {
                    try {
                        scheduler.pool.execute(new Drain(owner, scheduler)); // it owns the word now
                        break;
                    } catch (RejectedExecutionException shutDown) {
                        handed = 0; // the pool refuses: this worker drains the rest itself
                    }
                }
            } while (owner.release());
            if (first != null) {
                FrameTask.run(first);
            }
            return true;
        }
    }
}
