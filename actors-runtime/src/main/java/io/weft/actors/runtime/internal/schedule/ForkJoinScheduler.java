package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.SchedulerTuning;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;

/**
 * The default scheduler of event-based actors (Prokopec 2016, §4, {@code ExecutorScheduler}): a FIFO
 * ({@code asyncMode}) {@link ForkJoinPool}, with the optimizations of Prokopec 2016, §5, switchable by
 * {@link SchedulerTuning}, and a watchdog for handlers that block a worker (Haller and Odersky 2009, §3.3).
 * A frame scheduled from one of the pool's own workers goes to that worker's local queue (the
 * actor-to-actor path); others are submitted to the shared queues. Every push to the pool is a
 * fresh {@link FrameTask} (never the frame itself, see there); a hand-off through a worker's
 * mini-queue pushes nothing.
 */
public final class ForkJoinScheduler implements Scheduler {

    /* design
     * Worker task protocol (FrameTask.exec -> Worker.runTask, for a PoolFrame; other frames run plain):
     *   1. track the turn (turns odd while inside a frame's execute; release store) for the watchdog;
     *   2. run the frame's turn;
     *   3. helpLocal (only if lazyScheduling or localSteal): up to HAND_OFF_CHAIN turns, run the
     *      frame in this worker's mini-queue (lazy scheduling, Prokopec 2016, §5.2), else (at most
     *      STEAL_COUNT times) a frame this worker forked itself (explicit local stealing, §5.1,
     *      polled from the local queue only); one level only (helpLocal runs frames with execute,
     *      never through exec);
     *   4. hand whatever is left in the mini-queue to this worker's local queue (lazySubmit: no idle
     *      worker is woken for a chain that is sequential anyway), so a worker never goes back to
     *      the pool with a frame parked in its mini-queue;
     *   5. (FrameTask.exec, for every task) afterTask: every SUBMISSION_POLL_INTERVAL tasks, run one
     *      task from the submission queues (see Submissions below).
     * Wake-ups: a frame activated while the mini-queue is full (a turn that activates several
     * actors keeps the first in the slot; the later ones overflow) is forked (waking an idle
     * worker) only if this worker already has queued tasks (or lazyActivations is off); otherwise,
     * and for a frame left over after a hand-off chain, lazySubmit queues it locally without a
     * wake-up, which keeps a fan-in broker (Savina chameneos) on few cores.
     * Keep-first: a full slot keeps its frame, which an earlier activation put there, rather
     * than the newer frame displacing it: a turn's activations run in the order they happened, and
     * an overflow costs no atomic instruction.
     * Liveness behind a long turn: an overflowing frame queued without a wake-up always has an
     * older frame in the mini-queue above it (the slot is emptied only by this worker after the
     * turn, or by the reanimation thread); the reanimation thread submits that one with
     * pool.execute, which wakes an idle worker if there is one (see Reanimation thread), and the
     * woken worker steals the queued frame too.
     * So it waits at most one reanimation period, like the mini-queued frame itself.
     * Mini-queue: one slot per worker. Only its worker stores a frame (a release store into an empty
     * slot; a full slot is left alone); the worker and the reanimation thread take with getAndSet
     * (the worker reads the slot first and skips the swap when it is empty). Whoever takes a frame
     * out of it (its worker in helpLocal or the reanimation thread) runs or submits it exactly
     * once, so Frame.execute is still called once per schedule (Theorem 1).
     * Reanimation thread (§5.3): rescues frames stranded in the mini-queue of a worker whose handler
     * runs long; sleeps 1..200 ms adapted by eq. 1 (framesRescued counts the frames it took out;
     * a frame scheduled from a thread outside the pool goes to pool.execute, which signals a
     * worker, and never waits for this thread). Frames queued locally without a wake-up
     * (lazySubmit: overflowing the mini-queue, handed back, self-resubmitted) can be stranded too,
     * behind a turn that runs long while the other workers are parked; they are not taken out (only
     * the pool's own workers take from a worker queue) but, when a worker has been in one turn for
     * STUCK_TURN_NANOS (10 ms, measured from the thread's first look at that turn) and has tasks
     * queued, the thread submits an empty task (a WakeUp), which wakes an idle worker that then
     * steals them; again every 10 ms while that turn lasts, but only once the WakeUp it pushed
     * before has run (or been dropped by the watchdog). A push from outside the pool signals only
     * if its queue looked empty, and a worker parks only when it finds every queue empty, so while
     * a worker is idle (and fewer than `parallelism` are active) the thread's wake-up reaches it;
     * a WakeUp still queued means no worker has been free since, and more would only pile up
     * (one per 10 ms per stuck worker, for as long as the turn blocks). Starting workers beyond
     * the pool's own is the watchdog's part.
     * Each stuck worker found counts as a rescue in eq. 1. The 10 ms keep a worker that the
     * operating system merely preempted from having its queue moved to another core; the thread's
     * per-worker memory (a TurnWatch, as the watchdog keeps one) is its own, not fields of the
     * worker, whose cache line its turns write.
     * Submissions (fairness against a busy pool): ForkJoinPool runs a worker's local queue until it
     *   is empty (WorkQueue.topLevelExec) before it looks at any other queue. Actors that keep
     *   themselves busy (a self-sending actor, whose batch budget ends its turn with a local
     *   resubmit; an endless ping-pong chain, handed back to the local queue) keep that queue
     *   non-empty for ever, so with one such actor per worker, everything submitted from outside the
     *   pool (an actor told or spawned by a non-worker thread, a frame rescued by the reanimation
     *   thread, the watchdog's wake-up) waited for ever. So every SUBMISSION_POLL_INTERVAL tasks a
     *   worker takes one task from the pool's submission queues (Pool.takeSubmission, the pool's
     *   protected pollSubmission) and runs it before its next local task. The actor in it then
     *   joins the worker's local FIFO, where the batch budget gives it its turns.
     * Watchdog: see BlockingWatchdog.
     * Shutdown: the pool's termination is reported before its last workers have returned from
     * their run method, so shutdown also joins every worker the pool started (`started`, pruned of
     * ended threads whenever a worker starts), the reanimation thread and the watchdog, each bounded
     * by one deadline; a thread still alive then is named in a warning. Called on one of the
     * pool's own workers it cannot wait for the pool (the worker would wait for itself): it then only
     * starts the shutdown (WeftSystem.close never calls it there; it closes from a closer thread).
     */

