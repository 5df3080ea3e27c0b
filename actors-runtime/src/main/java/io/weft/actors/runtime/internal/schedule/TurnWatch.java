package io.weft.actors.runtime.internal.schedule;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;

/**
 * What one watching thread (the reanimation thread, the blocking watchdog) remembers of each pool
 * worker's turns between its looks, to tell how long a worker has been inside one turn.
 */
final class TurnWatch {

    /* design
     * A worker's turn counter (Worker.turns) is odd while a turn runs; the worker
     * bumps it with a release store at the start and at the end of every turn, and this reads it
     * with an acquire load. A watcher that sees the same odd count at two looks knows the worker
     * has been inside one turn since (at least) the first of them: the time is measured from the
     * watcher's first look at that turn, so it may be short by up to one look period, never long.
     *
     * The memory lives here, in the watcher's own objects, and not in fields of the worker: the
     * worker's object holds the fields its turns write, and a watcher's writes there would take
     * that cache line from the worker's core at every look.
     *
     * Not thread-safe: each watcher owns one TurnWatch and is its only user.
     */

    /** One worker's turn as last seen. */
    private static final class Seen {
        /** The worker's turn counter at the last look. */
        long turns;
        /** When that turn was first seen (System.nanoTime), or when it was last restarted. */
        long since;
    }

    private final Map<Worker, Seen> seen = new HashMap<>();

    /**
     * Forgets the workers that are not in {@code live} (ended workers).
     *
     * @param live the pool's current workers
     */
    void retain(Collection<Worker> live) {
        seen.keySet().retainAll(live);
    }

    /**
     * Looks at {@code w} now.
     *
     * @param w a worker
     * @param now System.nanoTime()
     * @return how long {@code w} has been inside the turn it is in, counted from this watcher's
     *     first look at that turn (or from the last {@link #restart}); 0 if it is between turns or
     *     in a turn this is the first look at
     */
    long insideOneTurn(Worker w, long now) {
        Seen s = seen.computeIfAbsent(w, k -> new Seen());
        long t = w.turnsAcquire();
        if ((t & 1) == 0 || t != s.turns) {
            s.turns = t;
            s.since = now;
            return 0;
        }
        return now - s.since;
    }

    /**
     * Counts {@code w}'s current turn from {@code now} again, so that a watcher that acted on a
     * long turn acts again one threshold later, not at every look.
     *
     * @param w a worker looked at before
     * @param now System.nanoTime()
     */
    void restart(Worker w, long now) {
        Seen s = seen.get(w);
        if (s != null) {
            s.since = now;
        }
    }
}
