package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.SchedulerTuning;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.ForkJoinWorkerThread;

/** A pool worker; remembers the cell it is running for {@link WeftSystem#current()}. */
public final class Worker extends ForkJoinWorkerThread {

    /* design
     * The worker side of the ForkJoin scheduler's task protocol (ForkJoinScheduler's design block):
     * turn tracking for the watchdog (turns, running), the one-slot mini-queue of lazy scheduling,
     * local steals after a turn and the look at submissions every ForkJoinScheduler.SUBMISSION_POLL_INTERVAL tasks.
     */
    private static final VarHandle MINI;
    private static final VarHandle TURNS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            MINI = l.findVarHandle(Worker.class, "mini", PoolFrame.class);
            TURNS = l.findVarHandle(Worker.class, "turns", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    public final ForkJoinScheduler scheduler;
    /** The actor running on this worker (CurrentActor), any frame type the cell layer stores. */
    public Object current;
    /** The frame whose turn runs now; published by the release store of {@code turns}. */
    PoolFrame running;
    @SuppressWarnings("unused") // through MINI
    private volatile PoolFrame mini;
    /** Odd while a turn runs; written only by this worker. */
    @SuppressWarnings("unused") // through TURNS
    private volatile long turns;
    /** Tasks run since this worker last looked at the submission queues; this worker only. */
    private int tasksSinceSubmissionPoll;

    /** This worker's own message counters (MessageCounters), bumped with no atomic instruction. */
    final MessageCounters.WorkerCounters counters;

    Worker(ForkJoinPool pool, String name, ForkJoinScheduler scheduler, MessageCounters metrics) {
        super(null, pool, true);
        this.scheduler = scheduler;
        this.counters = metrics.newWorkerCounters();
        setName(name);
        setDaemon(true);
    }

    @Override
    protected void onStart() {
        super.onStart();
        scheduler.started.removeIf(w -> !w.isAlive());
        scheduler.started.add(this);
        scheduler.workers.add(this);
    }

    @Override
    protected void onTermination(Throwable exception) {
        scheduler.workers.remove(this);
        super.onTermination(exception);
    }

    // accessors (package-info's convention); the slot and the turn counter are read by other threads

    private long laTurns() {
        return (long) TURNS.getAcquire(this);
    }

    private long loTurns() {
        return (long) TURNS.getOpaque(this);
    }

    private void soTurns(long next) {
        TURNS.setRelease(this, next);
    }

    private PoolFrame gasMini(PoolFrame next) {
        return (PoolFrame) MINI.getAndSet(this, next);
    }

    private PoolFrame loMini() {
        return (PoolFrame) MINI.getOpaque(this);
    }

    private void soMini(PoolFrame cell) {
        MINI.setRelease(this, cell);
    }

    long turnsAcquire() {
        return laTurns();
    }

    /** Any thread (the reanimation thread): takes the frame out of this worker's mini-queue. */
    PoolFrame takeMini() {
        return gasMini(null);
    }

    /**
     * This worker only: takes its mini-queue's frame. The common empty case is one plain-cost
     * opaque read; a frame is taken with getAndSet, since the reanimation thread may take it
     * at the same moment.
     */
    private PoolFrame takeOwnMini() {
        return loMini() == null ? null : takeMini();
    }

    /**
     * This worker only: puts {@code cell} in its mini-queue if the slot is empty; a full slot
     * keeps the frame an earlier activation put there (keep-first).
     *
     * @return null if {@code cell} went into the slot, else {@code cell}; the caller queues it
     */
    PoolFrame putOwnMini(PoolFrame cell) {
        if (loMini() == null) {
            // only this worker stores a frame (the reanimation thread only takes), so the slot
            // stays empty until this release store, which publishes the frame to the taker
            soMini(cell);
            return null;
        }
        return cell;
    }

    private void runTracked(PoolFrame cell) {
        long t = loTurns();
        running = cell;
        soTurns(t + 1);
        try {
            cell.execute();
        } finally {
            running = null;
            soTurns(t + 2);
        }
    }

    /** Called by FrameTask.exec: one task of this pool. */
    public void runTask(PoolFrame cell) {
        runTracked(cell);
        SchedulerTuning tuning = scheduler.tuning;
        if (tuning.lazyScheduling() || tuning.localSteal()) {
            helpLocal(tuning);
        }
    }

    /**
     * Called by FrameTask.exec after each task: every {@link #ForkJoinScheduler.SUBMISSION_POLL_INTERVAL} tasks,
     * runs one task submitted from outside the pool, which this worker would not otherwise see
     * while its local queue stays non-empty. The nested task counts from zero again, so this
     * nests at most one level.
     */
    void afterTask() {
        if (++tasksSinceSubmissionPoll < ForkJoinScheduler.SUBMISSION_POLL_INTERVAL) {
            return;
        }
        tasksSinceSubmissionPoll = 0;
        ForkJoinTask<?> submitted = scheduler.pool.takeSubmission();
        if (submitted != null) {
            submitted.quietlyInvoke();
        }
    }

    private void helpLocal(SchedulerTuning tuning) {
        boolean lazy = tuning.lazyScheduling();
        int steals = tuning.localSteal() ? ForkJoinScheduler.STEAL_COUNT : 0;
        for (int turns = ForkJoinScheduler.HAND_OFF_CHAIN; turns > 0; turns--) {
            PoolFrame next = lazy ? takeOwnMini() : null;
            if (next != null) {
                runTracked(next);
                continue;
            }
            if (steals-- <= 0) {
                break;
            }
            ForkJoinTask<?> task = FrameTask.pollLocalTask();
            if (task == null) {
                break;
            }
            if (task instanceof FrameTask t && t.frame() instanceof PoolFrame c) {
                runTracked(c); // the task itself is dropped: it was polled, and runs nowhere else
            } else {
                task.quietlyInvoke();
            }
        }
        if (lazy) {
            PoolFrame left = takeOwnMini();
            if (left != null) {
                scheduler.handBack(left);
            }
        }
    }
}
