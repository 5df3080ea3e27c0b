package io.weft.actors.runtime.internal.routing;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.runtime.internal.cell.CellHost;
import io.weft.actors.runtime.internal.cell.LocalRef;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;
import java.time.Duration;
import java.util.ArrayDeque;

/**
 * How many routees a pool keeps, and what it does when it has fewer: the restart budget counted
 * over replacements, the retries of a routee factory that threw, and the warning and count of a
 * pool that runs short. Owned by the router's actor; handed to its next incarnation with the rest
 * of the membership.
 */
final class PoolSize {
    /* design
     * The target is the spec's size; a resizer moves it within its bounds (Router.resize). The
     * router spawns what the pool lacks in rounds (Router.filled): a round starts at a routee's
     * stop that the budget allows (a replacement), at each restart of the router (Router.pool,
     * after takeOver: the routees were handed over, the missing ones are spawned before the
     * router's first message), at a resizer's growth, and at a resize check under pressure that
     * finds the pool short of its target with no round open (Router.resize; the budget allows it
     * as it allows a replacement). A round owes what the pool lacked when it started (`owed`):
     * its retries spawn only that many, so a routee that stops past the budget while a retry is
     * pending stays unreplaced, as its warning says.
     * If the routee factory throws a RuntimeException the router does not fail: its other routees
     * go on serving, and the failure of one spawn stays the failure of one routee, as a routee
     * whose start throws is handled by the pool's strategy. Instead (`factoryFailed`) it counts
     * the failed call (SystemMetrics.routeeSpawnFailures; each retry counts again) and retries on
     * its own timer (key TopUp.class, so the retry runs in the router's turn, as every change of
     * membership does) after the pool strategy's backoff(n), at most maxRestarts retries in a
     * row; then it gives up and runs short until the next round. Anything else the factory throws
     * (an Error, or a checked exception thrown undeclared) is not retried: the router publishes
     * the routees it spawned so far and fails with it, and its own supervisor decides
     * (Router.filled). A round logs at most two WARNs (its first failure and its giving up), each
     * naming the router, the size it runs at, the target and the cause; the retries in between
     * are only counted. A stopped routee that the budget does not let the pool replace is a count
     * too, and a WARN at most once per budget window (`budgetUsedUp`: a pool whose routees all
     * stop at once logs one line). While the system closes (ActorSystem.isClosed) a stopped
     * routee is not replaced and a spawn that fails is neither counted nor retried: the closing
     * system refuses spawns, which is not a failure of the factory. A resizing pool short of its
     * target first tops up to it (a round) before it grows past it.
     * Pekko's DefaultResizer brings a pool below its lower bound back up at its next resize check
     * (on message traffic), whether or not its routees are busy; here the check tops up only
     * under pressure, within the restart budget, so a routee factory or routees that keep failing
     * cost at most maxRestarts rounds a window. A Pekko pool without a resizer never replaces a
     * routee, and its typed pool stops when its last routee has stopped. Here a pool without
     * routees stays, and what it is told goes to dead letters (NO_ROUTEES) until a round spawns
     * one.
     */

    /** A pool's retry of the routees it lacks: the message of the router's own timer (key: this class). */
    record TopUp() implements DeadLetterOffice.Internal {
    }

    private static final TopUp TOP_UP = new TopUp();

    private final SupervisorStrategy strategy;
    private final ArrayDeque<Long> replacements = new ArrayDeque<>();
    /** How many routees the pool keeps. */
    int target;
    /** Spawns in a row that the routee factory failed since the round started. */
    private int failedSpawns;
    /** Whether a resizer moves the target (and starts rounds), for the warnings. */
    private final boolean resizes;
    /** When the last warning of a stop past the budget was logged (System.nanoTime), if budgetWarned. */
    private long budgetWarnedAt;
    private boolean budgetWarned;
    /** Stops past the budget since that warning: counted, not logged. */
    private int unwarnedStops;
    /** Routees the open round may still spawn (its retries fill only these); 0 when no round is open. */
    private int owed;

    PoolSize(SupervisorStrategy strategy, int target, boolean resizes) {
        this.strategy = strategy;
        this.target = target;
        this.resizes = resizes;
    }

    /**
     * A round of top-up starts: it owes what the pool lacks now, and its retries are counted from zero.
     *
     * @param size the routees the pool runs with
     */
    void newRound(int size) {
        failedSpawns = 0;
        owed = Math.max(0, target - size);
    }

