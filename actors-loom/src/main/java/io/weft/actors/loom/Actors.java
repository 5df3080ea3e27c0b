package io.weft.actors.loom;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorSystem;
import io.weft.actors.runtime.internal.cell.Cell;
import io.weft.actors.runtime.internal.system.WeftSystem;
import java.util.Objects;

/**
 * Every thread is an actor (Haller and Odersky 2009, §2): {@link #self(ActorSystem)} gives the calling thread — the
 * main thread, a platform thread or a virtual thread — an actor identity in a system, with a mailbox
 * it can {@code receive} from.
 */
public final class Actors {

    private static final ThreadLocal<Cell<Object>> SELF = new ThreadLocal<>();

    private Actors() {
    }

    /**
     * The calling thread's actor in {@code system}, created on first call. Inside an actor's own
     * thread, that actor's context. The mailbox is created on the first call and released by
     * {@link #release()}, when the thread ends (the system's timer checks about once a second,
     * system property {@code weft.adoptedSweepMillis}), or when the system closes; its remaining
     * mail then goes to dead letters.
     *
     * @param system the system
     * @return the context of the calling thread's actor
     * @throws IllegalStateException inside a react handler (a pool worker must not block)
     */
    @SuppressWarnings("unchecked")
    public static ActorContext<Object> self(ActorSystem system) {
        Objects.requireNonNull(system, "system");
        Cell<?> running = WeftSystem.current();
        if (running != null) {
            if (running.ownThread() == Thread.currentThread()) {
                return (ActorContext<Object>) running;
            }
            throw new IllegalStateException("Actors.self() called inside a react handler of " + running.ref()
                    + "; use the handler's own context");
        }
        Cell<Object> cell = SELF.get();
        if (cell != null && !cell.isTerminated() && cell.system() == system) {
            return cell;
        }
        if (!(system instanceof WeftSystem weft)) {
            throw new IllegalArgumentException("not a Weft runtime system: " + system);
        }
        cell = weft.adopt(Thread.currentThread(), new CurrentThreadScheduler());
        SELF.set(cell);
        return cell;
    }

    /** Stops the calling thread's actor, if it has one: its remaining mail goes to dead letters. */
    public static void release() {
        Cell<Object> cell = SELF.get();
        if (cell != null) {
            SELF.remove();
            cell.finishAdopted();
        }
    }
}
