package io.weft.actors.runtime.internal.system;

import io.weft.actors.runtime.internal.cell.Cell;
import io.weft.actors.runtime.internal.schedule.FairScheduler;
import io.weft.actors.runtime.internal.schedule.Worker;
import io.weft.actors.runtime.internal.schedule.Joins;
import io.weft.actors.spi.Scheduler;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The close of one system ({@link WeftSystem#close()}): stops every actor, ends actors whose
 * threads do not return, shuts the schedulers and the timer down and joins the system's threads.
 */
final class SystemClose {

    /* design
     * See WeftSystem's design block ("Close"): this class holds the close's own state (who
     * finishes it, the closer thread, the latch a second close waits on) and its steps, and reads
     * the system's registries (table, adopted cells, owned schedulers, timer) in place.
     *
     * Passes: close() asks every actor to stop once (Cell.stopFromOutside: a thread-based body
     * parked in receive is woken, one busy elsewhere interrupted once). finishClose asks the actors
     * left again once a second (REPASS_NANOS), not on every round of its wait: with 1,000,000
     * thread-based actors parked in receive, a pass over the table on every round (every 20 ms)
     * took the closing thread's core from the bodies it waits for; later passes find the
     * actors spawned while close began, and bodies that swallowed the stop and hold their thread
     * (the one interrupt). A body woken from receive and not yet run is left alone by a later
     * pass (OwnThreadPart.stopWoke): it is neither unparked nor interrupted again.
     *
     * Progress: each woken body has to run to end (its receive throws ActorStoppedException, its
     * finally blocks and onStop hooks run), and 1,000,000 of them on 2 cores take longer than the
     * default 5 s grace (16-21 µs of CPU each with virtual threads, 12-14 µs with continuations,
     * about two thirds of it the JDK's thaw of the parked stack; on 2 cores shared with other load
     * the close gets a fraction of them: docs/benchmarks.md, thread-close). So the grace period
     * counts from the last time the number of live actors fell, up to a cap after close began
     * (20 s, or 100 µs per actor live when close began if that is later: 100 s for 1,000,000): actors ended from outside are those that stopped making
     * progress for a whole grace period (or all that are left at the cap), not those the carriers
     * had not reached yet. A runaway body among many parked ones is ended one grace period after
     * the others have ended. The wait for running react handlers (30 s) is extended past the cap
     * and one grace period by 5 s.
     */

    private static final Logger LOG = LoggerFactory.getLogger(WeftSystem.class);

    private final WeftSystem system;
    private final CountDownLatch terminated = new CountDownLatch(1);
    /** The thread running finishClose (the caller of close, or the closer); null before. */
    private volatile Thread finisher;
    /** The closer thread, if close was called on one of the system's own threads; null otherwise. */
    private volatile Thread closer;
    /** Actors ended from outside by finishClose, reported as one warning each kind; set by finishClose. */
    private GraceOverruns overruns;
    private GraceOverruns adoptedOverruns;

    SystemClose(WeftSystem system) {
        this.system = system;
    }


    /** How long close lets an adopted thread woken in receive end its actor itself (capped by the grace period). */
    private static final long ADOPTED_WAKE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /** How often close asks every actor left to stop again, after the first time (design block: passes). */
    private static final long REPASS_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Up to when after the start of close the stop grace period runs on while actors keep ending
     * (design block: progress): this, or GRACE_CAP_NANOS_PER_ACTOR per live actor, whichever is later.
     */
    private static final long GRACE_CAP_NANOS = TimeUnit.SECONDS.toNanos(20);

    /** The cap's share per live actor: 100 µs, 100 s for 1,000,000 (design block: progress). */
    private static final long GRACE_CAP_NANOS_PER_ACTOR = TimeUnit.MICROSECONDS.toNanos(100);

    /** How long after the grace's cap and one grace period close still waits for running handlers. */
    private static final long CLOSE_WAIT_AFTER_CAP_NANOS = TimeUnit.SECONDS.toNanos(5);

    /** How long close waits for react handlers that are still running before it warns and goes on. */
    private static final long CLOSE_WAIT_NANOS = TimeUnit.SECONDS.toNanos(30);

    /** {@link WeftSystem#close()}. */
    void close() {
        if (!system.closed.compareAndSet(false, true)) {
            if (!onOwnThread() && Thread.currentThread() != finisher) {
                awaitTerminated();
            }
            return;
        }
        system.table.forEach(Cell::stopFromOutside);
        Thread me = Thread.currentThread();
        for (Cell<?> cell : system.adopted) {
            Thread t = cell.ownThread();
            if ((t == me || t == null || !t.isAlive()) && system.adopted.remove(cell)) {
                cell.finishAdopted();
            }
        }
        if (onOwnThread()) {
            Thread c = new Thread(this::finishClose, "weft-" + system.name() + "-closer");
            c.setDaemon(true);
            closer = c;
            finisher = c;
            c.start();
        } else {
            finisher = me;
            finishClose();
        }
    }

    /**
     * Whether the calling thread is one that close must not wait on: it runs an actor of this
     * system, is a worker of its pool, its timer thread or its fair scheduler's thread.
     */
    boolean onOwnThread() {
        Cell<?> running = WeftSystem.current();
        if (running != null && running.weftSystem() == system) {
            return true;
        }
        Thread t = Thread.currentThread();
        if (t instanceof Worker w && w.scheduler == system.forkJoin) {
            return true;
        }
        return system.timerThreads.contains(t) || t == system.timerWheel().thread() || (system.builtins().fairIfMade() instanceof FairScheduler f && f.owns(t));
    }

    private void finishClose() {
        long graceMillis = system.settings.stopGracePeriod().toMillis();
        overruns = new GraceOverruns("of system " + system.name() + " did not stop within the stop grace period ("
                + graceMillis + " ms) after their threads were interrupted when the system closed (a body that swallows the"
                + " interrupt or blocks uninterruptibly, or a thread not scheduled within the period); they were ended from"
                + " outside (mail to dead letters, watchers told), and close does not wait for their threads, which keep running");
        adoptedOverruns = new GraceOverruns("of adopted threads were busy outside receive when system " + system.name()
                + " closed; they were ended from outside (mail to dead letters, watchers told), and each thread's next receive"
                + " throws ActorStoppedException");
        try {
            long start = System.nanoTime();
            long graceNanos = system.settings.stopGracePeriod().toNanos();
            long graceEnd = start + graceNanos;
            // an adopted thread woken in receive ends its actor itself within moments
            long adoptedEnd = start + Math.min(system.settings.stopGracePeriod().toNanos(), ADOPTED_WAKE_NANOS);
            int live = system.table.size();
            // the grace runs on while actors keep ending, up to a cap that grows with their
            // number (design block: progress); the wait for running handlers outlasts it
            long graceCap = Math.max(graceEnd, start + Math.max(GRACE_CAP_NANOS, live * GRACE_CAP_NANOS_PER_ACTOR));
            long deadline = Math.max(start + CLOSE_WAIT_NANOS, graceCap + graceNanos + CLOSE_WAIT_AFTER_CAP_NANOS);
            long pause = 100_000;
            boolean graceOver = false;
            long lastPass = start; // close() made the first pass
            while (live > 0 && System.nanoTime() - deadline < 0) {
                long now = System.nanoTime();
                if (now - lastPass >= REPASS_NANOS) {
                    lastPass = now;
                    system.table.forEach(Cell::stopFromOutside); // interrupts a thread once; wakes, activates
                }
                boolean adoptedOver = System.nanoTime() - adoptedEnd >= 0;
                for (Cell<?> cell : system.adopted) {
                    // an adopted thread is not the system's to interrupt: its actor is ended from outside
                    if (cell.isTerminated() || adoptedOver && cell.ownThread() != Thread.currentThread() && endTakenOver(cell)) {
                        system.adopted.remove(cell);
                    }
                }
                if (!graceOver && System.nanoTime() - graceEnd >= 0) {
                    graceOver = true;
                }
                if (graceOver) {
                    system.table.forEach(this::endTakenOver);
                }
                java.util.concurrent.locks.LockSupport.parkNanos(pause);
                pause = Math.min(pause * 2, 20_000_000);
                int left = system.table.size();
                if (left < live && !graceOver) {
                    // actors are still ending: the grace counts from now, up to the cap
                    long from = Math.min(System.nanoTime() + graceNanos, graceCap);
                    if (from - graceEnd > 0) {
                        graceEnd = from;
                    }
                }
                live = left;
            }
            warnOnce(overruns);
            warnOnce(adoptedOverruns);
            if (system.table.size() > 0) {
                LOG.warn("actor system {} closed with {} actors still running a handler after {} s", system.name(), system.table.size(),
                        TimeUnit.NANOSECONDS.toSeconds(CLOSE_WAIT_NANOS));
            }
            system.timerWheel().shutdown(); // every actor has stopped: its timers are cancelled
            system.timerWheel().join(System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
            system.deadLetterOffice().flush(); // the last logging window's count
            for (Scheduler s : system.ownedSchedulers) {
                s.shutdown();
            }
            ScheduledThreadPoolExecutor t;
            system.initLock.lock(); // a timer made concurrently is either seen here or refused (timer())
            try {
                t = system.timer;
            } finally {
                system.initLock.unlock();
            }
            if (t != null) {
                t.shutdownNow();
                t.awaitTermination(10, TimeUnit.SECONDS);
                long joinDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(1);
                for (Thread th : system.timerThreads) {
                    Joins.join(th, joinDeadline, "the timer of system " + system.name());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            terminated.countDown();
        }
    }

    /** Logs the one warning of {@code o} through the system's warnings (listener included), if it has any actor. */
    private void warnOnce(GraceOverruns o) {
        String summary = o.summary();
        if (summary != null) {
            system.warn(summary);
        }
    }

    /**
     * Ends {@code cell} from outside if its own thread still runs its body (Cell.endFromOutside)
     * and counts it for the close's one warning (GraceOverruns).
     *
     * @return true if it was ended here
     */
    private boolean endTakenOver(Cell<?> cell) {
        Thread t;
        try {
            t = cell.endFromOutside();
        } catch (RuntimeException e) {
            LOG.warn("ending actor {} from outside failed", cell, e);
            return false;
        }
        if (t == null) {
            return false;
        }
        (cell.isAdopted() ? adoptedOverruns : overruns).add(cell, t);
        return true;
    }

    private void awaitTerminated() {
        try {
            if (terminated.await(2 * CLOSE_WAIT_NANOS, TimeUnit.NANOSECONDS)) {
                Joins.join(closer, System.nanoTime() + TimeUnit.SECONDS.toNanos(10), "the closer of system " + system.name());
            } else {
                LOG.warn("close of system {} has not finished after {} s; returning", system.name(),
                        TimeUnit.NANOSECONDS.toSeconds(2 * CLOSE_WAIT_NANOS));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
