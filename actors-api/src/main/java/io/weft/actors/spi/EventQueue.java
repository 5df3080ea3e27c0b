package io.weft.actors.spi;

import io.weft.actors.Channel;

/**
 * The queue behind one channel of an actor, as the pending queue holds it (Prokopec 2016, §3.1).
 */
public interface EventQueue {

    /** @return the channel this queue belongs to */
    Channel<?> channel();

    /** @return whether the queue is empty now (exact for the consumer, a hint for others) */
    boolean isEmpty();

    /** @return the number of queued messages; may be approximate while producers are active */
    int size();

    /**
     * The stamp of this queue's oldest message when its frame has
     * {@linkplain Frame#timestampEvents time-stamping} on (consumer side only).
     *
     * @return the stamp; {@link Long#MAX_VALUE} if empty; {@link Long#MIN_VALUE} if unstamped
     */
    default long headStamp() {
        return Long.MIN_VALUE;
    }
}
