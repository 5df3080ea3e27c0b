package io.weft.actors.runtime.examples;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Semaphore;

/**
 * Example resources for {@link ResourceScheduler}: one that grants only when its owner calls
 * {@link #grant()}, and one with a fixed number of slots.
 */
public final class ManualResource implements ResourceScheduler.Resource, AutoCloseable {

    private final ConcurrentLinkedQueue<Runnable> waiting = new ConcurrentLinkedQueue<>();
    private final ExecutorService executor = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "manual-resource");
        t.setDaemon(true);
        return t;
    });

    @Override
    public void request(Runnable whenGranted) {
        waiting.add(whenGranted);
    }

    /** @return how many requests wait for a grant */
    public int waiting() {
        return waiting.size();
    }

    /** Grants the resource to the oldest waiting request, if any. */
    public void grant() {
        Runnable r = waiting.poll();
        if (r != null) {
            executor.execute(r);
        }
    }

    /**
     * A resource with {@code slots} concurrent users, each run on a thread of {@code executor}.
     *
     * @param slots how many may hold it at once
     * @param executor where granted work runs
     * @return the resource
     */
    public static ResourceScheduler.Resource slots(int slots, ExecutorService executor) {
        Semaphore permits = new Semaphore(slots);
        return whenGranted -> executor.execute(() -> {
            permits.acquireUninterruptibly();
            try {
                whenGranted.run();
            } finally {
                permits.release();
            }
        });
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
