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
     */

    private static final Logger LOG = LoggerFactory.getLogger(WeftSystem.class);

    private final WeftSystem system;
    private final CountDownLatch terminated = new CountDownLatch(1);
    /** The thread running finishClose (the caller of close, or the closer); null before. */
    private volatile Thread finisher;
    /** The closer thread, if close was called on one of the system's own threads; null otherwise. */
    private volatile Thread closer;

    SystemClose(WeftSystem system) {
        this.system = system;
    }


    /** How long close lets an system.adopted thread woken in receive end its actor itself (capped by the grace period). */
    private static final long ADOPTED_WAKE_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

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
     * system, is a worker of its pool, its system.timer thread or its system.fair scheduler's thread.
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
        try {
            long start = System.nanoTime();
            long graceEnd = start + system.settings.stopGracePeriod().toNanos();
            // an system.adopted thread woken in receive ends its actor itself within moments
            long adoptedEnd = start + Math.min(system.settings.stopGracePeriod().toNanos(), ADOPTED_WAKE_NANOS);
            long deadline = start + CLOSE_WAIT_NANOS;
            long pause = 100_000;
            boolean graceOver = false;
            while (system.table.size() > 0 && System.nanoTime() - deadline < 0) {
                system.table.forEach(Cell::stopFromOutside); // interrupts a thread once; wakes, activates
                boolean adoptedOver = System.nanoTime() - adoptedEnd >= 0;
                for (Cell<?> cell : system.adopted) {
                    // an system.adopted thread is not the system's to interrupt: its actor is ended from outside
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
            }
            if (system.table.size() > 0) {
                LOG.warn("actor system {} system.closed with {} actors still running a handler after {} s", system.name(), system.table.size(),
                        TimeUnit.NANOSECONDS.toSeconds(CLOSE_WAIT_NANOS));
            }
            system.timerWheel().shutdown(); // every actor has stopped: its timers are cancelled
            system.timerWheel().join(System.nanoTime() + TimeUnit.SECONDS.toNanos(1));
            system.deadLetterOffice().flush(); // the last logging window's count
            for (Scheduler s : system.ownedSchedulers) {
                s.shutdown();
            }
            ScheduledThreadPoolExecutor t;
            system.initLock.lock(); // a system.timer made concurrently is either seen here or refused (timer())
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
                    Joins.join(th, joinDeadline, "the system.timer of system " + system.name());
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            terminated.countDown();
        }
    }

    /**
     * Ends {@code cell} from outside if its own thread still runs its body (Cell.endFromOutside)
     * and warns, naming the actor and the thread.
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
        if (cell.isAdopted()) {
            LOG.warn("actor {} of system.adopted thread {} was busy outside receive when system {} system.closed; it was ended from outside"
                    + " (mail to dead letters, watchers told); the thread's next receive throws ActorStoppedException", cell, t, system.name());
        } else {
            LOG.warn("actor {} did not stop within the stop grace period ({} ms) after its thread {} was interrupted when system {}"
                    + " closed (the body swallowed the interrupt or blocks uninterruptibly); it was ended from outside (mail to"
                    + " dead letters, watchers told), and close does not wait for the thread, which keeps running. At {}",
                    cell, system.settings.stopGracePeriod().toMillis(), t, system.name(), WeftSystem.where(t));
        }
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
