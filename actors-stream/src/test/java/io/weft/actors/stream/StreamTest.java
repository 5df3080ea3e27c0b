package io.weft.actors.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.EventStream;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class StreamTest {

    static ActorSystem system;

    @BeforeAll
    static void up() {
        system = ActorSystem.builder().name("stream-test").parallelism(2).build();
    }

    @AfterAll
    static void down() {
        system.close();
    }

    /** A stateless function stage. */
    static final class Map1<I, O> extends Stage<I, O> {
        private final Function<I, O> f;

        Map1(Function<I, O> f) {
            this.f = f;
        }

        @Override
        protected void consume(I item) {
            emit(f.apply(item));
        }
    }

    /** A sink that records (replica id, item). */
    static final class Collect<T> extends Stage<T, Void> {
        final ConcurrentLinkedQueue<T> out;
        boolean stopped;

        Collect(ConcurrentLinkedQueue<T> out) {
            this.out = out;
        }

        @Override
        protected void consume(T item) {
            out.add(item);
        }

        @Override
        protected void onStop() {
            stopped = true;
        }
    }

    record Keyed(int key, int seq) {
    }

    @Test
    void byKeyFarmKeepsOrderPerKeyAndEndOfStreamReachesEveryReplica() throws Exception {
        int keys = 16;
        int perKey = 2_000;
        Map<Integer, List<Integer>> seen = new ConcurrentHashMap<>();
        AtomicInteger stops = new AtomicInteger();
        AtomicInteger replicaOfKeyViolations = new AtomicInteger();
        Map<Integer, Object> keyOwner = new ConcurrentHashMap<>();
        Node<Keyed, Keyed> sink = new Stage<Keyed, Keyed>() {
            @Override
            protected void consume(Keyed item) {
                seen.computeIfAbsent(item.key(), k -> new ArrayList<>()).add(item.seq());
            }
        };
        Pipeline<Keyed, Keyed> p = Pipeline.of(
                Farm.of(3, () -> new Map1<Keyed, Keyed>(x -> x), Policy.roundRobin()),
                Farm.of(4, () -> new Stage<Keyed, Keyed>() {
                    @Override
                    protected void consume(Keyed item) {
                        if (keyOwner.putIfAbsent(item.key(), this) != null && keyOwner.get(item.key()) != this) {
                            replicaOfKeyViolations.incrementAndGet();
                        }
                        emit(item);
                    }

                    @Override
                    protected void onStop() {
                        stops.incrementAndGet();
                    }
                }, Policy.byKey(Keyed::key)),
                sink);
        RunningPipeline<Keyed> run = p.start(system);
        // farm -> by-key farm with no router: every key stays on one replica of the second farm
        for (int s = 0; s < 500; s++) {
            for (int k = 0; k < keys; k++) {
                assertTrue(run.put(new Keyed(k, s)));
            }
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(keys, keyOwner.size());
        assertEquals(500, seen.get(0).size());

        // the round-robin farm above may reorder a key's items; a by-key farm fed by one thread
        // keeps them in order
        RunningPipeline<Keyed> ordered = Pipeline.of(
                Farm.of(4, () -> new Map1<Keyed, Keyed>(x -> x), Policy.byKey(Keyed::key)),
                sink2(seen)).start(system);
        seen.clear();
        for (int s = 0; s < perKey; s++) {
            for (int k = 0; k < keys; k++) {
                assertTrue(ordered.put(new Keyed(k, s)));
            }
        }
        ordered.complete();
        ordered.completion().get(30, TimeUnit.SECONDS);
        assertEquals(keys, seen.size());
        for (List<Integer> l : seen.values()) {
            assertEquals(perKey, l.size());
            for (int i = 0; i < perKey; i++) {
                assertEquals(i, l.get(i));
            }
        }
        assertEquals(4, stops.get(), "onStop ran on every replica of the by-key farm");
        assertEquals(0, replicaOfKeyViolations.get());
    }

    private static Stage<Keyed, Void> sink2(Map<Integer, List<Integer>> seen) {
        return new Stage<>() {
            @Override
            protected void consume(Keyed item) {
                seen.computeIfAbsent(item.key(), k -> new ArrayList<>()).add(item.seq());
            }
        };
    }

    @Test
    void byKeySendsEqualKeysToOneReplica() throws Exception {
        Map<Integer, java.util.Set<String>> replicasPerKey = new ConcurrentHashMap<>();
        RunningPipeline<Integer> run = Farm.of(5, () -> new Stage<Integer, Void>() {
            @Override
            protected void consume(Integer item) {
                replicasPerKey.computeIfAbsent(item % 7, k -> ConcurrentHashMap.newKeySet()).add(name());
            }
        }.named("w"), Policy.<Integer>byKey(i -> i % 7)).start(system);
        for (int i = 0; i < 7_000; i++) {
            run.put(i);
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(7, replicasPerKey.size());
        replicasPerKey.values().forEach(s -> assertEquals(1, s.size()));
    }

    @Test
    void broadcastDeliversEveryItemToEveryReplica() throws Exception {
        List<ConcurrentLinkedQueue<Integer>> outs = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            outs.add(new ConcurrentLinkedQueue<>());
        }
        AtomicInteger next = new AtomicInteger();
        RunningPipeline<Integer> run = Farm.of(3, () -> new Collect<Integer>(outs.get(next.getAndIncrement())),
                Policy.<Integer>broadcast()).start(system);
        for (int i = 0; i < 1_000; i++) {
            run.put(i);
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        for (ConcurrentLinkedQueue<Integer> q : outs) {
            assertEquals(1_000, q.size());
            assertEquals(499_500L, q.stream().mapToLong(Integer::longValue).sum());
        }
    }

    @Test
    void customPolicyAndRandomAndNestedPipelineWorkers() throws Exception {
        ConcurrentLinkedQueue<Integer> out = new ConcurrentLinkedQueue<>();
        Policy<Integer> evenOdd = (item, n) -> item % 2;
        RunningPipeline<Integer> run = Pipeline.of(
                Farm.of(2, () -> Pipeline.of(new Map1<Integer, Integer>(x -> x + 1), new Map1<Integer, Integer>(x -> x * 2)), evenOdd),
                Farm.of(3, () -> new Map1<Integer, Integer>(x -> x), Policy.random()),
                new Collect<>(out)).start(system);
        assertEquals(2 * 2 + 3 + 1, run.stageCount());
        for (int i = 0; i < 1_000; i++) {
            run.put(i);
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(1_000, out.size());
        assertEquals(2L * (499_500 + 1_000), out.stream().mapToLong(Integer::longValue).sum());
    }

    @Test
    void farmsNestInFarmsAndEndOfStreamReachesEveryInnerReplica() throws Exception {
        ConcurrentLinkedQueue<Integer> out = new ConcurrentLinkedQueue<>();
        AtomicInteger stops = new AtomicInteger();
        RunningPipeline<Integer> run = Pipeline.of(
                Farm.of(2, () -> Farm.of(3, () -> new Stage<Integer, Integer>() {
                    @Override
                    protected void consume(Integer item) {
                        emit(item);
                    }

                    @Override
                    protected void onStop() {
                        stops.incrementAndGet();
                        emit(-1); // onStop may still emit
                    }
                }, Policy.<Integer>byKey(x -> x)), Policy.roundRobin()),
                new Collect<Integer>(out)).start(system);
        assertEquals(2 * 3 + 1, run.stageCount());
        for (int i = 0; i < 600; i++) {
            run.put(i);
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(6, stops.get());
        assertEquals(600 + 6, out.size());
        assertEquals(179_700L - 6, out.stream().mapToLong(Integer::longValue).sum());
    }

    @Test
    void consecutiveFarmsHaveNoRouterBetweenThem() throws Exception {
        int n = 10_000;
        ConcurrentLinkedQueue<Integer> out = new ConcurrentLinkedQueue<>();
        RunningPipeline<Integer> run = Pipeline.of(
                Farm.of(3, () -> new Map1<Integer, Integer>(x -> x).named("a"), Policy.roundRobin()),
                Farm.of(2, () -> new Map1<Integer, Integer>(x -> x).named("b"), Policy.<Integer>byKey(x -> x)),
                new Collect<Integer>(out).named("sink")).start(system);
        // 3 + 2 + 1 stages: no router or collector stage exists for either farm
        assertEquals(6, run.stageCount());
        for (int i = 0; i < n; i++) {
            run.put(i);
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(n, out.size());
        // every item made exactly 3 hops (a -> b -> sink): a router would add a hop per item
        long hops = run.consumedCounts().values().stream().mapToLong(Long::longValue).sum();
        assertEquals(3L * n, hops);
        long intoB = run.consumedCounts().entrySet().stream().filter(e -> e.getKey().startsWith("b"))
                .mapToLong(Map.Entry::getValue).sum();
        assertEquals(n, intoB);
    }

    @Test
    void errorsPropagateNamingTheFailingStage() {
        RunningPipeline<Integer> run = Pipeline.of(
                new Map1<Integer, Integer>(x -> x).named("ok"),
                new Map1<Integer, Integer>(x -> {
                    if (x == 42) {
                        throw new IllegalArgumentException("boom at 42");
                    }
                    return x;
                }).named("parser"),
                new Collect<Integer>(new ConcurrentLinkedQueue<>()).named("sink")).start(system);
        for (int i = 0; i < 100 && run.put(i); i++) {
            // put returns false once the network stopped
        }
        ExecutionException e = assertThrows(ExecutionException.class, () -> run.completion().get(30, TimeUnit.SECONDS));
        StageFailedException f = assertInstanceOf(StageFailedException.class, e.getCause());
        assertEquals("parser", f.stage());
        assertTrue(f.getMessage().contains("parser") && f.getMessage().contains("boom at 42"), f.getMessage());
        assertFalse(run.put(1000), "a failed network refuses input");
    }

    @Test
    void lastStageWithoutDownstreamCannotEmitAndSaysWhy() {
        RunningPipeline<Integer> run = new Map1<Integer, Integer>(x -> x).named("lonely").start(system);
        run.put(1);
        ExecutionException e = assertThrows(ExecutionException.class, () -> run.completion().get(30, TimeUnit.SECONDS));
        assertTrue(e.getCause().getMessage().contains("lonely"), e.getCause().getMessage());
        assertInstanceOf(IllegalStateException.class, e.getCause().getCause());
    }

    @Test
    void emitIfBelowNeverExceedsTheBoundAndKeepsMemoryBounded() throws Exception {
        int limit = 32;
        int total = 20_000;
        Semaphore permits = new Semaphore(0);
        AtomicInteger maxSeen = new AtomicInteger();
        AtomicLong got = new AtomicLong();
        Stage<Integer, Void> slow = new Stage<>() {
            @Override
            protected void consume(Integer item) throws InterruptedException {
                permits.acquire(); // the sink only goes as fast as the test lets it
                got.incrementAndGet();
            }
        };
        Stage<Integer, Integer> source = new Stage<>() {
            @Override
            protected void consume(Integer item) {
                while (!emitIfBelow(item, limit)) {
                    permits.release(8); // refused: let the sink catch up, then retry
                    Thread.onSpinWait();
                }
                maxSeen.accumulateAndGet(downstreamQueueLength(), Math::max);
            }
        };
        RunningPipeline<Integer> run = Pipeline.of(source.named("source"), slow.onThread().named("slow")).start(system);
        int refusedFeeds = 0;
        for (int i = 0; i < total; i++) {
            while (!run.offerIfBelow(i, limit)) {
                refusedFeeds++;
                permits.release(8);
                Thread.onSpinWait();
            }
            for (int len : run.queueLengths().values()) {
                assertTrue(len <= limit, "queued " + len + " > limit " + limit);
            }
        }
        run.complete();
        while (!run.completion().isDone()) {
            permits.release(total);
            run.completion().handle((v, t) -> null).get(30, TimeUnit.SECONDS);
        }
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(total, got.get());
        assertTrue(maxSeen.get() <= limit, "max downstream queue " + maxSeen.get());
        assertTrue(refusedFeeds > 0, "the fast source was throttled");
    }

    @Test
    void blockingEmitRespectsCapacity() throws Exception {
        Semaphore permits = new Semaphore(0);
        CountDownLatch done = new CountDownLatch(1);
        Stage<Integer, Void> slow = new Stage<>() {
            @Override
            protected void consume(Integer item) throws InterruptedException {
                permits.acquire();
                if (item == 999) {
                    done.countDown();
                }
            }
        };
        slow.withCapacity(16);
        RunningPipeline<Integer> run = slow.start(system);
        Thread feeder = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 1000; i++) {
                run.put(i);
            }
        });
        int max = 0;
        while (!done.await(0, TimeUnit.MILLISECONDS)) {
            int len = run.queueLengths().values().iterator().next();
            max = Math.max(max, len);
            assertTrue(len <= 16, "queue " + len);
            permits.release();
            Thread.onSpinWait();
        }
        feeder.join(30_000);
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
    }

    /**
     * A put into a full inlet queue gets in when the consumer frees a single slot and stalls: a
     * blocked put never needs more room than one slot (Waits).
     */
    @Test
    void blockedPutTakesASingleFreedSlotWhenTheConsumerStalls() throws Exception {
        Semaphore permits = new Semaphore(0);
        Stage<Integer, Void> slow = new Stage<>() {
            @Override
            protected void consume(Integer item) throws InterruptedException {
                permits.acquire();
            }
        };
        slow.withCapacity(8);
        RunningPipeline<Integer> run = slow.start(system);
        CountDownLatch allIn = new CountDownLatch(1);
        Thread source = Thread.ofPlatform().start(() -> {
            for (int i = 0; i < 10; i++) { // 1 consumed, 1 in consume, 8 queued: needs one freed slot
                run.put(i);
            }
            allIn.countDown();
        });
        try {
            permits.release(); // item 0 ends; item 1 blocks in consume; the queue frees one slot only
            assertTrue(allIn.await(30, TimeUnit.SECONDS), "the put got the single freed slot");
        } finally {
            permits.release(1_000);
            source.join(30_000);
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(10L, run.consumedCounts().values().iterator().next());
    }

    @Test
    void pipelineFedFromAnActorEmitsToAnActor() throws Exception {
        CountDownLatch got = new CountDownLatch(100);
        AtomicLong sum = new AtomicLong();
        ActorRef<Integer> collector = system.spawn("collector", self -> self.loop(() -> self.react(
                Receive.<Integer>handler().match(Integer.class, x -> {
                    sum.addAndGet(x);
                    got.countDown();
                }).build())));
        RunningPipeline<Integer> run = Pipeline.of(new Map1<Integer, Integer>(x -> x * 10),
                Farm.of(2, () -> new Map1<Integer, Integer>(x -> x + 1), Policy.roundRobin())).start(system, collector);
        ActorRef<Integer> inlet = run.ref();
        ActorRef<Integer> feeder = system.spawn("feeder", self -> self.loop(() -> self.react(
                Receive.<Integer>handler().match(Integer.class, inlet::tell).build())));
        for (int i = 0; i < 100; i++) {
            feeder.tell(i);
        }
        assertTrue(got.await(30, TimeUnit.SECONDS));
        assertEquals(10L * 4950 + 100, sum.get());
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
    }

    @Test
    void cancelStopsEverything() {
        Semaphore never = new Semaphore(0);
        RunningPipeline<Integer> run = Pipeline.of(new Map1<Integer, Integer>(x -> x), new Stage<Integer, Void>() {
            @Override
            protected void consume(Integer item) throws InterruptedException {
                never.tryAcquire(); // keeps going; nothing blocks
            }
        }).start(system);
        run.put(1);
        run.cancel();
        assertThrows(java.util.concurrent.CancellationException.class, () -> run.completion().join());
        assertFalse(run.offer(2));
    }

    @Test
    void itemsQueuedWhenTheNetworkStopsGoToDeadLetters() throws Exception {
        CountDownLatch inConsume = new CountDownLatch(1);
        Semaphore release = new Semaphore(0);
        Stage<Integer, Void> gated = new Stage<>() {
            @Override
            protected void consume(Integer item) throws InterruptedException {
                inConsume.countDown();
                release.acquire();
            }
        };
        RunningPipeline<Integer> run = gated.named("gated").start(system);
        Set<Object> dead = ConcurrentHashMap.newKeySet();
        CountDownLatch allDead = new CountDownLatch(10);
        EventStream.Subscription sub = system.deadLetters().subscribe(d -> {
            if (d.recipient().name().equals("gated") && dead.add(d.message())) {
                allDead.countDown();
            }
        });
        try {
            assertTrue(run.put(0));
            assertTrue(inConsume.await(30, TimeUnit.SECONDS));
            for (int i = 1; i <= 10; i++) {
                assertTrue(run.put(i)); // queued behind the blocked item 0
            }
            run.cancel();
            release.release();
            assertTrue(allDead.await(30, TimeUnit.SECONDS), "dead letters: " + dead);
            assertEquals(Set.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), dead);
        } finally {
            sub.close();
        }
    }

    /** @return a last stage that takes its items and does nothing with them */
    private static Stage<Integer, Void> discard() {
        return new Stage<>() {
            @Override
            protected void consume(Integer item) {
            }
        };
    }

    /**
     * An item that reaches a frame after it has terminated goes to dead letters (StageFrame, I4),
     * instead of staying in the terminated frame's queue, which no turn drains: here the items an
     * upstream stage emits inside a consume that a cancel overtakes, deferred by the upstream's
     * turn and flushed when the upstream itself ends.
     */
    @Test
    void anItemEmittedIntoAStageThatStoppedGoesToDeadLetters() throws Exception {
        CountDownLatch inConsume = new CountDownLatch(1);
        CountDownLatch emitNow = new CountDownLatch(1);
        Stage<Integer, Integer> upstream = new Stage<>() {
            @Override
            protected void consume(Integer item) throws InterruptedException {
                emit(item + 1000); // deferred by this turn: the downstream is not activated yet
                inConsume.countDown();
                assertTrue(emitNow.await(30, TimeUnit.SECONDS));
                emit(item + 2000); // after the downstream terminated at the stop
            }
        };
        Stage<Integer, Void> downstream = discard();
        RunningPipeline<Integer> run = Pipeline.of(upstream.named("up"), downstream.named("down")).start(system);
        Map<Object, Integer> dead = new ConcurrentHashMap<>();
        CountDownLatch first = new CountDownLatch(1);
        CountDownLatch second = new CountDownLatch(1);
        EventStream.Subscription sub = system.deadLetters().subscribe(d -> {
            if (d.recipient().name().equals("down")) {
                dead.merge(d.message(), 1, Integer::sum);
                (Integer.valueOf(1001).equals(d.message()) ? first : second).countDown();
            }
        });
        try {
            assertTrue(run.put(1));
            assertTrue(inConsume.await(30, TimeUnit.SECONDS));
            run.cancel();
            // the downstream may end at once, or only after the upstream's turn if the upstream
            // holds it (StageDownstream's hand-off): either way neither item may stay queued
            emitNow.countDown();
            assertTrue(first.await(30, TimeUnit.SECONDS), "the item emitted before the stop went to dead letters");
            assertTrue(second.await(30, TimeUnit.SECONDS), "the item emitted after the stop went to dead letters");
            assertThrows(java.util.concurrent.CancellationException.class, () -> run.completion().join());
            assertEquals(Map.of(1001, 1, 2001, 1), dead, "each exactly once");
        } finally {
            emitNow.countDown();
            sub.close();
        }
    }

    /** A put after complete() is refused and goes to dead letters, addressed to the inlet. */
    @Test
    void aPutAfterCompleteIsRefusedAndGoesToDeadLetters() throws Exception {
        Stage<Integer, Void> sink = discard();
        RunningPipeline<Integer> run = sink.named("ended").start(system);
        CountDownLatch dead = new CountDownLatch(1);
        EventStream.Subscription sub = system.deadLetters().subscribe(d -> {
            if (d.recipient().equals(run.ref()) && Integer.valueOf(42).equals(d.message())) {
                dead.countDown();
            }
        });
        try {
            assertTrue(run.put(1));
            run.complete();
            run.completion().get(30, TimeUnit.SECONDS); // the stage has terminated
            assertFalse(run.put(42), "no more items after complete()");
            assertTrue(dead.await(30, TimeUnit.SECONDS), "the late item went to dead letters");
            assertEquals(1L, run.consumedCounts().get("ended"));
        } finally {
            sub.close();
        }
    }

    /** After a cancel the inlet refuses items and sends them to dead letters, as a feeder does. */
    @Test
    void theInletSendsItemsToDeadLettersAfterACancel() throws Exception {
        Stage<Integer, Void> sink = discard();
        RunningPipeline<Integer> run = sink.named("cancelled").start(system);
        Map<Object, Integer> dead = new ConcurrentHashMap<>();
        CountDownLatch three = new CountDownLatch(3);
        EventStream.Subscription sub = system.deadLetters().subscribe(d -> {
            if (d.message() instanceof Integer i && i >= 100 && dead.merge(i, 1, Integer::sum) == 1) {
                three.countDown();
            }
        });
        try {
            run.cancel();
            assertThrows(java.util.concurrent.CancellationException.class, () -> run.completion().join());
            assertFalse(run.put(100));
            assertFalse(run.offer(101));
            assertFalse(run.offerIfBelow(102, 10));
            assertTrue(three.await(30, TimeUnit.SECONDS), "dead letters: " + dead);
            assertEquals(Map.of(100, 1, 101, 1, 102, 1), dead, "each exactly once");
        } finally {
            sub.close();
        }
    }
}
