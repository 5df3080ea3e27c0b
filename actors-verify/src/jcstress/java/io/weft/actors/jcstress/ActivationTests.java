package io.weft.actors.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * jcstress tests of the real actor cell's activation protocol (Cell's design block, I1 and I2),
 * driven through the public API and the scheduler SPI.
 */
public final class ActivationTests {

    private ActivationTests() {
    }

    /** The stop message every test sends last, so that its actor unregisters. */
    static final Object STOP = new Object() {
        @Override
        public String toString() {
            return "STOP";
        }
    };

    /** An event-based actor on a manual scheduler that counts what it handles. */
    public static class Counting {
        final ManualScheduler scheduler = new ManualScheduler(false);
        final ActorRef<Object> ref;
        int handled; // owner-only; published to the arbiter by the runs it joins

        Counting() {
            ref = Shared.SYSTEM.spawn(Props.defaults().withScheduler(scheduler), this::body);
            scheduler.runAll(); // the body: react, then idle
        }

        void body(ActorContext<Object> self) {
            self.loop(() -> self.react(Receive.handler().matchAny(m -> {
                if (m == STOP) {
                    self.stop();
                } else {
                    handled++;
                }
            }).build()));
        }

        void finish() {
            scheduler.runAll();
            ref.tell(STOP);
            scheduler.runAll();
        }
    }