    /** Frames a worker runs from its own local queue after a turn (explicit local stealing, §5.1). */
    static final int STEAL_COUNT = 4;
    /**
     * Turns a worker runs back to back from its mini-queue after a task (lazy scheduling, §5.2): a
     * chain of hand-offs (ping-pong, a token ring) stays on one worker, with its caches, while the
     * other workers sleep; the bound keeps the worker's other local tasks waiting at most this long.
     */
    static final int HAND_OFF_CHAIN = 64;
    /**
     * Tasks a worker runs between two looks at the pool's submission queues, which it would
     * otherwise not see while its local queue stays non-empty (see the design block).
     */
    static final int SUBMISSION_POLL_INTERVAL = 32;
    /**
     * How long a worker must stay in one turn, with tasks queued behind it, before the reanimation
     * thread wakes an idle worker for them: longer than the operating system usually preempts a
     * thread for, so that a preempted worker does not move its queue to another core; far below
     * the watchdog's threshold.
     */
    static final long STUCK_TURN_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    final Pool pool;
    private final SchedulerState sharedState;
    private final int batchSize;
    final SchedulerTuning tuning;
    private final String name;
    final List<Worker> workers = new CopyOnWriteArrayList<>();
    /** Every worker started and not yet seen ended (pruned when a worker starts); joined at shutdown. */
    final List<Worker> started = new CopyOnWriteArrayList<>();
    private final Speculation.Profiles profiles = new Speculation.Profiles();
    private final Speculation.SwitchCost switchCost = new Speculation.SwitchCost();
    /** Completes once switchCost is measured; null when speculation is off. */
    private final CompletableFuture<Void> switchCalibrated;
    private final AtomicLong seeds = new AtomicLong(0x9E3779B97F4A7C15L);
    private final Thread reanimator;
    private final BlockingWatchdog watchdog;
    private volatile boolean shutdown;
    /** Wake-ups the reanimation thread has pushed for tasks queued behind a long turn; it alone writes. */
    private volatile long wakeUpsPushed;
    /** Times the reanimation thread found a worker in one long turn with tasks queued; it alone writes. */
    private volatile long stuckTurnsSeen;
    /** Frames the reanimation thread took out of a worker's mini-queue and submitted; it alone writes. */
    private volatile long framesRescued;

    /**
     * @param name the thread name prefix
     * @param parallelism the pool's parallelism
     * @param batchSize messages per actor turn
     * @param metrics the system's counters, which workers bump without contention
     */
    public ForkJoinScheduler(String name, int parallelism, int batchSize, MessageCounters metrics) {
        this(name, parallelism, batchSize, metrics, SchedulerTuning.defaults());
    }

