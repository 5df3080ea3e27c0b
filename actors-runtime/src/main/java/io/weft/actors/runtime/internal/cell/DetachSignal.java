package io.weft.actors.runtime.internal.cell;

/**
 * Unwinds a thread-based actor's stack when it calls {@code react}: the thread ends and the actor
 * goes on event-based (Haller and Odersky 2009, §3.3, "detached"). Preallocated and stackless; an {@link Error} so
 * that {@code catch (Exception e)} in user code does not swallow it.
 */
final class DetachSignal extends Error {
    private static final long serialVersionUID = 1L;

    static final DetachSignal INSTANCE = new DetachSignal();

    private DetachSignal() {
        super("thread-based actor detached into react mode", null, false, false);
    }
}
