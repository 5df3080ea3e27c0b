package io.weft.actors.runtime.internal.cell;

/**
 * A message the runtime puts in an actor's main queue to fail it on its own thread, in order with
 * its other messages: a linked actor's failure (for an actor not trapping exits) or a child's
 * escalated failure. The actor's turn raises it before its handler sees the message, so the failure
 * is handled by the actor's own supervision, exactly like a failure of its handler.
 */
public final class SystemSignal {

    private final Throwable failure;

    public SystemSignal(Throwable failure) {
        this.failure = failure;
    }

    /** Throws the failure, checked or not, without wrapping it. */
    void raise() {
        SystemSignal.<RuntimeException>sneaky(failure);
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneaky(Throwable t) throws T {
        throw (T) t;
    }

    @Override
    public String toString() {
        return "SystemSignal[" + failure + "]";
    }
}