    /**
     * @param name the thread name prefix
     * @param parallelism the pool's parallelism
     * @param batchSize messages per actor turn
     * @param metrics the system's counters, which workers bump without contention
     * @param tuning which optimizations are on, and the blocking watchdog's threshold
     */
    public ForkJoinScheduler(String name, int parallelism, int batchSize, MessageCounters metrics, SchedulerTuning tuning) {
        this.name = name;
        this.batchSize = batchSize;
        this.tuning = tuning;
        this.sharedState = SchedulerState.batches(batchSize);
        AtomicInteger index = new AtomicInteger();
        this.pool = new Pool(parallelism, p -> new Worker(p, name + "-" + index.incrementAndGet(), this, metrics));
        // every lazy option queues frames without waking a worker, which may then need a rescue
        if (tuning.lazyScheduling() || tuning.lazyActivations() || tuning.lazySelfResubmit()) {
            reanimator = new Thread(this::reanimate, name + "-reanimation");
            reanimator.setDaemon(true);
            reanimator.start();
        } else {
            reanimator = null;
        }
        // Prokopec 2016, §5.4: c is measured on this pool, by empty handlers passing a message
        switchCalibrated = tuning.speculation() ? SwitchCalibration.start(pool).thenAccept(switchCost::measured) : null;
        if (!tuning.blockingThreshold().isZero()) {
            watchdog = new BlockingWatchdog(this, tuning.blockingThreshold());
            watchdog.start();
        } else {
            watchdog = null;
        }
    }

    /**
     * The scheduler's pool: FIFO (asyncMode), with access to its submission queues for its workers
     * and for the blocking watchdog.
     */
    static final class Pool extends ForkJoinPool {

        /* design
         * How the pool starts a worker (JDK 21 and JDK 25 alike): only signalWork releases an idle
         * worker or creates one (when fewer than `parallelism` workers are active and exist), and a
         * push from outside the pool calls it only if the submission queue it lands in looked
         * empty (WorkQueue.push: the slot below the new top was null), the queue being the one the
         * pushing thread's random probe picks. setParallelism only stores the new target. Besides
         * pushes, a worker that takes a task from a queue holding more signals another
         * (propagation). So once every worker is blocked and the queues are not empty, a push
         * into a non-empty queue starts nobody, however high the parallelism.
         *
         * signalWorker makes sure its push lands in an empty queue: it takes every queued
         * submission out (pollSubmission), pushes a WakeUp, and pushes what it took back behind
         * it. Frames go back in fresh FrameTasks (the taken task is dropped unrun, as helpLocal
         * drops a polled one; no task object is pushed twice); other tasks are wrapped in a new
         * task that runs them. Queued WakeUps are completed and dropped, so wake-ups never pile up.
         * A thread that pushes between the drain and the WakeUp found the queue empty and signalled
         * itself. Order between queues changes, order within a queue does not; frames are
         * activation tokens (the mailbox holds the order of messages), so only exactly-once matters,
         * and every taken task is pushed back or run exactly once.
         */

        /** At most this many submissions are taken out and pushed back by one signalWorker. */
        private static final int MAX_RESUBMISSIONS = 1 << 20;

        Pool(int parallelism, ForkJoinWorkerThreadFactory factory) {
            super(parallelism, factory, null, true);
        }

        /**
         * Takes the next task submitted from outside the pool, without running it.
         *
         * @return the task, or null if no submission queue holds one
         */
        ForkJoinTask<?> takeSubmission() {
            return pollSubmission();
        }

        /**
         * Not from a pool worker (the blocking watchdog): makes the pool release an idle worker or,
         * if it has fewer workers than its parallelism allows and none idle, start one, even when
         * every submission queue holds tasks (see the design block).
         *
         * @return how many queued submissions were taken out and pushed back
         */
        int signalWorker() {
            long queued = getQueuedSubmissionCount();
            int bound = (int) Math.min(MAX_RESUBMISSIONS, queued + 64);
            List<ForkJoinTask<?>> taken = new ArrayList<>();
            for (int i = 0; i < bound; i++) {
                ForkJoinTask<?> task = pollSubmission();
                if (task == null) {
                    break;
                }
                if (task instanceof WakeUp wakeUp) {
                    wakeUp.quietlyComplete(); // done for whoever waits for it to run (the reanimation thread)
                } else {
                    taken.add(task);
                }
            }
            int pushed = 0;
            try {
                execute(new WakeUp()); // into an empty queue: the pool signals
                for (; pushed < taken.size(); pushed++) {
                    ForkJoinTask<?> task = taken.get(pushed);
                    execute(task instanceof FrameTask f ? new FrameTask(f.frame()) : ForkJoinTask.adapt(task::quietlyInvoke));
                }
            } catch (RejectedExecutionException shutDown) {
                // refused only after shutdown, which the scheduler starts once the watchdog has
                // stopped; run what was taken here rather than lose it
                for (; pushed < taken.size(); pushed++) {
                    taken.get(pushed).quietlyInvoke();
                }
            }
            return taken.size();
        }
    }

