package io.weft.actors.runtime.internal.system;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The actors one close ended from outside because their threads had not returned within the stop
 * grace period: counted exactly, the first few named (the first with its thread's stack), each of
 * the others logged at DEBUG, and reported as one warning when the close has ended them all.
 */
final class GraceOverruns {

    /* design
     * A close of a million thread-based actors whose threads do not return in time (bodies that
     * swallow the interrupt, or threads the carriers have not reached within the grace period on a
     * loaded machine) logged one warning with a stack per actor: about 100 MB of output, and a
     * stack walk per actor. This class keeps, per close and per kind (system threads, adopted
     * threads), the exact count, the names of the first EXAMPLES actors and the stack of the
     * first one's thread; every other actor goes to DEBUG (its stack walked only when DEBUG is
     * on). summary() is the one WARN line of the close; it also says how many of the threads were
     * runnable, which tells a loaded machine (threads woken by the stop and not yet run: a close
     * of 1,000,000 parked actors on 2 cores) from bodies that wait on after the interrupt.
     *
     * Invariant: only the thread that finishes the close calls add and summary (SystemClose's
     * finisher), so the fields need no synchronization; count is the number of actors ended from
     * outside by that close, each counted once (Cell.endFromOutside returns its thread once).
     */

    /** How many actors a summary names. */
    static final int EXAMPLES = 3;

    private static final Logger LOG = LoggerFactory.getLogger(WeftSystem.class);

    private final String what;
    private final List<String> examples = new ArrayList<>(EXAMPLES);
    private long count;
    /** Of count, the threads that were runnable: running the body, or not yet given a carrier or core. */
    private long runnable;
    private String firstStack;

    /**
     * @param what what happened to the actors, after the count and "actors" ("of system s did
     *        not stop within ..."), for the summary and the DEBUG lines
     */
    GraceOverruns(String what) {
        this.what = what;
    }

    /** {@code actor} was ended from outside; {@code thread} is its own thread, left running. */
    void add(Object actor, Thread thread) {
        count++;
        if (thread.getState() == Thread.State.RUNNABLE) {
            runnable++;
        }
        if (examples.size() < EXAMPLES) {
            examples.add(actor + " (thread " + thread + ")");
            if (firstStack == null) {
                firstStack = WeftSystem.where(thread);
            }
        } else if (LOG.isDebugEnabled()) {
            LOG.debug("one of the actors {}: {}, thread {}, at {}", what, actor, thread, WeftSystem.where(thread));
        }
    }

    /** @return the number of actors added */
    long count() {
        return count;
    }

    /** @return the one warning for every actor added, or null if none was */
    String summary() {
        if (count == 0) {
            return null;
        }
        StringBuilder b = new StringBuilder().append(count).append(count == 1 ? " actor " : " actors ").append(what).append(". ");
        if (count == 1) {
            b.append(runnable == 1 ? "Its thread was runnable (running, or woken and not yet run within the period). "
                    : "Its thread was waiting or blocked. ");
        } else {
            b.append(runnable).append(" of the threads were runnable (running, or woken and not yet run within the period), ")
                    .append(count - runnable).append(" waiting or blocked. ");
        }
        b.append(count == 1 ? "It was " : "The first " + examples.size() + ": ").append(String.join(", ", examples));
        if (count > examples.size()) {
            b.append("; the other ").append(count - examples.size()).append(" are logged at DEBUG");
        }
        b.append(". The thread of the first was at").append(firstStack);
        return b.toString();
    }
}
