package io.weft.actors.runtime.internal.telemetry;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.DeadLetters;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Counts and publishes dead letters; logs them at most once a second. A {@link DeadLetter} that is
 * itself undeliverable (its subscriber stopped) is counted but not published again.
 */
public final class DeadLetterOffice extends Listeners<DeadLetter> implements DeadLetters {

    private static final Logger LOG = LoggerFactory.getLogger(DeadLetterOffice.class);
    private static final long LOG_INTERVAL_NANOS = 1_000_000_000L;

    private final LongAdder count = new LongAdder();
    private final LongAdder[] byReason = new LongAdder[DeadLetter.Reason.values().length];

    public DeadLetterOffice() {
        for (int i = 0; i < byReason.length; i++) {
            byReason[i] = new LongAdder();
        }
    }
    private final AtomicLong lastLog = new AtomicLong(System.nanoTime() - LOG_INTERVAL_NANOS);

    public void publish(Object message, ActorRef<?> recipient, ActorRef<?> sender, DeadLetter.Reason reason) {
        if (message instanceof Carrier carrier) {
            message = carrier.carried();
        }
        count.increment();
        byReason[reason.ordinal()].increment();
        if (!(message instanceof DeadLetter)) {
            // a dead letter that could not be told to a (stopped) subscriber is counted, not
            // published again: it would go straight back to that subscriber, forever
            publish(new DeadLetter(message, recipient, sender, reason));
        }
        if (LOG.isDebugEnabled()) {
            long now = System.nanoTime();
            long last = lastLog.get();
            if (now - last >= LOG_INTERVAL_NANOS && lastLog.compareAndSet(last, now)) {
                LOG.debug("dead letter to {} ({}): {} [{} so far; logged at most once a second]",
                        recipient, reason, message.getClass().getName(), count.sum());
            }
        }
    }

    @Override
    public long count() {
        return count.sum();
    }

    @Override
    public long count(DeadLetter.Reason reason) {
        return byReason[java.util.Objects.requireNonNull(reason, "reason").ordinal()].sum();
    }

    /**
     * A wrapper a runtime layer puts around a user's message on its way to an actor (a balancing
     * router's hand-off): a dead letter shows the message inside, never the wrapper.
     */
    public interface Carrier {
        /** @return the user's message */
        Object carried();
    }
}