    /**
     * An empty task pushed only to make the pool signal a worker (the reanimation thread, the
     * blocking watchdog); a fresh object per push. Recognized, completed and dropped when
     * {@link Pool#signalWorker} finds it queued.
     */
    @SuppressWarnings("serial") // a ForkJoinTask only to be pushed; never serialized
    static final class WakeUp extends ForkJoinTask<Void> {

        @Override
        public Void getRawResult() {
            return null;
        }

        @Override
        protected void setRawResult(Void value) {
        }

        @Override
        protected boolean exec() {
            return true;
        }
    }


    /**
     * A frame activated while the current worker's mini-queue is full (a turn that activates
     * several actors, e.g. a broker answering two clients: the first stays in the slot). With
     * lazy activations on, it goes to the worker's local queue without waking an idle worker
     * unless the worker already has queued tasks: a backlog is worth a second worker, a single
     * frame is not (waking a parked worker costs more than running the frame here, and a fan-in
     * actor then gets bigger batches).
     */
    private void overflow(PoolFrame cell) {
        pushLocal(cell, !tuning.lazyActivations() || ForkJoinTask.getQueuedTaskCount() != 0);
    }

    /**
     * A frame left in a worker's mini-queue when its hand-off chain used up its budget: it goes to
     * the worker's own local queue without waking an idle worker (the worker runs it next), so a
     * sequential chain does not bounce between cores.
     */
    void handBack(PoolFrame cell) {
        pushLocal(cell, false);
    }

    /**
     * Pool worker only: pushes a fresh {@link FrameTask} for {@code frame} on this worker's local
     * queue.
     *
     * @param wakeIdle true to {@code fork} (an idle worker is woken if the queue looked empty),
     *     false to {@code lazySubmit} (nobody is woken: this worker or a thief takes it)
     */
    private void pushLocal(Frame frame, boolean wakeIdle) {
        FrameTask task = new FrameTask(frame);
        if (wakeIdle) {
            task.fork();
        } else {
            pool.lazySubmit(task);
        }
    }

    Pool pool() {
        return pool;
    }

    SchedulerTuning tuning() {
        return tuning;
    }

    /** @return the context-switch cost speculation uses (measured at start when speculation is on) */
    Speculation.SwitchCost switchCost() {
        return switchCost;
    }

    /** @return completes once the switch cost is measured; null when speculation is off */
    CompletableFuture<Void> switchCalibrated() {
        return switchCalibrated;
    }

    List<Worker> workers() {
        return workers;
    }

    /** @return how many times the reanimation thread found a worker in one long turn with tasks queued */
    long stuckTurnsSeen() {
        return stuckTurnsSeen;
    }

    /**
     * @return how many frames the reanimation thread has taken out of a worker's mini-queue and
     *     submitted (each waited up to one reanimation period, 1..200 ms, for that)
     */
    long framesRescued() {
        return framesRescued;
    }

    /** @return how many wake-ups the reanimation thread has pushed for tasks queued behind long turns */
    long wakeUpsPushed() {
        return wakeUpsPushed;
    }

    /** @return how many blocked turns the watchdog has detected so far */
    long blockedTurnsDetected() {
        return watchdog == null ? 0 : watchdog.detected();
    }

    @Override
    public void initSchedule(Frame frame) {
        if (tuning.speculation()) {
            Class<?> type = frame instanceof PoolFrame f ? f.profileClass() : null;
            frame.schedulerState(new Speculation(batchSize, profiles.of(type), switchCost, seeds.getAndAdd(0x9E3779B97F4A7C15L)));
        } else {
            frame.schedulerState(sharedState);
        }
    }

