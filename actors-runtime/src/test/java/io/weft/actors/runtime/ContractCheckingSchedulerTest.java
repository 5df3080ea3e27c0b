package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The scheduler SPI contract as {@link Scheduler}'s Javadoc states it, checked by
 * {@link ContractCheckingScheduler}: the checker catches each kind of violation, and the runtime
 * commits none under a load that reschedules frames from inside their own turns and moves actors
 * between schedulers.
 */
class ContractCheckingSchedulerTest {

    /** A frame that records its executes and blocks in them until released. */
    private static final class FakeFrame implements Frame {
        final CountDownLatch started = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        private SchedulerState state;

        @Override
        public ActorRef<?> ref() {
            return null;
        }

        @Override
        public void execute() {
            started.countDown();
            try {
                release.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
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

    @Test
    void theCheckerCatchesASecondScheduleBeforeTheFirstExecuteStarted() throws Exception {
        ContractCheckingScheduler checker = new ContractCheckingScheduler(1, 10);
        try {
            FakeFrame busy = new FakeFrame();
            checker.initSchedule(busy);
            checker.schedule(busy);
            assertTrue(busy.started.await(30, TimeUnit.SECONDS));
            FakeFrame waiting = new FakeFrame(); // the one pool thread is busy: its execute cannot start
            checker.initSchedule(waiting);
            checker.schedule(waiting);
            checker.schedule(waiting);
            assertEquals(1, checker.violations.get(), checker.reports::toString);
            busy.release.countDown();
            waiting.release.countDown();
        } finally {
            checker.shutdown();
        }
    }

    @Test
    void theCheckerCatchesATurnCallFromOutsideTheNewestExecute() throws Exception {
        ContractCheckingScheduler checker = new ContractCheckingScheduler(1, 10);
        try {
            FakeFrame frame = new FakeFrame();
            checker.initSchedule(frame);
            checker.schedule(frame);
            assertTrue(frame.started.await(30, TimeUnit.SECONDS));
            frame.schedulerState().onBatchEvent(null, 1); // a turn running outside its execute
            assertEquals(1, checker.violations.get(), checker.reports::toString);
            frame.release.countDown();
        } finally {
            checker.shutdown();
        }
    }

    @Test
    void theRuntimeKeepsTheContractUnderSelfSendsAndMoves() throws Exception {
        ContractCheckingScheduler checker = new ContractCheckingScheduler(2, 3);
        ContractCheckingScheduler other = new ContractCheckingScheduler(2, 5);
        int actors = 16;
        int rounds = 2_000;
        try (ActorSystem system = ActorSystem.builder().name("contract-check").parallelism(2).build()) {
            CountDownLatch done = new CountDownLatch(actors);
            List<ActorRef<Integer>> refs = new ArrayList<>();
            for (int i = 0; i < actors; i++) {
                boolean mover = i % 2 == 0;
                refs.add(system.spawn(Props.defaults().withScheduler(checker), self -> self.loop(() -> self.react(
                        Receive.<Integer>handler().match(Integer.class, n -> {
                            if (n < 0) {
                                return; // extra work, queued behind
                            }
                            if (n >= rounds) {
                                done.countDown();
                                return;
                            }
                            if (mover && n % 500 == 250) {
                                self.moveTo(n % 1000 == 250 ? other : checker);
                            }
                            self.self().tell(n + 1); // a turn that ends with messages left reschedules from inside
                            if (n % 7 == 0) {
                                self.self().tell(-1);
                            }
                        }).build()))));
            }
            for (ActorRef<Integer> r : refs) {
                r.tell(0);
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), "not every actor finished");
        } finally {
            checker.shutdown();
            other.shutdown();
        }
        assertEquals(0, checker.violations.get(), checker.reports::toString);
        assertEquals(0, other.violations.get(), other.reports::toString);
        assertTrue(checker.executes.get() > 0 && other.executes.get() > 0, "both checkers ran frames");
    }
}
