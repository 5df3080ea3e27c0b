package io.weft.actors.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The item path of stages on the pool: emits whose consumer wake-ups are deferred to the end of a
 * batch, and a downstream stage run on its producer's worker (StageDownstream's design block). Order,
 * bounds and liveness must not depend on either.
 */
class StageBatchingTest {

    static ActorSystem system;

    @BeforeAll
    static void up() {
        system = ActorSystem.builder().name("stage-batching-test").parallelism(2).build();
    }

    @AfterAll
    static void down() {
        system.close();
    }

    /** Emits {@code fanOut} consecutive numbers for each input {@code x}: x * fanOut + k. */
    static final class FanOut extends Stage<Integer, Integer> {
        private final int fanOut;

        FanOut(int fanOut) {
            this.fanOut = fanOut;
        }

        @Override
        protected void consume(Integer x) {
            for (int k = 0; k < fanOut; k++) {
                emit(x * fanOut + k);
            }
        }
    }

    /** Forwards each item. */
    static final class Forward extends Stage<Integer, Integer> {
        @Override
        protected void consume(Integer x) {
            emit(x);
        }
    }

    /** Checks that items arrive as 0, 1, 2, ... and that its queue never holds more than {@code bound}. */
    static final class InOrder extends Stage<Integer, Void> {
        final AtomicLong next = new AtomicLong();
        final AtomicInteger maxQueued = new AtomicInteger();
        volatile String error;

        @Override
        protected void consume(Integer x) {
            maxQueued.accumulateAndGet(queueLength(), Math::max);
            long expected = next.getAndIncrement();
            if (x != expected && error == null) {
                error = "expected " + expected + ", got " + x;
            }
        }
    }

    @Test
    void itemsKeepTheirOrderThroughAChainOfPoolStages() throws Exception {
        int n = 200_000;
        InOrder sink = new InOrder();
        RunningPipeline<Integer> run = Pipeline.of(new Forward(), new Forward(), new Forward(), sink).start(system);
        for (int i = 0; i < n; i++) {
            assertTrue(run.put(i));
        }
        run.complete();
        run.completion().get(60, TimeUnit.SECONDS);
        assertEquals(null, sink.error);
        assertEquals(n, sink.next.get());
        assertEquals(4L * n, run.consumedCounts().values().stream().mapToLong(Long::longValue).sum());
    }

    @Test
    void aStageBlockedOnAFullConsumerThatItRunsGivesThatConsumerUp() throws Exception {
        // FanOut emits 1000 items per input into a queue of 4: it blocks on every input. The sink
        // is fed by FanOut alone, so FanOut's worker may hold it to run after its own turn; a
        // blocked emit must hand it to the pool, or nobody ever makes room.
        int inputs = 50;
        int fanOut = 1000;
        InOrder sink = new InOrder();
        sink.withCapacity(4);
        RunningPipeline<Integer> run = Pipeline.of(new FanOut(fanOut), sink).start(system);
        for (int i = 0; i < inputs; i++) {
            assertTrue(run.put(i));
        }
        run.complete();
        run.completion().get(60, TimeUnit.SECONDS);
        assertEquals(null, sink.error);
        assertEquals((long) inputs * fanOut, sink.next.get());
        assertTrue(sink.maxQueued.get() <= 4, "queued " + sink.maxQueued.get() + " > capacity 4");
    }

    @Test
    void aRefusedConditionalEmitWakesTheConsumer() throws Exception {
        // The producer retries emitIfBelow inside one consume, so its turn does not end until the
        // consumer has made room: a refusal must send the deferred wake-ups (and give up a held
        // consumer) at once. The retry loop is bounded by a deadline that fails the stage.
        int limit = 8;
        int inputs = 20;
        int fanOut = 500;
        InOrder sink = new InOrder();
        Stage<Integer, Integer> producer = new Stage<>() {
            @Override
            protected void consume(Integer x) {
                for (int k = 0; k < fanOut; k++) {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (!emitIfBelow(x * fanOut + k, limit)) {
                        if (System.nanoTime() - deadline > 0) {
                            throw new IllegalStateException("emitIfBelow refused for 30 s: the consumer never ran");
                        }
                        Thread.onSpinWait();
                    }
                }
            }
        };
        RunningPipeline<Integer> run = Pipeline.of(producer, sink).start(system);
        for (int i = 0; i < inputs; i++) {
            assertTrue(run.put(i));
        }
        run.complete();
        run.completion().get(90, TimeUnit.SECONDS);
        assertEquals(null, sink.error);
        assertEquals((long) inputs * fanOut, sink.next.get());
        assertTrue(sink.maxQueued.get() <= limit, "queued " + sink.maxQueued.get() + " > limit " + limit);
    }

    @Test
    void aFarmBehindAChainGetsEveryItemOncePerKeyInOrder() throws Exception {
        // deferred wake-ups into several targets at once, one of them held: per key, order holds
        int keys = 8;
        int n = 80_000;
        AtomicLongArray next = new AtomicLongArray(keys); // each key is counted by one replica
        AtomicInteger errors = new AtomicInteger();
        AtomicLong total = new AtomicLong();
        RunningPipeline<Integer> run = Pipeline.of(new Forward(),
                Farm.of(4, () -> new Stage<Integer, Void>() {
                    @Override
                    protected void consume(Integer x) {
                        int key = x % keys;
                        if (x / keys != next.getAndIncrement(key)) {
                            errors.incrementAndGet();
                        }
                        total.incrementAndGet();
                    }
                }, Policy.<Integer>byKey(x -> x % keys))).start(system);
        for (int i = 0; i < n; i++) {
            assertTrue(run.put(i));
        }
        run.complete();
        run.completion().get(60, TimeUnit.SECONDS);
        assertEquals(0, errors.get());
        assertEquals(n, total.get());
    }
}
