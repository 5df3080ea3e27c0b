package io.weft.actors.runtime.internal.system;

import io.weft.actors.ActorRef;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/**
 * The temporary reply destination of one {@code ask}: its first message completes the future; any
 * later one is a dead letter.
 *
 * @param <R> the reply type
 */
public final class PromiseRef<R> implements ActorRef<Object> {

    private final WeftSystem system;
    private final long id;
    public final CompletableFuture<R> future = new CompletableFuture<>();
    public volatile ScheduledFuture<?> timeout;

    public PromiseRef(WeftSystem system, long id) {
        this.system = system;
        this.id = id;
        future.whenComplete((r, e) -> {
            ScheduledFuture<?> t = timeout;
            if (t != null) {
                t.cancel(false);
            }
        });
    }

    @Override
    @SuppressWarnings("unchecked")
    public void tell(Object message) {
        java.util.Objects.requireNonNull(message, "message");
        if (!future.complete((R) message)) {
            system.deadLetterOffice().publish(message, this, null, io.weft.actors.DeadLetter.Reason.RECIPIENT_STOPPED);
        }
    }

    @Override
    public void tell(Object message, ActorRef<?> replyTo) {
        tell(message);
    }

    @Override
    public long id() {
        return id;
    }

    @Override
    public String name() {
        return "$ask" + (-id);
    }

    @Override
    public String address() {
        return "weft://" + system.name() + "/" + name() + "#" + id;
    }

    @Override
    public boolean isTerminated() {
        return future.isDone();
    }

    @Override
    public String toString() {
        return "Ask[" + (-id) + "]";
    }
}
