package io.weft.actors.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@link Feeder}: order, end of stream, one thread only, back-pressure, stop. */
class FeederTest {

    static ActorSystem system;

    @BeforeAll
    static void up() {
        system = ActorSystem.builder().name("feeder-test").parallelism(2).build();
    }

    @AfterAll
    static void down() {
        system.close();
    }

    record Item(int source, int seq) {
    }

    /** Checks that each source's items arrive in order and counts them; onStop records the count. */
    static final class InOrder extends Stage<Item, Void> {
        final int[] next;
        long count;
        volatile long countAtStop = -1;
        volatile String error;

        InOrder(int sources) {
            next = new int[sources];
        }

        @Override
        protected void consume(Item item) {
            if (item.seq() != next[item.source()] && error == null) {
                error = "source " + item.source() + ": expected " + next[item.source()] + ", got " + item.seq();
            }
            next[item.source()] = item.seq() + 1;
            count++;
        }

        @Override
        protected void onStop() {
            countAtStop = count;
        }
    }

    static final class Forward<T> extends Stage<T, T> {
        @Override
        protected void consume(T item) {
            emit(item);
        }
    }

    private static Thread feed(RunningPipeline<Item> run, int source, int n, CompletableFuture<Void> failed) {
        Feeder<Item> f = run.feeder(); // taken before complete(), used and closed on its own thread
        return Thread.ofPlatform().name("feeder-" + source).start(() -> {
            try (f) {
                for (int i = 0; i < n; i++) {
                    if (!f.put(new Item(source, i))) {
                        throw new AssertionError("put refused at " + i);
                    }
                }
            } catch (Throwable e) {
                failed.completeExceptionally(e);
            }
        });
    }

    @Test
    void eachFeedersItemsArriveInOrderBesideTheInletAndTheStreamEndsAfterEveryClose() throws Exception {
        int n = 200_000;
        InOrder sink = new InOrder(4);
        RunningPipeline<Item> run = Pipeline.of(new Forward<Item>(), sink).start(system);
        CompletableFuture<Void> failed = new CompletableFuture<>();
        List<Thread> threads = new ArrayList<>();
        for (int s = 0; s < 3; s++) {
            threads.add(feed(run, s, n, failed));
        }
        for (int i = 0; i < n; i++) {
            assertTrue(run.put(new Item(3, i))); // the shared inlet, from this thread
        }
        run.complete(); // the feeders may still be sending: the stream waits for their close
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertFalse(failed.isCompletedExceptionally(), () -> failed.exceptionNow().toString());
        run.completion().get(60, TimeUnit.SECONDS);
        assertEquals(null, sink.error);
        assertEquals(4L * n, sink.countAtStop, "every item before onStop");
    }

