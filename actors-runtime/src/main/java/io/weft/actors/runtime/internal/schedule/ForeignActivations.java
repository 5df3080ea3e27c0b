package io.weft.actors.runtime.internal.schedule;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;

/**
 * The frames that threads outside a ForkJoin scheduler's pool have activated and that no worker has
 * taken yet: an intrusive list linked through {@link PoolFrame}'s {@code foreignNext}, drained by one
 * pool submission (a {@link Drain}) per batch instead of one submission per activation.
 */
public final class ForeignActivations {

    /* design
     * Why: a thread outside the pool (a producer telling many actors) activates idle actors one
     * by one. One pool.execute per activation costs a task object, the submission queue's lock
     * (a CAS, the array store, the unlock) and the pool's signalWork check on the producer, and a
     * submission to scan for on the worker side. Here the producer pays one CAS on `head`, and
     * only the activation that finds the list empty submits a Drain task.
     *
     * Structure: `head` is the top of a Treiber stack of frames linked through foreignNext
     * (Treiber 1986). push (any thread outside the pool): read head, foreignNext = head, CAS head
     * from that value to the frame; returns whether the list was empty. takeAll (the drainer):
     * getAndSet(head, null) takes the whole chain at once, then reverses it into activation
     * order (FIFO) before any frame of it is handed on. Push only ever CASes onto the current
     * head, so ABA cannot link a frame wrongly: the frame's link is the head the CAS replaced.
     *
     * Protocol (the drain-pending flag is the list itself: a drain is pending iff head != null):
     *   P1 a push that replaced null submits one Drain (pool.execute: the pool signals an idle
     *      worker at once, so a single tell to an idle actor is not delayed); a push onto a
     *      non-empty list submits nothing.
     *   P2 a Drain runs takeAll once: it forks every frame but the first as a FrameTask on its
     *      worker's local queue (the first fork wakes an idle worker, which steals), then runs the
     *      first frame's turn itself, as a FrameTask would.
     * Invariants:
     *   F1 (no stranded frame): head != null implies exactly one take is owed: a Drain submitted
     *      (or being submitted, or refused, see Shutdown) whose takeAll has not happened. Proof: a
     *      push that replaces null owes the take (P1); while head != null no push submits; only
     *      takeAll empties the list, and it is that owed take. So a frame linked after a take
     *      found head == null (that take's getAndSet wrote it) and submitted a Drain of its own:
     *      none waits for a Drain that has already taken.
     *   F2 (exactly once, Prokopec 2016, Theorem 1): a frame is pushed once per schedule (the
     *      activation CAS of its word hands it to schedule once at a time), the getAndSet gives
     *      each chain to exactly one taker, and the taker hands each frame of it to exactly one
     *      run (inline or one fresh FrameTask). foreignNext is read and cleared before the frame is
     *      handed on: after that hand-off the frame may run, go idle and be pushed again by
     *      another thread, which rewrites foreignNext.
     *   F3 (visibility): foreignNext is a plain field written before the releasing CAS of push and
     *      read after the acquiring getAndSet of takeAll; the fork of a FrameTask publishes the
     *      cleared link to the thief.
     * The jcstress test ForeignActivationsTests (actors-verify) checks F1 and F2 with two pushers
     * against a taker.
     *
     * Off the pool: a Drain run by a thread that is not a worker of this pool (the blocking
     * watchdog runs what it took when the pool refuses) cannot fork to a local queue, so it runs
     * every frame of its chain itself.
     * Shutdown: ForkJoinScheduler.schedule sends frames straight to pool.execute once its shutdown
     * flag is set, so the pool's refusal reaches the caller's rejection path (CellSending
     * scheduleOwned: the actor stops, its messages go to dead letters). A Drain queued before the
     * pool's shutdown still runs (an orderly shutdown runs queued tasks). A push that beat the
     * flag and whose Drain the pool refuses holds the owed take (F1): it takes the chain, whose
     * first frame is its own (it found the list empty), runs every later frame on its own thread
     * (their schedule calls returned normally; as Pool.signalWorker runs what the pool refuses),
     * then rethrows the refusal for its own frame. Those turns run with the flag set, so a frame
     * that schedules itself again meets the refusal directly, never this path again.
     * Frames of other types (stream stages) keep one pool.execute per activation: the link is a
     * field of PoolFrame, and a node per activation would cost what the FrameTask costs.
     */

