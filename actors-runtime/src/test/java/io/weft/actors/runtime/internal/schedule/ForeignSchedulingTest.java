package io.weft.actors.runtime.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
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
 * Activations made by threads outside the ForkJoin scheduler's pool (one pool submission each) run
 * exactly once: from several producers into many actors, after the pool went idle, and across a
 * shutdown.
 */
class ForeignSchedulingTest {

    @Test
    void everyMessageOfSeveralForeignProducersToManyActorsIsHandled() throws Exception {
        int producers = 3;
        int actors = 200;
        int rounds = 50;
        try (ActorSystem system = ActorSystem.builder().name("foreign-fan-out").parallelism(2).build()) {
            int total = producers * actors * rounds;
            CountDownLatch handled = new CountDownLatch(total);
            AtomicInteger handledCount = new AtomicInteger();
            List<ActorRef<Integer>> refs = new ArrayList<>();
            for (int i = 0; i < actors; i++) {
                refs.add(system.spawn(self -> self.become(Receive.<Integer>handler().match(Integer.class, m -> {
                    handledCount.incrementAndGet();
                    handled.countDown();
                }).build())));
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
            assertEquals(total, handledCount.get(), "a message handled twice");
            // with every worker parked no turn is in flight: a later duplicate would show here
            ForkJoinOptimizationsTest.awaitOtherWorkersParked(system);
            assertEquals(total, handledCount.get(), "a message handled twice");
        }
    }

    @Test
    void tellsToIdleActorsAfterThePoolWentIdleAreHandled() throws Exception {
        int actors = 20;
        try (ActorSystem system = ActorSystem.builder().name("foreign-after-idle").parallelism(2).build()) {
            AtomicInteger handledCount = new AtomicInteger();
            List<ActorRef<CountDownLatch>> refs = new ArrayList<>();
            for (int i = 0; i < actors; i++) {
                refs.add(system.spawn(self -> self.become(Receive.<CountDownLatch>handler().match(CountDownLatch.class, latch -> {
                    handledCount.incrementAndGet();
                    latch.countDown();
                }).build())));
            }
            for (int round = 0; round < 50; round++) {
                // every worker parked: each tell of this round activates an idle actor from outside
                // the pool and must wake a worker
                ForkJoinOptimizationsTest.awaitOtherWorkersParked(system);
                CountDownLatch latch = new CountDownLatch(actors);
                for (ActorRef<CountDownLatch> ref : refs) {
                    ref.tell(latch);
                }
                assertTrue(latch.await(60, TimeUnit.SECONDS), "round " + round + ": " + latch.getCount() + " tells not handled");
                assertEquals((round + 1) * actors, handledCount.get(), "round " + round + ": a tell handled twice");
            }
            ForkJoinOptimizationsTest.awaitOtherWorkersParked(system);
            assertEquals(50 * actors, handledCount.get(), "a tell handled twice");
        }
    }

    @Test
    void framesSubmittedBeforeShutdownStillRunAndLaterOnesAreRefused() throws Exception {
        // one worker, held by a turn: the frames activated from outside the pool wait in its
        // submission queue while the scheduler shuts down
        ForkJoinScheduler scheduler = new ForkJoinScheduler("foreign-shutdown", 1, 16, new MessageCounters(),
                SchedulerTuning.defaults().withBlockingThreshold(Duration.ZERO));
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        try {
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
            assertTrue(ran.await(60, TimeUnit.SECONDS), ran.getCount() + " frames submitted before the shutdown never ran");
            assertTrue(closer.join(Duration.ofSeconds(60)), "the shutdown did not end");
            for (TestFrame f : frames) {
                assertEquals(1, f.runs.get(), "a frame ran other than once");
            }
            assertEquals(0, late.runs.get());
        } finally {
            release.countDown();
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
