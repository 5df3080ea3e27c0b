package io.weft.actors.runtime.internal.cell;

import io.weft.actors.runtime.internal.schedule.Worker;
import io.weft.actors.runtime.internal.telemetry.Telemetry;

/**
 * Which actor runs on the current thread ({@code WeftSystem.current()}, the owner checks of
 * {@link Cell}, the MDC): entered and left around every turn.
 */
public final class CurrentActor {

    /* design
     * A pool worker keeps its running actor in a field of its own (Worker.current), the hot case:
     * one class test and a field write per turn. An actor's own thread (ThreadPerActorScheduler)
     * is found through its thread state without a ThreadLocal (whose map would cost each parked
     * virtual thread about 140 bytes). Any other thread that runs a turn (a test scheduler, the
     * piggyback scheduler) uses a ThreadLocal.
     */

    private static final ThreadLocal<Cell<?>> CURRENT = new ThreadLocal<>();

    private CurrentActor() {
    }

    public static Cell<?> enter(Thread thread, Cell<?> cell) {
        Telemetry.enterMdc(cell.ref());
        if (thread instanceof Worker w) {
            Cell<?> previous = (Cell<?>) w.current;
            w.current = cell;
            return previous;
        }
        return enterOtherThread(thread, cell);
    }

    /** {@link #enter} on a thread that is not a pool worker (out of line: the worker path is hot). */
    private static Cell<?> enterOtherThread(Thread thread, Cell<?> cell) {
        if (ThreadPerActorScheduler.frameOf(thread) == cell) {
            return null; // the thread is the actor's own: current() finds it without a ThreadLocal
        }
        Cell<?> previous = CURRENT.get();
        CURRENT.set(cell);
        return previous;
    }

    public static void leave(Thread thread, Cell<?> previous) {
        Telemetry.leaveMdc(previous == null ? null : previous.ref());
        if (thread instanceof Worker w) {
            w.current = previous;
        } else {
            leaveOtherThread(thread, previous);
        }
    }

    /** {@link #leave} on a thread that is not a pool worker. */
    private static void leaveOtherThread(Thread thread, Cell<?> previous) {
        if (previous == null) {
            if (ThreadPerActorScheduler.frameOf(thread) != null) {
                return;
            }
            CURRENT.remove();
        } else {
            CURRENT.set(previous);
        }
    }

    /** @return the actor whose handler or thread is running on this thread, or null */
    public static Cell<?> current() {
        Thread t = Thread.currentThread();
        if (t instanceof Worker w) {
            return (Cell<?>) w.current;
        }
        Cell<?> local = CURRENT.get();
        if (local == null && ThreadPerActorScheduler.frameOf(t) instanceof Cell<?> own) {
            return own;
        }
        return local;
    }
}
