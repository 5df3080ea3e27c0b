package io.weft.actors.verify;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Lincheck model checking of the real actor cell's non-blocking operations: sends on the mailbox
 * and the activation CAS, racing with turns that end by deactivating. Lincheck explores the
 * interleavings systematically; after each scenario the validation runs whatever is still
 * scheduled and checks that every sent message was handled exactly once, in per-sender order, and
 * that the scheduler was never asked to schedule a frame twice.
 */
@EnabledIfSystemProperty(named = "weft.lincheck", matches = "true",
        disabledReason = "about 4 minutes on 2 cores; run with -Dweft.lincheck=true (see docs/reliability.md)")
public class ActivationLincheckTest {

    private static final ActorSystem SYSTEM = ActorSystem.builder().name("lincheck").parallelism(1).build();

    /** Records the frame; the test's operations run it. */
    static final class Manual implements Scheduler, SchedulerState {
        final AtomicReference<Frame> slot = new AtomicReference<>();
        volatile boolean doubleSchedule;

        @Override
        public void initSchedule(Frame frame) {
            frame.schedulerState(this);
        }

        @Override
        public void schedule(Frame frame) {
            if (!slot.compareAndSet(null, frame)) {
                doubleSchedule = true;
            }
        }

        boolean runOnce() {
            Frame f = slot.getAndSet(null);
            if (f == null) {
                return false;
            }
            f.execute();
            return true;
        }

        @Override
        public Queue<EventQueue> newPendingQueue() {
            return new ConcurrentLinkedQueue<>();
        }

        @Override
        public void onBatchStart() {
        }

        @Override
        public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
            return true;
        }
    }

    private final Manual scheduler = new Manual();
    private final AtomicInteger senders = new AtomicInteger();
    private final AtomicInteger sent = new AtomicInteger();
    private final Map<Integer, Integer> lastSeen = new HashMap<>(); // actor-only
    private int handled; // actor-only
    private boolean outOfOrder; // actor-only
    private final ActorRef<int[]> ref;

    /** Spawns one actor on the manual scheduler and runs its body. */
    public ActivationLincheckTest() {
        ref = SYSTEM.spawn(Props.defaults().withScheduler(scheduler), self -> self.loop(() -> self.react(
                Receive.<int[]>handler().match(int[].class, m -> {
                    Integer last = lastSeen.put(m[0], m[1]);
                    if (last != null && last >= m[1]) {
                        outOfOrder = true;
                    }
                    handled++;
                }).build())));
        scheduler.runOnce();
    }

    /** One sender sends two messages in order (per-sender FIFO must hold). */
    @Operation
    public void sendTwo() {
        int who = senders.incrementAndGet();
        sent.addAndGet(2);
        ref.tell(new int[] {who, 1});
        ref.tell(new int[] {who, 2});
    }

    /** One send. */
    @Operation
    public void sendOne() {
        int who = senders.incrementAndGet();
        sent.incrementAndGet();
        ref.tell(new int[] {who, 1});
    }

    /** A turn: runs the scheduled execute, if any; it ends by deactivating. */
    @Operation
    public void turn() {
        scheduler.runOnce();
    }

    /** After the scenario: nothing stranded, nothing duplicated, order kept, no double schedule. */
    @Validate
    public void noLostWakeUp() {
        while (scheduler.runOnce()) {
            // drain
        }
        if (handled != sent.get() || outOfOrder || scheduler.doubleSchedule) {
            throw new IllegalStateException("sent " + sent + ", handled " + handled + ", out of order " + outOfOrder
                    + ", double schedule " + scheduler.doubleSchedule);
        }
    }

    @Test
    void modelCheck() {
        new ModelCheckingOptions().iterations(Integer.getInteger("weft.lincheck.iterations", 3))
                .invocationsPerIteration(Integer.getInteger("weft.lincheck.invocations", 100)).threads(2).actorsPerThread(2)
                .check(ActivationLincheckTest.class);
    }

    @AfterAll
    static void close() {
        SYSTEM.close();
    }
}