    /**
     * I2, no lost wake-up: a send racing with the owner's deactivation. A message stranded in the
     * mailbox of an idle actor with nothing scheduled would show as one handled message.
     */
    @JCStressTest
    @Description("A send racing with the end of a turn (deactivation) is never stranded")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "both messages handled")
    @Outcome(id = "1, .*", expect = FORBIDDEN, desc = "lost wake-up: a message is stranded")
    @Outcome(expect = FORBIDDEN, desc = "anything else, including a double schedule")
    @State
    public static class SendVersusDeactivation extends Counting {
        /** Sets up an activated actor with one message queued. */
        public SendVersusDeactivation() {
            ref.tell(1);
        }

        /** Runs the turn, which ends by deactivating. */
        @Actor
        public void owner() {
            scheduler.runOnce();
        }

        /** Sends while the owner may be deactivating. */
        @Actor
        public void sender() {
            ref.tell(2);
        }

        /** @param r handled messages after every scheduled turn ran, and double schedules */
        @Arbiter
        public void arbiter(II_Result r) {
            scheduler.runAll();
            r.r1 = handled;
            r.r2 = scheduler.doubleSchedules();
            finish();
        }
    }

    /**
     * I4, no stranded stop: a stop from another thread racing with the owner's deactivation. The
     * stopping thread sets STOPPING and tries to activate the frame; if the owner still holds it,
     * the owner's idle re-check must see STOPPING. A stop lost there leaves the actor idle in
     * STOPPING with nothing scheduled, never terminated.
     */
    @JCStressTest
    @Description("A stop from another thread racing with the end of a turn always ends the actor")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the message handled, the actor terminated")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "stopped before its turn took the message")
    @Outcome(id = ".*, 0, .*", expect = FORBIDDEN, desc = "stranded stop: idle in STOPPING, never terminated")
    @Outcome(expect = FORBIDDEN, desc = "anything else, including a double schedule")
    @State
    public static class ForeignStopVersusDeactivation extends Counting {
        /** Sets up an activated actor with one message queued. */
        public ForeignStopVersusDeactivation() {
            ref.tell(1);
        }

        /** Runs the turn, which ends by deactivating. */
        @Actor
        public void owner() {
            scheduler.runOnce();
        }

        /** Stops the actor from outside while the owner may be deactivating. */
        @Actor
        public void stopper() {
            Shared.SYSTEM.stop(ref);
        }

        /** @param r handled messages, whether terminated after every scheduled turn ran, and double schedules */
        @Arbiter
        public void arbiter(III_Result r) {
            scheduler.runAll();
            r.r1 = handled;
            r.r2 = ref.isTerminated() ? 1 : 0;
            r.r3 = scheduler.doubleSchedules();
            finish(); // a stranded actor is activated by this send and ends
        }
    }

    /**
     * I4, no stranded move: a move requested from another thread racing with the owner's
     * deactivation. The requesting thread stores the request and tries to activate the frame; if
     * the owner still holds it, the owner's idle re-check must see the request. A move lost there
     * leaves the actor idle on its old scheduler with the request unserved until some later
     * message, though {@code ActorSystem.move} promises that an idle actor is activated for it.
     */
    @JCStressTest
    @Description("A move from another thread racing with the end of a turn is always carried out")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "moved without another message; the message handled once")
    @Outcome(id = "0, .*, .*", expect = FORBIDDEN, desc = "stranded move: idle on the old scheduler, nothing scheduled")
    @Outcome(expect = FORBIDDEN, desc = "anything else, including a lost or doubled message or a double schedule")
    @State
    public static class ForeignMoveVersusDeactivation extends Counting {
        final ManualScheduler target = new ManualScheduler(false);

        /** Sets up an activated actor with one message queued. */
        public ForeignMoveVersusDeactivation() {
            ref.tell(1);
        }

        /** Runs the turn, which ends by deactivating. */
        @Actor
        public void owner() {
            scheduler.runOnce();
        }

        /** Requests the move from outside while the owner may be deactivating. */
        @Actor
        public void mover() {
            Shared.SYSTEM.move(ref, target);
        }

        /**
         * @param r whether the actor is scheduled on the target once every turn on the old
         *     scheduler ran, the messages handled after every turn on both ran, and double schedules
         */
        @Arbiter
        public void arbiter(III_Result r) {
            scheduler.runAll();
            r.r1 = target.hasScheduled() ? 1 : 0;
            target.runAll();
            r.r2 = handled;
            r.r3 = scheduler.doubleSchedules() + target.doubleSchedules();
            ref.tell(STOP); // a stranded actor is activated on the old scheduler and moves first
            scheduler.runAll();
            target.runAll();
        }
    }

    /** Two concurrent senders to an idle actor: one activation, both delivered exactly once. */
    @JCStressTest
    @Description("Two concurrent senders to an idle actor are both delivered exactly once")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "both delivered, one activation at a time")
    @Outcome(expect = FORBIDDEN, desc = "lost, duplicated, or scheduled twice")
    @State
    public static class TwoSenders extends Counting {
        /** Sets up an idle actor. */
        public TwoSenders() {
        }

        /** First sender. */
        @Actor
        public void sender1() {
            ref.tell(1);
        }

        /** Second sender. */
        @Actor
        public void sender2() {
            ref.tell(2);
        }

        /** @param r handled messages and double schedules */
        @Arbiter
        public void arbiter(II_Result r) {
            scheduler.runAll();
            r.r1 = handled;
            r.r2 = scheduler.doubleSchedules();
            finish();
        }
    }

    /**
     * I1, serializability: two senders each run the actor inline when they activate it, so a
     * second handler could only start if the protocol let two threads own the frame.
     */
    @JCStressTest
    @Description("Never two handlers of one actor at once, even when each sender runs the actor itself")
    @Outcome(id = "2, 0", expect = ACCEPTABLE, desc = "both handled, never overlapping")
    @Outcome(id = ".*, [1-9]", expect = FORBIDDEN, desc = "two handlers ran at once")
    @Outcome(expect = FORBIDDEN, desc = "a message was lost or duplicated")
    @State
    public static class NoTwoHandlers {
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        final AtomicInteger handled = new AtomicInteger();
        final ActorRef<Object> ref;

        /** Spawns the actor on the inline scheduler (the body runs here). */
        public NoTwoHandlers() {
            ref = Shared.SYSTEM.spawn(Props.defaults().withScheduler(new InlineScheduler()),
                    self -> self.loop(() -> self.react(Receive.handler().matchAny(m -> {
                        if (m == STOP) {
                            self.stop();
                            return;
                        }
                        if (inside.getAndIncrement() != 0) {
                            overlaps.incrementAndGet();
                        }
                        handled.incrementAndGet();
                        inside.decrementAndGet();
                    }).build())));
        }

        /** First sender (may run the handler). */
        @Actor
        public void sender1() {
            ref.tell(1);
        }

        /** Second sender (may run the handler). */
        @Actor
        public void sender2() {
            ref.tell(2);
        }

        /** @param r handled and overlaps */
        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = handled.get();
            r.r2 = overlaps.get();
            ref.tell(STOP);
        }
    }

    /**
     * A thread-based actor's receive (which parks with the frame given up) racing with a send: the
     * send must wake it. A lost wake-up leaves the receiver parked; the test then never finishes,
     * which jcstress reports as an error.
     */
    @JCStressTest
    @Description("A thread-based receive racing with a send always gets the message")
    @Outcome(id = "42, 0", expect = ACCEPTABLE, desc = "received")
    @Outcome(expect = FORBIDDEN, desc = "wrong message or double schedule")
    @State
    public static class ReceiveVersusSend {
        final ManualScheduler scheduler = new ManualScheduler(true);
        final ActorRef<Integer> ref;
        int received;

        /** Spawns the thread-based actor; its body runs on the receiver thread. */
        public ReceiveVersusSend() {
            ref = Shared.SYSTEM.spawnThread(Props.defaults().withScheduler(scheduler),
                    self -> received = self.receive(Receive.<Integer, Integer>returning().match(Integer.class, n -> n).build()));
        }

        /** The actor's own thread: runs the body, which blocks in receive until the message. */
        @Actor
        public void receiver() {
            scheduler.runOnce();
        }

        /** The sender. */
        @Actor
        public void sender() {
            ref.tell(42);
        }

        /** @param r what was received, and double schedules */
        @Arbiter
        public void arbiter(II_Result r) {
            r.r1 = received;
            r.r2 = scheduler.doubleSchedules();
        }
    }

    /**
     * Mode switch racing with a send: the first react handler switches the actor to a thread
     * (handing the frame to the virtual-thread scheduler) while another thread sends the message
     * that the thread body then receives. The message must be received exactly once, whether it
     * arrived before the switch (stashed by the react handler) or after.
     */
    @JCStressTest
    @Description("switchToThread racing with a send: the message reaches the thread body")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "received once after the switch")
    @Outcome(id = "0, .*, .*", expect = FORBIDDEN, desc = "the message was lost in the switch")
    @Outcome(expect = FORBIDDEN, desc = "anything else")
    @State
    public static class SwitchVersusSend {
        final ManualScheduler scheduler = new ManualScheduler(false);
        final CountDownLatch received = new CountDownLatch(1);
        final AtomicInteger times = new AtomicInteger();
        volatile int switched;
        final ActorRef<String> ref;

        /** Spawns an event-based actor waiting for "a" on the manual scheduler. */
        public SwitchVersusSend() {
            ref = Shared.SYSTEM.spawn(Props.defaults().withScheduler(scheduler),
                    self -> self.react(Receive.<String>handler().match(String.class, "a"::equals, a -> {
                        switched = 1;
                        self.switchToThread(() -> {
                            self.receive(Receive.<String, String>returning().match(String.class, "b"::equals, b -> b).build());
                            times.incrementAndGet();
                            received.countDown();
                        });
                    }).build()));
            scheduler.runAll();
        }

        /** Sends "a" and runs the turn that switches to a thread. */
        @Actor
        public void switcher() {
            ref.tell("a");
            scheduler.runOnce();
        }

        /** Sends "b", racing with the switch. */
        @Actor
        public void sender() {
            ref.tell("b");
        }

        /** @param r received, switched, double schedules */
        @Arbiter
        public void arbiter(III_Result r) {
            scheduler.runAll();
            try {
                r.r1 = received.await(10, TimeUnit.SECONDS) ? times.get() : 0;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            r.r2 = switched;
            r.r3 = scheduler.doubleSchedules();
        }
    }

}
