package io.weft.actors.bench.kit;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * The floor, not a contender: every actor runs on one event-loop thread, and a message sent by an
 * actor is two entries in one plain FIFO ({@code ArrayDeque}). No atomic instruction, no
 * per-actor queue, no scheduling decision: what is left is the workload's own handler code and
 * the cheapest hand-off Java has. A workload's time here is how far below it no actor runtime can
 * go on one core; the second core is of no use to it.
 *
 * <p>Messages from other threads (a workload's driver telling its first actors) go through a
 * concurrent queue that the loop drains whenever its own FIFO is empty, and at least every
 * {@value #EXTERNAL_POLL_INTERVAL} deliveries. A handler that throws stops its actor; the failure
 * is printed and the loop goes on. A handler must not block: it would stop every actor.
 */
final class LoopKit implements Kit {

    /** Deliveries from the loop's own FIFO between two looks at the messages from other threads. */
    static final int EXTERNAL_POLL_INTERVAL = 1024;

    /** Loop thread only: actor, message, actor, message... */
    private final ArrayDeque<Object> local = new ArrayDeque<>(1024);
    private final ConcurrentLinkedQueue<Delivery> external = new ConcurrentLinkedQueue<>();
    private final Thread loop;
    /** True while the loop may park: a sender from another thread then unparks it. */
    private volatile boolean sleeping;
    private volatile boolean closed;

    LoopKit() {
        loop = Thread.ofPlatform().daemon().name("bench-loop").unstarted(this::run);
        loop.start();
    }

    @Override
    public String name() {
        return Impl.LOOP.cliName();
    }

    @Override
    public Ref spawn(Handler handler) {
        return new LoopActor(Objects.requireNonNull(handler, "handler"));
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(loop);
        try {
            loop.join(TimeUnit.SECONDS.toMillis(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A message sent from a thread other than the loop's. */
    private record Delivery(LoopActor to, Object message) {
    }

    private void run() {
        while (!closed) {
            for (int i = 0; i < EXTERNAL_POLL_INTERVAL; i++) {
                Object to = local.pollFirst();
                if (to == null) {
                    break;
                }
                deliver((LoopActor) to, local.pollFirst());
            }
            if (!takeExternal() && local.isEmpty()) {
                // A sender offers, then reads sleeping; the loop writes sleeping, then reads the
                // queue. Both are volatile, so either the sender sees true and unparks, or the
                // loop sees the message and does not park (a stale unpark only wakes it once more).
                sleeping = true;
                if (external.isEmpty() && !closed) {
                    LockSupport.park(this);
                }
                sleeping = false;
            }
        }
    }

    /** @return whether any message from another thread was moved to the loop's FIFO */
    private boolean takeExternal() {
        boolean any = false;
        Delivery d;
        while ((d = external.poll()) != null) {
            local.addLast(d.to());
            local.addLast(d.message());
            any = true;
        }
        return any;
    }

    private static void deliver(LoopActor actor, Object message) {
        if (actor.stopped) {
            return;
        }
        try {
            actor.handler.onMessage(message, actor);
        } catch (RuntimeException | Error e) {
            actor.stopped = true;
            System.err.println("bench-loop: a handler failed; its actor is stopped");
            e.printStackTrace();
        }
    }

    /** One actor: its handler and whether it stopped; touched by the loop thread only. */
    private final class LoopActor implements Ref, Ctx {
        private final Handler handler;
        private boolean stopped;

        LoopActor(Handler handler) {
            this.handler = handler;
        }

        @Override
        public void tell(Object message) {
            Objects.requireNonNull(message, "message");
            if (Thread.currentThread() == loop) {
                local.addLast(this);
                local.addLast(message);
            } else {
                external.offer(new Delivery(this, message));
                if (sleeping) {
                    LockSupport.unpark(loop);
                }
            }
        }

        @Override
        public Ref self() {
            return this;
        }

        @Override
        public Ref spawn(Handler child) {
            return LoopKit.this.spawn(child);
        }

        @Override
        public void stop() {
            stopped = true;
        }
    }
}
