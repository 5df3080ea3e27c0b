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
public final class PromiseRef<R> implements ActorRef<Object>, io.weft.actors.runtime.internal.telemetry.DeadLetterOffice.ReplyWaiter {

    /* design
     * The request of an ask carries this ref as its sender. If the request goes to dead letters
     * because its target has stopped (RECIPIENT_STOPPED, SYSTEM_CLOSED: sent to a stopped actor, or
     * still queued or kept when the actor stopped), the office calls requestDead and the future
     * fails at once with ActorStoppedException naming the target, rather than at the timeout. Other
     * reasons (an overflowing mailbox, an unmatched request) leave the target alive, and the ask
     * waits for its timeout.
     */

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
    public void requestDead(ActorRef<?> recipient, io.weft.actors.DeadLetter.Reason reason) {
        if (reason == io.weft.actors.DeadLetter.Reason.RECIPIENT_STOPPED || reason == io.weft.actors.DeadLetter.Reason.SYSTEM_CLOSED) {
            future.completeExceptionally(new io.weft.actors.ActorStoppedException("ask to " + recipient + " failed: the target had stopped"
                    + (reason == io.weft.actors.DeadLetter.Reason.SYSTEM_CLOSED ? " (its system is closed)" : "")
                    + " before it took the request, so no reply will come"));
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