    /**
     * @param size the routees the pool runs with
     * @return whether the open round spawns one more routee
     */
    boolean owes(int size) {
        return owed > 0 && size < target;
    }

    /** The round spawned one of the routees it owes. */
    void spawned() {
        owed--;
    }

    /** The round ends: it spawned what it owed, gave up, or the system is closing. */
    void roundOver() {
        owed = 0;
    }

    /** @return whether a round is open: a retry of the factory is pending on the router's timer */
    boolean retryPending() {
        return owed > 0;
    }

    /** The pool's restart budget, counted over replacements: at most maxRestarts within the window. */
    boolean replacementAllowed() {
        long now = System.nanoTime();
        long window = strategy.window().toNanos();
        while (!replacements.isEmpty() && now - replacements.peekFirst() > window) {
            replacements.pollFirst();
        }
        if (replacements.size() >= strategy.maxRestarts()) {
            return false;
        }
        replacements.addLast(now);
        return true;
    }

    /**
     * The routee factory threw; the pool runs at {@code size}: counts it, arranges a retry while
     * retries are left, and warns at the round's first failure and when it gives up.
     *
     * @param self the router's context
     * @param size the routees the pool runs with
     * @param failure what the factory threw
     */
    void factoryFailed(ActorContext<Object> self, int size, RuntimeException failure) {
        host(self).routeeSpawnFailed();
        String runs = runs(self, size, "its routee factory threw " + failure);
        int retry = ++failedSpawns;
        if (retry <= strategy.maxRestarts()) {
            Duration delay = strategy.backoff(retry);
            self.timers().startSingle(TopUp.class, TOP_UP, delay);
            if (retry == 1) {
                host(self).warn(runs + "; retrying on the router's timer after the pool strategy's backoff (" + delay.toMillis()
                        + " ms, at most " + strategy.maxRestarts() + (strategy.maxRestarts() == 1 ? " retry)" : " retries)")
                        + ifEmpty(size));
            }
        } else {
            roundOver();
            host(self).warn(runs + "; gave up after " + (retry - 1) + (retry == 2 ? " retry" : " retries")
                    + " (the pool strategy's maxRestarts); it tops up again when a routee stops"
                    + (resizes ? ", the resizer finds its routees busy" : "") + " or the router restarts" + ifEmpty(size));
        }
    }

    /**
     * A routee stopped and the restart budget does not let the pool replace it: counts it, and
     * warns at most once per budget window (a pool whose routees all stop at once logs one line,
     * not one per routee); the next warning says how many were only counted meanwhile.
     *
     * @param self the router's context
     * @param size the routees the pool runs with
     * @param gone the routee that stopped
     */
    void budgetUsedUp(ActorContext<Object> self, int size, ActorRef<?> gone) {
        host(self).routeeSpawnFailed();
        long now = System.nanoTime();
        if (budgetWarned && now - budgetWarnedAt < strategy.window().toNanos()) {
            unwarnedStops++;
            return;
        }
        budgetWarned = true;
        budgetWarnedAt = now;
        String meanwhile = unwarnedStops == 0 ? "" : " (nor " + unwarnedStops + " more since the last such warning, counted)";
        unwarnedStops = 0;
        host(self).warn(runs(self, size, "its routee " + gone + " stopped and the pool strategy's restart budget ("
                + strategy.maxRestarts() + " within " + strategy.window() + ") is used up, so it was not replaced" + meanwhile
                + "; more stops past the budget within " + strategy.window()
                + " are counted (SystemMetrics.routeeSpawnFailures), not logged")
                + "; it tops up when another routee stops" + (resizes ? " or the resizer finds its routees busy" : "")
                + " within the budget, or when the router restarts" + ifEmpty(size));
    }

    /** Begins a warning. */
    private String runs(ActorContext<Object> self, int size, String cause) {
        return "pool router " + self.self() + " runs at " + size + " of " + target + " routees: " + cause;
    }

    private static String ifEmpty(int size) {
        return size > 0 ? "" : "; with no routee, what is told to it goes to dead letters (NO_ROUTEES): fix the routee factory "
                + "(or what stops the routees) so that its spawns succeed";
    }

    private static CellHost host(ActorContext<Object> self) {
        return ((LocalRef<?>) self.self()).cell().weftSystem();
    }
}
