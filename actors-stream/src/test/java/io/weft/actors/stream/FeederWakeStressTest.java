package io.weft.actors.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * No lost wake-up on a feeder's lane (StageFrame, I2: the put's store, a full fence, then the read
 * of the activation word; the stage's store of idle, then its re-read of the lanes): many short
 * streams whose source waits for each of its own items to be consumed before the next put, so the
 * stage goes idle between puts and puts race with its idle transition. Nothing else wakes the
 * stage, so a lost wake-up leaves the source waiting for an item that stays in the lane: the
 * bounded awaits here fail instead of hanging.
 */
class FeederWakeStressTest {

    static ActorSystem system;

    @BeforeAll
    static void up() {
        system = ActorSystem.builder().name("feeder-wake-stress").parallelism(2).build();
    }

    @AfterAll
    static void down() {
        system.close();
    }

    /** Releases one permit per consumed item. */
    static final class Ack extends Stage<Integer, Void> {
        final Semaphore acks;
        long count;

        Ack(Semaphore acks) {
            this.acks = acks;
        }

        @Override
        protected void consume(Integer item) {
            count++;
            acks.release();
        }
    }

    static final class Forward extends Stage<Integer, Integer> {
        @Override
        protected void consume(Integer item) {
            emit(item);
        }
    }

    /**
     * A busy wait of 0 to 40 µs before a burst: the stage waits up to 20 µs for input before it
     * goes idle (InputWait), so puts land before, during and after its idle transition.
     */
    private static void jitter() {
        long until = System.nanoTime() + ThreadLocalRandom.current().nextLong(40_000);
        while (System.nanoTime() - until < 0) {
            Thread.onSpinWait();
        }
    }

    /** One stream: {@code items} puts in bursts of {@code burst}, each burst awaited before the next. */
    private static void stream(int index, boolean twoStages, int items, int burst) throws Exception {
        Semaphore acks = new Semaphore(0);
        Ack sink = new Ack(acks);
        RunningPipeline<Integer> run = twoStages
                ? Pipeline.of(new Forward(), sink).start(system)
                : Pipeline.of(sink).start(system);
        try (Feeder<Integer> f = run.feeder()) {
            for (int i = 0; i < items; i += burst) {
                int n = Math.min(burst, items - i);
                jitter();
                for (int k = 0; k < n; k++) {
                    assertTrue(f.put(i + k), "put refused");
                }
                assertTrue(acks.tryAcquire(n, 30, TimeUnit.SECONDS),
                        "stream " + index + ": items " + i + ".." + (i + n - 1) + " not consumed within 30 s: a lost wake-up");
            }
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(items, sink.count);
    }

    @Test
    void shortStreamsWaitingForTheirOwnItemsNeverHang() throws Exception {
        for (int s = 0; s < 600; s++) {
            stream(s, s % 2 == 1, 40, 1 + s % 3);
        }
    }

    @Test
    void concurrentSourcesEachWaitingForTheirItems() throws Exception {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicLong done = new AtomicLong();
        CompletableFuture<?>[] sources = new CompletableFuture<?>[2];
        for (int t = 0; t < sources.length; t++) {
            int id = t;
            sources[t] = CompletableFuture.runAsync(() -> {
                try {
                    for (int s = 0; s < 100; s++) {
                        stream(id * 1000 + s, (s & 1) == 0, 30, 1 + s % 4);
                        done.incrementAndGet();
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, r -> Thread.ofPlatform().name("wake-source-" + id).start(r));
        }
        CompletableFuture.allOf(sources).get(120, TimeUnit.SECONDS);
        assertNull(failure.get());
        assertEquals(200, done.get());
    }
}
