package io.weft.actors.bench.kit;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The baselines without an actor library: one thread per actor (platform or virtual) looping over
 * {@code LinkedBlockingQueue.take()}.
 */
final class ThreadKit implements Kit {

    private final boolean virtual;
    private final Thread.Builder builder;

    ThreadKit(boolean virtual) {
        this.virtual = virtual;
        this.builder = virtual ? Thread.ofVirtual().name("vactor") : Thread.ofPlatform().daemon().name("actor");
    }

    @Override
    public String name() {
        return virtual ? Impl.VTHREADS.cliName() : Impl.THREADS.cliName();
    }

    @Override
    public int maxActors() {
        return virtual ? Integer.MAX_VALUE : 2_000;
    }

    @Override
    public Ref spawn(Handler handler) {
        QueueActor actor = new QueueActor(handler, this);
        builder.start(actor);
        return actor;
    }

    @Override
    public void close() {
        // every workload stops its actors; nothing is shared
    }

    /** One actor: its queue is its reference. */
    private static final class QueueActor implements Ref, Ctx, Runnable {
        private final BlockingQueue<Object> queue = new LinkedBlockingQueue<>();
        private final Handler handler;
        private final ThreadKit kit;
        private boolean stopped;

        QueueActor(Handler handler, ThreadKit kit) {
            this.handler = handler;
            this.kit = kit;
        }

        @Override
        public void tell(Object message) {
            queue.add(message);
        }

        @Override
        public void run() {
            try {
                while (!stopped) {
                    handler.onMessage(queue.take(), this);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public Ref self() {
            return this;
        }

        @Override
        public Ref spawn(Handler child) {
            return kit.spawn(child);
        }

        @Override
        public void stop() {
            stopped = true;
        }
    }
}
