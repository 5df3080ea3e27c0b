package io.weft.actors.runtime.internal.cell;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;

/**
 * The bodies a scheduler of thread-based actors has started and not yet ended, and how many of
 * them were ended from outside (abandoned): shutdown waits for the others, and only for them.
 * Shared by {@link ThreadPerActorScheduler} and the continuation scheduler of actors-loom.
 */
public final class LiveBodies {
    /*
     * design
     *
     * Two counters, each changed by one atomic add: live counts bodies from their first schedule
     * to the end of their loop; abandoned counts, among those, the ones whose actor was ended from
     * outside while the body still ran. abandoned <= live whenever a body's end is recorded after
     * its abandonment is undone (ended(true) first decrements abandoned, then live).
     */

    private final AtomicInteger live = new AtomicInteger();
    private final AtomicInteger abandoned = new AtomicInteger();

    /** A body's first schedule. */
    public void started() {
        live.incrementAndGet();
    }

    /**
     * A body's loop ended.
     *
     * @param wasAbandoned whether it had been counted by {@link #abandon()}
     */
    public void ended(boolean wasAbandoned) {
        if (wasAbandoned) {
            abandoned.decrementAndGet(); // abandoned first: it was counted there too
        }
        live.decrementAndGet();
    }

    /** A live body's actor was ended from outside: shutdown does not wait for it. */
    public void abandon() {
        abandoned.incrementAndGet();
    }

    /** @return bodies started and not ended */
    public int live() {
        return live.get();
    }

    /**
     * Waits, parking with a doubling pause from 0.1 ms up to 10 ms, until every live body except
     * the abandoned ones has ended or {@code wait} has passed, and warns if some have not.
     *
     * @param wait how long to wait at most
     * @param log where the warning goes
     * @param scheduler the scheduler's name, for the warning
     * @param what what the bodies are ("actor threads", "actor bodies"), for the warning
     * @return the {@link System#nanoTime()} deadline it waited until at most
     */
    public long awaitEnded(Duration wait, Logger log, String scheduler, String what) {
        long deadline = System.nanoTime() + wait.toNanos();
        long pause = TimeUnit.MICROSECONDS.toNanos(100);
        while (live.get() > abandoned.get() && System.nanoTime() - deadline < 0) {
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(10));
        }
        if (live.get() > abandoned.get()) {
            log.warn("scheduler {}: {} {} have not ended {} s after their actors stopped", scheduler, live.get() - abandoned.get(), what,
                    wait.toSeconds());
        }
        return deadline;
    }
}
