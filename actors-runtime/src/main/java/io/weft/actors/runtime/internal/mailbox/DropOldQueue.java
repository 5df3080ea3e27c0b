package io.weft.actors.runtime.internal.mailbox;

import java.util.ArrayDeque;
import java.util.concurrent.locks.ReentrantLock;
import org.jctools.queues.MessagePassingQueue;

/**
 * The queue of a bounded mailbox whose overflow policy is {@code DROP_OLD}: at most
 * {@code capacity} messages; a message that does not fit evicts the oldest one, which the sender
 * then publishes to dead letters.
 */
final class DropOldQueue extends PollOfferQueue {

    /* design
     * An MPSC queue may only be polled by its consumer, so a producer cannot remove the oldest
     * element of a JCTools queue. Instead this queue is a ring buffer (ArrayDeque) under a
     * ReentrantLock (never a monitor lock: a virtual thread may send). The lock makes "evict the
     * head, append the tail" one atomic step, so the bound is exact: size() <= capacity at all
     * times, and every message is either polled by the consumer exactly once or returned to exactly
     * one producer as evicted (it goes to dead letters). Critical sections are a few field writes
     * and never call out, so holding the lock cannot block for long. This costs a lock per offer
     * and poll, paid only by DROP_OLD mailboxes; the other kinds stay lock-free.
     *
     * Publication: offer's unlock happens-before the consumer's lock in poll, and the caller's
     * read of the activation word comes after offer returns (a full fence via the lock release
     * plus the Cell's volatile read and CAS), so I2 of Cell holds unchanged.
     */

    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Object> items;
    private final int capacity;
    private volatile int size;

    DropOldQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity: must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.items = new ArrayDeque<>(Math.min(capacity, 64));
    }

    /**
     * Appends {@code item}, evicting the oldest message if the queue is full.
     *
     * @param item the new message
     * @return the evicted message, or null if there was room
     */
    Object offerEvicting(Object item) {
        lock.lock();
        try {
            Object evicted = null;
            if (items.size() >= capacity) {
                evicted = items.pollFirst();
            }
            items.addLast(item);
            size = items.size();
            return evicted;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public boolean offer(Object item) {
        lock.lock();
        try {
            if (items.size() >= capacity) {
                return false;
            }
            items.addLast(item);
            size = items.size();
            return true;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Object poll() {
        if (size == 0) {
            return null;
        }
        lock.lock();
        try {
            Object item = items.pollFirst();
            size = items.size();
            return item;
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Object peek() {
        lock.lock();
        try {
            return items.peekFirst();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public int capacity() {
        return capacity;
    }

    @Override
    public boolean relaxedOffer(Object item) {
        return offer(item);
    }

    @Override
    public Object relaxedPoll() {
        return poll();
    }

    @Override
    public Object relaxedPeek() {
        return peek();
    }
}
