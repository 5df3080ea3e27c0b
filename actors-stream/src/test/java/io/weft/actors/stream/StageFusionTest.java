package io.weft.actors.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Operator fusion (StageFusion#consume): a stage held by its producer's worker, with an empty
 * queue, consumes the producer's emits directly. Order, completion, counts and failures must be
 * the same as through the queue.
 */
class StageFusionTest {

    static ActorSystem system;

    @BeforeAll
    static void up() {
        system = ActorSystem.builder().name("stage-fusion-test").parallelism(2).build();
    }

    @AfterAll
    static void down() {
        system.close();
    }

    /** Marks the emits of its consume, so a downstream consume can tell it runs inside one. */
    static final ThreadLocal<Boolean> IN_EMIT = ThreadLocal.withInitial(() -> false);

    /** Forwards; its first consume waits until the test has queued every input. */
    static final class GatedForward extends Stage<Integer, Integer> {
        final CountDownLatch gate;

        GatedForward(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        protected void consume(Integer x) throws Exception {
            if (gate.getCount() != 0 && !gate.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
            IN_EMIT.set(true);
            try {
                emit(x);
            } finally {
                IN_EMIT.set(false);
            }
        }
    }

    /** Emits x * 3, x * 3 + 1, x * 3 + 2. */
    static final class Triple extends Stage<Integer, Integer> {
        @Override
        protected void consume(Integer x) {
            for (int k = 0; k < 3; k++) {
                emit(x * 3 + k);
            }
        }
    }

    /** Checks that items arrive as 0, 1, 2, ...; counts those consumed inside a producer's emit. */
    static final class InOrder extends Stage<Integer, Void> {
        final AtomicLong next = new AtomicLong();
        final AtomicLong fused = new AtomicLong();
        volatile long atStop = -1;
        volatile String error;

        @Override
        protected void consume(Integer x) {
            if (IN_EMIT.get()) {
                fused.incrementAndGet();
            }
            long expected = next.getAndIncrement();
            if (x != expected && error == null) {
                error = "expected " + expected + ", got " + x;
            }
        }

        @Override
        protected void onStop() {
            atStop = next.get();
        }
    }

    private static RunningPipeline<Integer> queueAllThenOpen(Node<Integer, Void> node, CountDownLatch gate, int n) {
        RunningPipeline<Integer> run = node.start(system);
        for (int i = 0; i < n; i++) {
            assertTrue(run.put(i));
        }
        run.complete();
        gate.countDown();
        return run;
    }

    @Test
    void aFusedStageKeepsOrderCountsAndCompletion() throws Exception {
        int n = 100_000;
        CountDownLatch gate = new CountDownLatch(1);
        InOrder sink = new InOrder();
        RunningPipeline<Integer> run = queueAllThenOpen(
                Pipeline.of(new GatedForward(gate).withCapacity(1 << 17).named("fwd"), sink.named("sink")), gate, n);
        run.completion().get(60, TimeUnit.SECONDS);
        assertEquals(null, sink.error);
        assertEquals(n, sink.next.get());
        assertEquals(n, sink.atStop, "onStop sees every item, fused or queued");
        assertEquals((long) n, run.consumedCounts().get("fwd"));
        assertEquals((long) n, run.consumedCounts().get("sink"), "fused items are counted as consumed");
        // the forwarder's turns find a full queue and hold the sink: most items skip its queue
        assertTrue(sink.fused.get() > 0, "no item was consumed fused");
    }

    @Test
    void aFusedStageThatEmitsMoreThanItTakesKeepsOrder() throws Exception {
        int n = 50_000;
        CountDownLatch gate = new CountDownLatch(1);
        InOrder sink = new InOrder();
        RunningPipeline<Integer> run = queueAllThenOpen(Pipeline.of(new GatedForward(gate).withCapacity(1 << 16),
                new Triple().named("triple"), sink.named("sink")), gate, n);
        run.completion().get(60, TimeUnit.SECONDS);
        assertEquals(null, sink.error);
        assertEquals(3L * n, sink.next.get());
        assertEquals(3L * n, sink.atStop);
        assertEquals((long) n, run.consumedCounts().get("triple"));
        assertEquals(3L * n, run.consumedCounts().get("sink"));
    }

    @Test
    void aFailureInAFusedStageNamesThatStage() throws Exception {
        int n = 100_000;
        CountDownLatch gate = new CountDownLatch(1);
        Stage<Integer, Void> failing = new Stage<Integer, Void>() {
            @Override
            protected void consume(Integer x) {
                if (x == 50_000) {
                    throw new IllegalStateException("bad item " + x);
                }
            }
        }.named("failing");
        RunningPipeline<Integer> run = queueAllThenOpen(
                Pipeline.of(new GatedForward(gate).withCapacity(1 << 17).named("fwd"), failing), gate, n);
        ExecutionException e = assertThrows(ExecutionException.class, () -> run.completion().get(60, TimeUnit.SECONDS));
        StageFailedException f = assertInstanceOf(StageFailedException.class, e.getCause());
        assertEquals("failing", f.stage());
    }
}
