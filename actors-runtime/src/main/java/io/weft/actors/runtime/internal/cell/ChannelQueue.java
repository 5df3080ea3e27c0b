package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.Channel;
import io.weft.actors.spi.EventQueue;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Queue;
import org.jctools.queues.MessagePassingQueue;
import io.weft.actors.runtime.internal.mailbox.Stamped;

/**
 * An opened channel of an actor (Prokopec 2016, §2): its writing end and its event queue.
 *
 * @param <T> the channel's message type
 */
final class ChannelQueue<T> implements Channel<T>, EventQueue {

    /* design
     * `queued` is this channel's membership flag in the owner's pending queue (Prokopec 2016, Lemma 1-2,
     * with the queue-size-equals-one test replaced by a CAS): the sender that moves it 0 -> 1 puts
     * the channel on the pending queue; the owner moves it back to 0 only after polling the channel
     * off the pending queue and finding it empty, then re-checks the queue, so a message is never
     * left in a channel that is off the pending queue.
     */

    private static final VarHandle QUEUED;

    static {
        try {
            QUEUED = MethodHandles.lookup().findVarHandle(ChannelQueue.class, "queued", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Cell<?> owner;
    final Class<T> type;
    final MessagePassingQueue<Object> queue;
    final Queue<EventQueue> pending;
    private final int index;
    @SuppressWarnings("unused") // through QUEUED
    private volatile int queued;

    ChannelQueue(Cell<?> owner, Class<T> type, MessagePassingQueue<Object> queue, Queue<EventQueue> pending, int index) {
        this.owner = owner;
        this.type = type;
        this.queue = queue;
        this.pending = pending;
        this.index = index;
    }

    boolean markQueued() {
        return lvQueued() == 0 && casQueued(0, 1);
    }

    void clearQueued() {
        svQueued(0);
    }

    private int lvQueued() {
        return (int) QUEUED.getVolatile(this);
    }

    private boolean casQueued(int expected, int next) {
        return QUEUED.compareAndSet(this, expected, next);
    }

    private void svQueued(int next) {
        QUEUED.setVolatile(this, next);
    }

    @Override
    public void tell(T message) {
        owner.sendOn(this, checked(message), null);
    }

    @Override
    public void tell(T message, ActorRef<?> replyTo) {
        owner.sendOn(this, checked(message), replyTo);
    }

    private Object checked(T message) {
        if (message != null && !type.isInstance(message)) {
            throw new ClassCastException("channel " + this + " accepts " + type.getName() + ", not " + message.getClass().getName());
        }
        return owner.weftSystem().checkMessage(message);
    }

    @Override
    public ActorRef<?> owner() {
        return owner.ref();
    }

    @Override
    public Channel<?> channel() {
        return this;
    }

    @Override
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    @Override
    public int size() {
        return queue.size();
    }

    @Override
    public long headStamp() {
        return Stamped.headOf(queue);
    }

    @Override
    public String toString() {
        return owner.ref() + "/channel-" + index + "<" + type.getSimpleName() + ">";
    }
}
