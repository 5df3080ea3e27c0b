package io.weft.actors.runtime.internal.pubsub;

import io.weft.actors.EventBus;
import io.weft.actors.Topic;
import io.weft.actors.runtime.internal.cell.CellHost;
import io.weft.actors.runtime.internal.schedule.TimerWheel;
import io.weft.actors.spi.TopicSpan;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The system's publish-subscribe part: {@link #eventStream()} and {@link #topic(String, Class)}
 * of the {@code ActorSystem}, between {@link CellHost} and the system class; also the
 * {@link TopicSpan.Host} through which a cluster module makes the topics span nodes.
 */
public abstract class PubSubHost extends CellHost implements TopicSpan.Host {

    /* design
     * An abstract class with the system as its one concrete subclass, like CellHost, so calls
     * through it bind without a guard. The PubSub is made on first use (most systems never
     * publish): made from the dead-letter office and the lifecycle stream, which exist once the
     * system's constructor has run, and installed by CAS; a PubSub that loses the race was
     * never used (its constructor subscribes nothing), so dropping it is harmless.
     */

    private static final VarHandle PUBSUB;

    static {
        try {
            PUBSUB = MethodHandles.lookup().findVarHandle(PubSubHost.class, "pubsub", PubSub.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile PubSub pubsub;

    /**
     * For the system class.
     *
     * @param wheel the system's timer wheel (CellHost)
     */
    protected PubSubHost(TimerWheel wheel) {
        super(wheel);
    }

    private PubSub pubsub() {
        PubSub p = pubsub;
        if (p == null) {
            PubSub made = new PubSub(deadLetterOffice(), lifecycleStream());
            p = PUBSUB.compareAndExchange(this, null, made) instanceof PubSub won ? won : made;
        }
        return p;
    }

    @Override
    public EventBus eventStream() {
        return pubsub().eventStream();
    }

    @Override
    public <T> Topic<T> topic(String name, Class<T> type) {
        return pubsub().topic(name, type);
    }

    @Override
    public TopicSpan topicSpan() {
        PubSub p = pubsub;
        return p == null ? null : p.span();
    }

    @Override
    public boolean replaceTopicSpan(TopicSpan expected, TopicSpan next) {
        return pubsub().replaceSpan(expected, next);
    }

    @Override
    public int deliverLocally(String topic, Object message) {
        return pubsub().deliverLocally(topic, message);
    }
}
