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

    /**
     * A first stage whose first consume waits until the test has queued every input, and whose
     * emits are marked (IN_EMIT).
     */
    abstract static class Gated extends Stage<Integer, Integer> {
        final CountDownLatch gate;

        Gated(CountDownLatch gate) {
            this.gate = gate;
        }

        @Override
        protected final void consume(Integer x) throws Exception {
            if (gate.getCount() != 0 && !gate.await(60, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the test never opened the gate");
            }
            IN_EMIT.set(true);
            try {
                send(x);
            } finally {
                IN_EMIT.set(false);
            }
        }

        /** What consume emits for {@code x}. */
        abstract void send(Integer x);
    }

    /** Forwards. */
    static final class GatedForward extends Gated {
        GatedForward(CountDownLatch gate) {
            super(gate);
        }

        @Override
        void send(Integer x) {
            emit(x);
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

    /** Forwards, and emits -2 and -3 after the item its sink names in {@code burstAfter} (in the same consume). */
    static final class GatedEcho extends Gated {
        final AtomicLong burstAfter = new AtomicLong(-1);

        GatedEcho(CountDownLatch gate) {
            super(gate);
        }

        @Override
        void send(Integer x) {
            emit(x);
            if (x == burstAfter.get()) {
                emit(-2);
                emit(-3);
            }
        }
    }

    /** Forwards, and emits two more items after {@code burstAt} in the same consume, and -1 from onStop. */
    static final class GatedBurst extends Gated {
        final int burstAt;
        /** Counted down once the burst's emits returned (whatever they consumed fused happened before). */
        final CountDownLatch burstDone = new CountDownLatch(1);

        GatedBurst(CountDownLatch gate, int burstAt) {
            super(gate);
            this.burstAt = burstAt;
        }

        @Override
        void send(Integer x) {
            emit(x);
            if (x == burstAt) {
                emit(-2);
                emit(-3);
                burstDone.countDown();
            }
        }

        @Override
        protected void onStop() {
            emit(-1); // after the last consume
        }
    }

    /** Forwards every third item with emitIfBelow (which queues) and the others with emit. */
    static final class GatedMixed extends Gated {
        GatedMixed(CountDownLatch gate) {
            super(gate);
        }

        @Override
        void send(Integer x) {
            if (x % 3 == 0) {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!emitIfBelow(x, 1 << 20)) { // refused only when the sink's queue is full
                    if (System.nanoTime() - deadline > 0) {
                        throw new IllegalStateException("emitIfBelow never accepted " + x);
                    }
                    Thread.onSpinWait();
                }
            } else {
                emit(x);
            }
        }
    }

    /** Checks that items arrive as 0, 1, 2, ...; counts those consumed inside a producer's emit. */
    static class InOrder extends Stage<Integer, Void> {
        final AtomicLong next = new AtomicLong();
        final AtomicLong fused = new AtomicLong();
        volatile long atStop = -1;
        volatile String error;
        final CountDownLatch started = new CountDownLatch(1);

        @Override
        protected void onStart() {
            started.countDown();
        }

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

    private static RunningPipeline<Integer> queueAllThenOpen(Node<Integer, Void> node, CountDownLatch gate, int n)
            throws InterruptedException {
        return queueAllThenOpen(node, gate, n, new CountDownLatch(0));
    }

    /** As above, and the gate opens only after {@code started} (a sink's onStart: it can be held at once). */
    private static RunningPipeline<Integer> queueAllThenOpen(Node<Integer, Void> node, CountDownLatch gate, int n,
            CountDownLatch started) throws InterruptedException {
        RunningPipeline<Integer> run = node.start(system);
        assertTrue(started.await(60, TimeUnit.SECONDS), "the sink never started");
        for (int i = 0; i < n; i++) {
            assertTrue(run.put(i));
        }
        run.complete();
        gate.countDown();
        return run;
    }

    /** A finished run of a gated first stage into an InOrder sink. */
    record Done(RunningPipeline<Integer> run, InOrder sink) {
    }

    /**
     * Runs of a test that asserts that the fused path was taken: whether a forwarder's turn holds
     * its sink (and so fuses) depends on how the pool's threads are scheduled, and on loaded cores
     * one run may never hold it. Such a test repeats its run, each one checked in full, until one
     * fused an item; a correct build does so in the first run almost always.
     */
    private static final int ROUNDS = 5;

    /** Runs {@code first} (named "fwd") into an InOrder sink (named "sink") over 0 .. n - 1 queued behind the gate. */
    private static Done runIntoInOrder(java.util.function.Function<CountDownLatch, Gated> first, int n) throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        InOrder sink = new InOrder();
        RunningPipeline<Integer> run = queueAllThenOpen(
                Pipeline.of(first.apply(gate).withCapacity(1 << 17).named("fwd"), sink.named("sink")), gate, n,
                sink.started);
        run.completion().get(60, TimeUnit.SECONDS);
        return new Done(run, sink);
    }

    @Test
    void aFusedStageKeepsOrderCountsAndCompletion() throws Exception {
        int n = 100_000;
        int runs = 0;
        InOrder sink;
        do { // until a run fused an item (ROUNDS' comment)
            Done d = runIntoInOrder(GatedForward::new, n);
            sink = d.sink();
            RunningPipeline<Integer> run = d.run();
            assertEquals(null, sink.error);
            assertEquals(n, sink.next.get());
            assertEquals(n, sink.atStop, "onStop sees every item, fused or queued");
            assertEquals((long) n, run.consumedCounts().get("fwd"));
            assertEquals((long) n, run.consumedCounts().get("sink"), "fused items are counted as consumed");
        } while (sink.fused.get() == 0 && ++runs < ROUNDS);
        // the forwarder's turns find a full queue and hold the sink: most items skip its queue
        assertTrue(sink.fused.get() > 0, "no item was consumed fused in " + ROUNDS + " runs");
    }

    @Test
    void conditionalEmitsBetweenFusedOnesKeepTheOrder() throws Exception {
        int n = 100_000;
        int runs = 0;
        InOrder sink;
        do { // until a run fused an item (ROUNDS' comment)
            sink = runIntoInOrder(GatedMixed::new, n).sink();
            assertEquals(null, sink.error, "an emit was fused past an item that emitIfBelow queued");
            assertEquals(n, sink.next.get());
        } while (sink.fused.get() == 0 && ++runs < ROUNDS);
        assertTrue(sink.fused.get() > 0, "no item was consumed fused in " + ROUNDS + " runs");
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
    void aFusedRunEndsWithTheEmittersOnStop() throws Exception {
        long fused = 0;
        for (int run = 0; run < ROUNDS && fused == 0; run++) { // until a run fused an item (ROUNDS' comment)
            fused = aFusedRunEndsWithTheEmittersOnStopRun();
        }
        assertTrue(fused > 0, "no item was consumed fused in " + ROUNDS + " runs");
    }

    /** One run of {@link #aFusedRunEndsWithTheEmittersOnStop}. @return the items consumed fused */
    private long aFusedRunEndsWithTheEmittersOnStopRun() throws Exception {
        int n = 100_000;
        CountDownLatch gate = new CountDownLatch(1);
        long[] seen = new long[3]; // items, the last item, items consumed inside the emitter's emit
        CountDownLatch started = new CountDownLatch(1);
        Stage<Integer, Void> sink = new Stage<Integer, Void>() {
            @Override
            protected void onStart() {
                started.countDown();
            }

            @Override
            protected void consume(Integer x) {
                seen[0]++;
                seen[1] = x;
                if (IN_EMIT.get()) {
                    seen[2]++;
                }
            }
        }.named("sink");
        RunningPipeline<Integer> run = queueAllThenOpen(
                Pipeline.of(new GatedBurst(gate, -5).withCapacity(1 << 17).named("fwd"), sink), gate, n, started);
        run.completion().get(60, TimeUnit.SECONDS);
        assertEquals(n + 1L, seen[0], "every item, and the one emitted by onStop");
        assertEquals(-1, seen[1], "onStop's item comes last");
        assertEquals(n + 1L, run.consumedCounts().get("sink"));
        return seen[2];
    }

    @Test
    void aFailureInAFusedRunStopsItBeforeTheNextEmitOfTheSameConsume() throws Exception {
        long fused = 0;
        for (int run = 0; run < ROUNDS && fused == 0; run++) { // until a run fused an item (ROUNDS' comment)
            fused = aFailureInAFusedRunStopsItBeforeTheNextEmitOfTheSameConsumeRun();
        }
        assertTrue(fused > 0, "no item was consumed fused in " + ROUNDS + " runs");
    }

    /** One run of {@link #aFailureInAFusedRunStopsItBeforeTheNextEmitOfTheSameConsume}. @return the items consumed fused */
    private long aFailureInAFusedRunStopsItBeforeTheNextEmitOfTheSameConsumeRun() throws Exception {
        int n = 100_000;
        int bad = 50_000; // the first of a consume's three emits
        CountDownLatch gate = new CountDownLatch(1);
        long[] seen = new long[4]; // items consumed after the failure, fused items, the failure's item, it fused
        CountDownLatch started = new CountDownLatch(1);
        Stage<Integer, Void> failing = new Stage<Integer, Void>() {
            boolean failed;

            @Override
            protected void onStart() {
                started.countDown();
            }

            @Override
            protected void consume(Integer x) {
                if (failed) {
                    seen[0]++;
                }
                if (IN_EMIT.get()) {
                    seen[1]++;
                }
                if (x == bad) {
                    failed = true;
                    seen[2] = x;
                    seen[3] = IN_EMIT.get() ? 1 : 0;
                    throw new IllegalStateException("bad item " + x);
                }
            }
        }.named("failing");
        GatedBurst fwd = new GatedBurst(gate, bad);
        RunningPipeline<Integer> run = queueAllThenOpen(
                Pipeline.of(fwd.withCapacity(1 << 17).named("fwd"), failing), gate, n, started);
        ExecutionException e = assertThrows(ExecutionException.class, () -> run.completion().get(60, TimeUnit.SECONDS));
        // the stop completes the run at once; the burst's emits after the failure come later
        assertTrue(fwd.burstDone.await(60, TimeUnit.SECONDS), "the burst's emits never returned");
        StageFailedException f = assertInstanceOf(StageFailedException.class, e.getCause());
        assertEquals("failing", f.stage());
        assertEquals(bad, seen[2]);
        // fused, so the burst's next emits (-2, -3) reach consumeInRun, whose stop check must queue them
        assertEquals(1, seen[3], "the bad item was queued, not consumed inside a fused run");
        assertEquals(0, seen[0], "the stage that failed consumed nothing after its failure");
        return seen[1];
    }

    @Test
    void aCancelFromAnotherThreadStopsAFusedRun() throws Exception {
        int n = 100_000;
        long[] mid = {-1}; // the item the cancel lands in, consumed fused
        CountDownLatch gate = new CountDownLatch(1);
        GatedEcho fwd = new GatedEcho(gate);
        CountDownLatch reached = new CountDownLatch(1);
        CountDownLatch cancelled = new CountDownLatch(1);
        AtomicLong late = new AtomicLong(); // consumes after the cancel was seen
        InOrder sink = new InOrder() {
            volatile boolean stopSeen;

            @Override
            protected void consume(Integer x) {
                if (stopSeen) {
                    late.incrementAndGet();
                }
                super.consume(x);
                if (mid[0] < 0 && x >= 3_000 && IN_EMIT.get()) {
                    mid[0] = x; // consumed inside the forwarder's emit: its burst comes in the same run
                    fwd.burstAfter.set(x);
                    reached.countDown();
                    try {
                        stopSeen = cancelled.await(60, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        java.util.Set<Object> deadIn = java.util.concurrent.ConcurrentHashMap.newKeySet(); // the forwarder's inputs
        java.util.Set<Object> deadOut = java.util.concurrent.ConcurrentHashMap.newKeySet(); // the sink's
        io.weft.actors.EventStream.Subscription sub = system.deadLetters().subscribe(d -> {
            String to = d.recipient().name();
            if (to.equals("cancel-fwd")) {
                deadIn.add(d.message());
            } else if (to.equals("cancel-sink")) {
                deadOut.add(d.message());
            }
        });
        try {
            RunningPipeline<Integer> run = queueAllThenOpen(Pipeline.of(
                    fwd.withCapacity(1 << 17).named("cancel-fwd"), sink.named("cancel-sink")),
                    gate, n, sink.started);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!reached.await(10, TimeUnit.MILLISECONDS)) {
                assertTrue(!run.completion().isDone() && System.nanoTime() - deadline < 0,
                        "no item was consumed fused");
            }
            run.cancel(); // from the test thread, while the sink's consume of item mid runs in the fused run
            cancelled.countDown(); // the same consume of the forwarder then emits -2 and -3
            long m = mid[0];
            assertThrows(java.util.concurrent.CancellationException.class,
                    () -> run.completion().get(60, TimeUnit.SECONDS));
            deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (sink.next.get() + deadOut.size() + deadIn.size() < n + 2L && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait(); // the frames drain their queues to dead letters after completion
            }
            assertEquals(null, sink.error);
            assertEquals(0, late.get(), "the sink consumed after the cancel was seen");
            assertEquals(m + 1, sink.next.get(), "consumes stop at the item that saw the cancel");
            assertEquals(java.util.Set.of(-2, -3), deadOut, "the burst after the cancel goes to dead letters");
            assertEquals(n + 2L, sink.next.get() + deadOut.size() + deadIn.size(), "consumed plus dead letters");
            for (Object d : deadIn) {
                assertTrue((Integer) d > m, "a consumed item also went to dead letters: " + d);
            }
        } finally {
            sub.close();
        }
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
