package io.weft.actors.runtime.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.SchedulerTuning;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * {@link ForeignActivations}: activations made by threads outside the ForkJoin scheduler's pool,
 * drained by one pool submission per batch, run exactly once, including across a shutdown.
 */
class ForeignActivationsTest {

    @Test
    void everyMessageOfSeveralForeignProducersToManyActorsIsHandled() throws Exception {
        int producers = 3;
        int actors = 200;
        int rounds = 50;
        try (ActorSystem system = ActorSystem.builder().name("foreign-fan-out").parallelism(2).build()) {
            CountDownLatch handled = new CountDownLatch(producers * actors * rounds);
            List<ActorRef<Integer>> refs = new ArrayList<>();
            for (int i = 0; i < actors; i++) {
                refs.add(system.spawn(self -> self.become(Receive.<Integer>handler()
                        .match(Integer.class, m -> handled.countDown()).build())));
            }
            List<Thread> threads = new ArrayList<>();
            for (int p = 0; p < producers; p++) {
                threads.add(Thread.ofPlatform().name("producer-" + p).start(() -> {
                    for (int r = 0; r < rounds; r++) {
                        for (ActorRef<Integer> ref : refs) {
                            ref.tell(r);
                        }
                    }
                }));
            }
            for (Thread t : threads) {
                assertTrue(t.join(Duration.ofSeconds(60)), t.getName() + " did not finish its tells");
            }
            assertTrue(handled.await(60, TimeUnit.SECONDS), handled.getCount() + " messages were not handled");
        }
    }

    @Test
    void aTellAfterTheDrainRanIsStillHandled() throws Exception {
        int actors = 20;
        try (ActorSystem system = ActorSystem.builder().name("foreign-after-drain").parallelism(2).build()) {
            AtomicInteger handledCount = new AtomicInteger();
            List<ActorRef<CountDownLatch>> refs = new ArrayList<>();
            for (int i = 0; i < actors; i++) {
                refs.add(system.spawn(self -> self.become(Receive.<CountDownLatch>handler().match(CountDownLatch.class, latch -> {
                    handledCount.incrementAndGet();
                    latch.countDown();
                }).build())));
            }
            for (int round = 0; round < 50; round++) {
                // every worker parked: the drain of the round before has run and the list is empty,
                // so this round's first tell submits a new drain
                ForkJoinOptimizationsTest.awaitOtherWorkersParked(system);
                CountDownLatch latch = new CountDownLatch(actors);
                for (ActorRef<CountDownLatch> ref : refs) {
                    ref.tell(latch);
                }
                assertTrue(latch.await(60, TimeUnit.SECONDS), "round " + round + ": " + latch.getCount() + " tells not handled");
            }
            assertEquals(50 * actors, handledCount.get());
        }
    }

    @Test
    void framesLinkedBehindADrainQueuedAtShutdownStillRun() throws Exception {
        // one worker, held by a turn: the drain submitted by the first foreign activation waits in
        // the pool's queue while the later ones link behind it; then the scheduler shuts down
        ForkJoinScheduler scheduler = new ForkJoinScheduler("foreign-shutdown", 1, 16, new MessageCounters(),
                SchedulerTuning.defaults().withBlockingThreshold(Duration.ZERO));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        scheduler.schedule(new TestFrame(() -> {
            holding.countDown();
            await(release);
        }));
        assertTrue(holding.await(60, TimeUnit.SECONDS), "the holding turn did not start");
        int pending = 10;
        CountDownLatch ran = new CountDownLatch(pending);
        List<TestFrame> frames = new ArrayList<>();
        for (int i = 0; i < pending; i++) {
            TestFrame f = new TestFrame(ran::countDown);
            frames.add(f);
            scheduler.schedule(f);
        }
        Thread closer = Thread.ofPlatform().name("closer").start(scheduler::shutdown);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!scheduler.pool.isShutdown()) {
            assertTrue(System.nanoTime() < deadline, "the pool did not start its shutdown");
            Thread.onSpinWait();
        }
        TestFrame late = new TestFrame(() -> { });
        // a frame activated after the shutdown is refused to its caller, which dead-letters it
        assertThrows(RejectedExecutionException.class, () -> scheduler.schedule(late));
        release.countDown();
        assertTrue(ran.await(60, TimeUnit.SECONDS), ran.getCount() + " frames linked before the shutdown never ran");
        assertTrue(closer.join(Duration.ofSeconds(60)), "the shutdown did not end");
        for (TestFrame f : frames) {
            assertEquals(1, f.runs.get(), "a frame ran other than once");
        }
        assertEquals(0, late.runs.get());
    }

    @Test
    void aRefusedDrainRunsTheLaterFramesHereAndRefusesTheFirstToItsCaller() throws Exception {
        // the race a push can win against the scheduler's shutdown flag: the push finds the list
        // empty, but the pool refuses its drain
        ForkJoinScheduler scheduler = new ForkJoinScheduler("foreign-refused", 1, 16, new MessageCounters(),
                SchedulerTuning.defaults().withBlockingThreshold(Duration.ZERO));
        try {
            scheduler.pool.shutdown();
            ForeignActivations list = new ForeignActivations();
            TestFrame own = new TestFrame(() -> { });
            TestFrame later1 = new TestFrame(() -> { });
            TestFrame later2 = new TestFrame(() -> { });
            assertTrue(list.offer(own), "the first offer wins the drain");
            assertFalse(list.offer(later1));
            assertFalse(list.offer(later2));
            assertThrows(RejectedExecutionException.class, () -> list.submitDrain(own, scheduler));
            assertEquals(0, own.runs.get(), "the refused frame is its caller's to dead-letter");
            assertEquals(1, later1.runs.get());
            assertEquals(1, later2.runs.get());
            assertNull(list.poll(), "frames left in the queue");
            assertTrue(list.offer(new TestFrame(() -> { })), "the drain was not given up");
        } finally {
            scheduler.shutdown();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A frame with no actor behind it that runs {@code body} and counts its runs. */
    static final class TestFrame extends PoolFrame {
        final Runnable body;
        final AtomicInteger runs = new AtomicInteger();
        private SchedulerState state;

        TestFrame(Runnable body) {
            this.body = body;
        }

        @Override
        public void execute() {
            runs.incrementAndGet();
            body.run();
        }

        @Override
        public Class<?> profileClass() {
            return null;
        }

        @Override
        public void executeFailed(Throwable failure) {
        }

        @Override
        protected boolean workPending() {
            return false;
        }

        @Override
        public ActorRef<?> ref() {
            return null;
        }

        @Override
        public Runnable task() {
            return this::execute;
        }

        @Override
        public SchedulerState schedulerState() {
            return state;
        }

        @Override
        public void schedulerState(SchedulerState s) {
            state = s;
        }

        @Override
        public Scheduler scheduler() {
            return null;
        }

        @Override
        public boolean isActive() {
            return true;
        }

        @Override
        public boolean hasPending() {
            return false;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }
    }
}
