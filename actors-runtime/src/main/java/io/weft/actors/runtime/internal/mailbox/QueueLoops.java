package io.weft.actors.runtime.internal.mailbox;

import org.jctools.queues.MessagePassingQueue;

/** The batch and wait loops of {@link MessagePassingQueue} written once over poll and offer. */
final class QueueLoops {

    /** Items {@code fill(s)} offers to an unbounded queue in one call. */
    static final int FILL_BATCH = 4096;

    private static final int LOOP_BATCH = 64;

    private QueueLoops() {
    }

    static int drain(MessagePassingQueue<Object> q, MessagePassingQueue.Consumer<Object> c, int limit) {
        int n = 0;
        Object item;
        while (n < limit && (item = q.poll()) != null) {
            c.accept(item);
            n++;
        }
        return n;
    }

    static int fill(MessagePassingQueue<Object> q, MessagePassingQueue.Supplier<Object> s, int limit) {
        int n = 0;
        while (n < limit && q.offer(s.get())) {
            n++;
        }
        return n;
    }

    static void drain(MessagePassingQueue<Object> q, MessagePassingQueue.Consumer<Object> c,
            MessagePassingQueue.WaitStrategy wait, MessagePassingQueue.ExitCondition exit) {
        int idle = 0;
        while (exit.keepRunning()) {
            idle = drain(q, c, LOOP_BATCH) == 0 ? wait.idle(idle) : 0;
        }
    }

    static void fill(MessagePassingQueue<Object> q, MessagePassingQueue.Supplier<Object> s,
            MessagePassingQueue.WaitStrategy wait, MessagePassingQueue.ExitCondition exit) {
        int idle = 0;
        while (exit.keepRunning()) {
            idle = fill(q, s, LOOP_BATCH) == 0 ? wait.idle(idle) : 0;
        }
    }
}