    @Override
    public void schedule(Frame frame) {
        if (Thread.currentThread() instanceof Worker w && w.getPool() == pool) {
            if (!(frame instanceof PoolFrame cell)) {
                pushLocal(frame, true); // a stream stage: plain local fork
            } else if (w.running == cell) {
                // the frame reschedules itself at the end of its own turn (batch budget used up)
                pushLocal(cell, !tuning.lazySelfResubmit());
            } else if (tuning.lazyScheduling()) {
                PoolFrame overflowing = w.putOwnMini(cell); // no task object: the seed's lazy task creation
                if (overflowing != null) {
                    overflow(overflowing);
                }
            } else {
                pushLocal(cell, !tuning.lazyActivations());
            }
        } else {
            pool.execute(new FrameTask(frame));
        }
    }

    /**
     * Whether {@code w} has been inside one turn for {@link #STUCK_TURN_NANOS} (since the reanimation
     * thread first saw that turn, or since it last answered true for it) with tasks in its local
     * queue, which nobody may have been woken for. Reanimation thread only.
     */
    private boolean stuckWithQueuedTasks(TurnWatch watch, Worker w, long now) {
        if (watch.insideOneTurn(w, now) < STUCK_TURN_NANOS || w.getQueuedTaskCount() == 0) {
            return false;
        }
        watch.restart(w, now); // asked again for this turn one threshold later
        stuckTurnsSeen++;
        return true;
    }

    /** The reanimation thread (Prokopec 2016, §5.3, Fig. 6, eq. 1). */
    private void reanimate() {
        long sleepNanos = TimeUnit.MILLISECONDS.toNanos(1);
        final long min = TimeUnit.MILLISECONDS.toNanos(1);
        final long max = TimeUnit.MILLISECONDS.toNanos(200);
        TurnWatch watch = new TurnWatch();
        WakeUp wakeUp = null; // the last one pushed; a new one only once it has run (or been dropped)
        while (!shutdown) {
            java.util.concurrent.locks.LockSupport.parkNanos(this, sleepNanos);
            int count = 0;
            int n = 0;
            watch.retain(workers); // forget workers that have ended
            for (Worker w : workers) {
                n++;
                PoolFrame stranded = w.takeMini();
                boolean stuck = stuckWithQueuedTasks(watch, w, System.nanoTime());
                if (stranded != null || stuck) {
                    count++;
                    try {
                        if (stranded != null) {
                            pool.execute(new FrameTask(stranded));
                            framesRescued++;
                        } else if (wakeUp == null || wakeUp.isDone()) {
                            wakeUp = new WakeUp();
                            pool.execute(wakeUp); // an idle worker wakes and steals the queued tasks
                            wakeUpsPushed++;
                        }
                    } catch (RuntimeException rejected) {
                        return; // pool shut down
                    }
                }
            }
            sleepNanos = adjust(sleepNanos, count, Math.max(1, n), min, max);
        }
    }

    /** Eq. 1: {@code 2 * period * (workers - count) / workers}, clamped to [min, max]. */
    static long adjust(long period, int count, int workers, long min, long max) {
        long next = 2 * period * (workers - Math.min(count, workers)) / workers;
        return Math.max(min, Math.min(max, next));
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new MpscLinkedAtomicUnpaddedQueue<>();
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Shuts the pool down and waits, at most 10 s in all (20 s if the pool must be interrupted),
     * until every worker, the reanimation thread and the watchdog have ended; a thread still alive
     * then is named in a warning. On one of this pool's workers it only starts the shutdown.
     */
    @Override
    public void shutdown() {
        shutdown = true;
        if (reanimator != null) {
            java.util.concurrent.locks.LockSupport.unpark(reanimator);
        }
        if (watchdog != null) {
            watchdog.stop();
        }
        pool.shutdown();
        if (Thread.currentThread() instanceof Worker w && w.getPool() == pool) {
            return; // a worker cannot wait for its own pool to end
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        try {
            if (!pool.awaitTermination(10, TimeUnit.SECONDS)) {
                pool.shutdownNow();
                pool.awaitTermination(10, TimeUnit.SECONDS);
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
            }
        } catch (InterruptedException e) {
            pool.shutdownNow();
            Thread.currentThread().interrupt();
        }
        Joins.join(reanimator, deadline, "the reanimation thread of " + name);
        if (watchdog != null) {
            Joins.join(watchdog.thread(), deadline, "the blocking watchdog of " + name);
        }
        for (Worker w : started) {
            Joins.join(w, deadline, "pool worker of " + name);
        }
    }
}
