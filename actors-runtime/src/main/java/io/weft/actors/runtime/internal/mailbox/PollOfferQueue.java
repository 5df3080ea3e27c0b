package io.weft.actors.runtime.internal.mailbox;

import org.jctools.queues.MessagePassingQueue;

/**
 * A {@link MessagePassingQueue} whose batch and wait loops ({@code drain}, {@code fill}) and
 * {@code clear} are written once over its own {@code poll} and {@code offer}: the mailbox queues that are not
 * JCTools classes ({@link DropOldQueue}, {@link AdaptiveQueue}) implement the single-item methods
 * and inherit these.
 */
abstract class PollOfferQueue implements MessagePassingQueue<Object> {

    /** Items {@code fill(s)} offers to an unbounded queue in one call. */
    static final int FILL_BATCH = 4096;

    private static final int LOOP_BATCH = 64;

    /** Polls until {@code poll} finds the queue empty, discarding what it takes. */
    @Override
    public void clear() {
        while (poll() != null) {
            // discard
        }
    }

    @Override
    public int drain(Consumer<Object> c, int limit) {
        int n = 0;
        Object item;
        while (n < limit && (item = poll()) != null) {
            c.accept(item);
            n++;
        }
        return n;
    }

    @Override
    public int fill(Supplier<Object> s, int limit) {
        int n = 0;
        while (n < limit && offer(s.get())) {
            n++;
        }
        return n;
    }

    @Override
    public int drain(Consumer<Object> c) {
        return drain(c, Integer.MAX_VALUE);
    }

    /** Offers at most the capacity (a bounded queue) or {@link #FILL_BATCH} items (an unbounded one). */
    @Override
    public int fill(Supplier<Object> s) {
        int capacity = capacity();
        return fill(s, capacity == UNBOUNDED_CAPACITY ? FILL_BATCH : capacity);
    }

    @Override
    public void drain(Consumer<Object> c, WaitStrategy wait, ExitCondition exit) {
        int idle = 0;
        while (exit.keepRunning()) {
            idle = drain(c, LOOP_BATCH) == 0 ? wait.idle(idle) : 0;
        }
    }

    @Override
    public void fill(Supplier<Object> s, WaitStrategy wait, ExitCondition exit) {
        int idle = 0;
        while (exit.keepRunning()) {
            idle = fill(s, LOOP_BATCH) == 0 ? wait.idle(idle) : 0;
        }
    }
}