    private static final VarHandle HEAD;

    static {
        try {
            HEAD = MethodHandles.lookup().findVarHandle(ForeignActivations.class, "head", PoolFrame.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The most recently pushed frame, null when the list is empty (no drain owed). */
    @SuppressWarnings("unused") // through HEAD
    private volatile PoolFrame head;

    /** An empty list. */
    public ForeignActivations() {
    }

    /**
     * Links {@code frame}, which the caller owns (its activation was won), into the list.
     *
     * @param frame the activated frame; not in the list
     * @return true if the list was empty: the caller must submit one {@link Drain} (P1)
     */
    public boolean push(PoolFrame frame) {
        PoolFrame h;
        do {
            h = (PoolFrame) HEAD.getOpaque(this);
            frame.foreignNext = h;
        } while (!HEAD.compareAndSet(this, h, frame));
        return h == null;
    }

    /**
     * Takes every frame in the list, emptying it: the take a {@link Drain} owes (F1).
     *
     * @return the oldest frame, linked to the later ones in activation order (read them with
     *     {@link #detach}), or null if the list was empty
     */
    public PoolFrame takeAll() {
        PoolFrame f = (PoolFrame) HEAD.getAndSet(this, null);
        PoolFrame fifo = null;
        while (f != null) {
            PoolFrame next = f.foreignNext;
            f.foreignNext = fifo;
            fifo = f;
            f = next;
        }
        return fifo;
    }

    /**
     * Unlinks {@code frame} from the chain {@link #takeAll} returned; call it before the frame is
     * handed to a run (F2).
     *
     * @param frame a frame of a taken chain
     * @return the next frame of the chain, or null
     */
    public static PoolFrame detach(PoolFrame frame) {
        PoolFrame next = frame.foreignNext;
        frame.foreignNext = null;
        return next;
    }

    /**
     * Any thread outside the pool: hands {@code frame} to the pool through this list.
     *
     * @throws RejectedExecutionException if the pool refuses the drain (it is shut down); every
     *     other frame of the list has then run on this thread
     */
    void schedule(PoolFrame frame, ForkJoinScheduler scheduler) {
        if (!push(frame)) {
            return; // a drain is owed already (F1) and will take this frame
        }
        try {
            scheduler.pool.execute(new Drain(this, scheduler));
        } catch (RejectedExecutionException refused) {
            PoolFrame own = takeAll(); // the owed take is this thread's: its own frame is first
            PoolFrame f = detach(own);
            while (f != null) {
                PoolFrame next = detach(f);
                runHere(f);
                f = next;
            }
            throw refused;
        }
    }

    /** Runs one turn of {@code frame} on the calling thread, which is not one of the pool's workers. */
    private static void runHere(PoolFrame frame) {
        try {
            frame.execute();
        } catch (Throwable t) {
            frame.executeFailed(t);
        }
    }

    /**
     * One submission that drains the list (P2): a fresh task per submission, like {@link FrameTask}
     * (a task object is never pushed twice).
     */
    @SuppressWarnings("serial") // a ForkJoinTask only to be submitted; never serialized
    static final class Drain extends ForkJoinTask<Void> {

        private final ForeignActivations list;
        private final ForkJoinScheduler scheduler;

        Drain(ForeignActivations list, ForkJoinScheduler scheduler) {
            this.list = list;
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
            PoolFrame first = list.takeAll();
            if (first == null) {
                return true; // not reached while F1 holds; harmless
            }
            PoolFrame f = detach(first);
            if (Thread.currentThread() instanceof Worker w && w.getPool() == scheduler.pool) {
                while (f != null) {
                    PoolFrame next = detach(f);
                    scheduler.pushLocal(f, true); // the first fork wakes an idle worker to steal
                    f = next;
                }
                try {
                    w.runTask(first);
                } catch (Throwable t) {
                    first.executeFailed(t);
                }
                w.afterTask(); // now and then, a task submitted from outside the pool
            } else {
                runHere(first);
                while (f != null) {
                    PoolFrame next = detach(f);
                    runHere(f);
                    f = next;
                }
            }
            return true;
        }
    }
}