    @Test
    void itemsPutAfterCompleteButBeforeCloseAreConsumed() throws Exception {
        InOrder sink = new InOrder(1);
        RunningPipeline<Item> run = sink.start(system);
        Feeder<Item> f = run.feeder();
        assertTrue(f.put(new Item(0, 0)));
        run.complete();
        for (int i = 1; i < 1000; i++) {
            assertTrue(f.put(new Item(0, i)));
        }
        f.close();
        f.close(); // idempotent
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(null, sink.error);
        assertEquals(1000L, sink.countAtStop);
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> f.put(new Item(0, 1000)));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
        IllegalStateException late = assertThrows(IllegalStateException.class, run::feeder);
        assertTrue(late.getMessage().contains("feeder() after complete()"), late.getMessage());
    }

    @Test
    void aFeederIntoAFarmReachesEveryReplicaAndEndsIt() throws Exception {
        ConcurrentLinkedQueue<Integer> out = new ConcurrentLinkedQueue<>();
        AtomicLong stopped = new AtomicLong();
        RunningPipeline<Integer> run = Farm.<Integer, Void>of(3, () -> new Stage<Integer, Void>() {
            @Override
            protected void consume(Integer item) {
                out.add(item);
            }

            @Override
            protected void onStop() {
                stopped.incrementAndGet();
            }
        }, Policy.roundRobin()).start(system);
        try (Feeder<Integer> f = run.feeder()) {
            for (int i = 0; i < 3000; i++) {
                assertTrue(f.put(i));
            }
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(3000, out.size());
        assertEquals(3, stopped.get());
    }

    @Test
    void aFeederFeedsAStageOnItsOwnThread() throws Exception {
        InOrder sink = new InOrder(1);
        sink.onThread();
        RunningPipeline<Item> run = sink.start(system);
        try (Feeder<Item> f = run.feeder()) {
            for (int i = 0; i < 50_000; i++) {
                assertTrue(f.put(new Item(0, i)));
            }
        }
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(null, sink.error);
        assertEquals(50_000L, sink.countAtStop);
    }

    @Test
    void aSecondThreadIsRefusedWithAClearError() throws Exception {
        RunningPipeline<Integer> run = new Stage<Integer, Void>() {
            @Override
            protected void consume(Integer item) {
            }
        }.start(system);
        Feeder<Integer> f = run.feeder();
        CountDownLatch owned = new CountDownLatch(1);
        CountDownLatch tried = new CountDownLatch(1);
        Thread owner = Thread.ofPlatform().name("the-owner").start(() -> {
            f.put(1);
            owned.countDown();
            try {
                tried.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            f.put(2); // still the owner's
            f.close();
        });
        assertTrue(owned.await(30, TimeUnit.SECONDS));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.put(3));
        assertTrue(e.getMessage().contains("the-owner") && e.getMessage().contains(Thread.currentThread().getName())
                && e.getMessage().contains("feeder()"), e.getMessage());
        assertThrows(IllegalStateException.class, f::close, "another thread's close is refused too");
        tried.countDown();
        owner.join(30_000);
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(2L, run.consumedCounts().values().iterator().next());
    }

    @Test
    void theLaneIsBoundedOfferRefusesAndPutWaits() throws Exception {
        Semaphore permits = new Semaphore(0);
        CountDownLatch inConsume = new CountDownLatch(1);
        AtomicLong seen = new AtomicLong();
        Stage<Integer, Void> gated = new Stage<>() {
            @Override
            protected void consume(Integer item) throws InterruptedException {
                inConsume.countDown();
                permits.acquire();
                seen.incrementAndGet();
            }
        };
        gated.withCapacity(16);
        RunningPipeline<Integer> run = gated.start(system);
        Feeder<Integer> f = run.feeder();
        assertTrue(f.put(0));
        assertTrue(inConsume.await(30, TimeUnit.SECONDS)); // item 0 is in consume, holding the stage
        int accepted = 0;
        for (int i = 1; i <= 1000 && f.offerIfBelow(i, 4); i++) {
            accepted++;
        }
        assertEquals(4, accepted, "offerIfBelow fills the lane up to its limit");
        for (int i = 5; i <= 1000 && f.offer(i); i++) {
            accepted++;
        }
        assertEquals(16, accepted, "offer fills the lane up to its capacity, then refuses");
        assertEquals(16, run.queueLengths().values().iterator().next());
        permits.release(1); // item 0 finishes, the stage takes item 1 out of the lane
        assertTrue(f.put(17)); // this thread (the owner) waits for that room
        permits.release(1000);
        f.close();
        run.complete();
        run.completion().get(30, TimeUnit.SECONDS);
        assertEquals(18L, seen.get());
    }

    @Test
    void afterACancelAWaitingPutReturnsFalseAndLaterPutsToo() throws Exception {
        Semaphore never = new Semaphore(0);
        CountDownLatch inConsume = new CountDownLatch(1);
        Stage<Integer, Void> stuck = new Stage<>() {
            @Override
            protected void consume(Integer item) throws InterruptedException {
                inConsume.countDown();
                never.tryAcquire(30, TimeUnit.SECONDS);
            }
        };
        stuck.withCapacity(4);
        RunningPipeline<Integer> run = stuck.start(system);
        CompletableFuture<Boolean> blocked = new CompletableFuture<>();
        CountDownLatch full = new CountDownLatch(1);
        Feeder<Integer> f = run.feeder();
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                f.put(0);
                for (int i = 1; i <= 4; i++) {
                    f.put(i); // fills the lane while item 0 is in consume
                }
                full.countDown();
                blocked.complete(f.put(99)); // waits: the lane is full
            } catch (Throwable e) {
                blocked.completeExceptionally(e);
            }
        });
        assertTrue(inConsume.await(30, TimeUnit.SECONDS));
        assertTrue(full.await(30, TimeUnit.SECONDS));
        run.cancel();
        assertFalse(blocked.get(30, TimeUnit.SECONDS), "the waiting put gives up after the cancel");
        t.join(30_000);
        never.release(100);
        assertThrows(CancellationException.class, () -> run.completion().join());
    }
}
