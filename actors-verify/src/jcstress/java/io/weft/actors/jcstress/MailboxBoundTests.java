package io.weft.actors.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.Mailbox;
import io.weft.actors.MailboxFullException;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * jcstress tests of the bound of a bounded mailbox (MailboxPolicy.BoundedQueue, invariant B):
 * concurrent senders to an actor that is not running never get more than the capacity in.
 */
public final class MailboxBoundTests {

    private MailboxBoundTests() {
    }

    /**
     * An event-based actor on a manual scheduler with a bounded mailbox: senders' activations are
     * only recorded, so the actor does not run (and takes nothing out) until the arbiter runs it.
     */
    public static class Bounded {
        final ManualScheduler scheduler = new ManualScheduler(false);
        final ActorRef<Object> ref;
        final AtomicInteger accepted = new AtomicInteger();
        int handled; // owner-only; published to the arbiter by the runs it joins

        Bounded(int capacity, Mailbox.Overflow overflow) {
            ref = Shared.SYSTEM.spawn(Props.defaults().withScheduler(scheduler).withMailbox(Mailbox.bounded(capacity, overflow)),
                    this::body);
            scheduler.runAll(); // the body: react, then idle
        }

        void body(ActorContext<Object> self) {
            self.loop(() -> self.react(Receive.handler().matchAny(m -> {
                if (m == ActivationTests.STOP) {
                    self.stop();
                } else {
                    handled++;
                }
            }).build()));
        }

        /** A FAIL send: counts it if the mailbox took it. */
        void send(int n) {
            try {
                ref.tell(n);
                accepted.incrementAndGet();
            } catch (MailboxFullException full) {
                // refused: the bound held
            }
        }

        /** r1 = messages accepted (FAIL) or -1, r2 = mailbox depth with the actor idle, r3 = handled once run. */
        void result(III_Result r, boolean countAccepted) {
            r.r1 = countAccepted ? accepted.get() : -1;
            r.r2 = Shared.SYSTEM.metrics().mailboxDepth(ref);
            scheduler.runAll();
            r.r3 = handled;
            ref.tell(ActivationTests.STOP);
            scheduler.runAll();
        }
    }

    /** Capacity 1, FAIL, two senders: exactly one gets in. */
    @JCStressTest
    @Description("Capacity 1, FAIL: of two concurrent senders exactly one gets in")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "one accepted, held and handled; the other refused")
    @Outcome(expect = FORBIDDEN, desc = "more than the capacity accepted or held, or a message lost")
    @State
    public static class CapacityOneTwoSenders extends Bounded {
        /** An idle actor with an empty mailbox of capacity 1. */
        public CapacityOneTwoSenders() {
            super(1, Mailbox.Overflow.FAIL);
        }

        /** First sender. */
        @Actor
        public void sender1() {
            send(1);
        }

        /** Second sender. */
        @Actor
        public void sender2() {
            send(2);
        }

        /** @param r accepted, held, handled */
        @Arbiter
        public void arbiter(III_Result r) {
            result(r, true);
        }
    }

    /** Capacity 1, DROP_NEW, two senders: exactly one is held. */
    @JCStressTest
    @Description("Capacity 1, DROP_NEW: of two concurrent senders exactly one is held")
    @Outcome(id = "-1, 1, 1", expect = ACCEPTABLE, desc = "one held and handled; the other dropped")
    @Outcome(expect = FORBIDDEN, desc = "more than the capacity held, or a message lost")
    @State
    public static class CapacityOneTwoSendersDropNew extends Bounded {
        /** An idle actor with an empty mailbox of capacity 1. */
        public CapacityOneTwoSendersDropNew() {
            super(1, Mailbox.Overflow.DROP_NEW);
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

        /** @param r -1, held, handled */
        @Arbiter
        public void arbiter(III_Result r) {
            result(r, false);
        }
    }

    /** Capacity 2, FAIL, two senders of two messages each: exactly two get in. */
    @JCStressTest
    @Description("Capacity 2, FAIL: of four messages from two concurrent senders exactly two get in")
    @Outcome(id = "2, 2, 2", expect = ACCEPTABLE, desc = "two accepted, held and handled; two refused")
    @Outcome(expect = FORBIDDEN, desc = "more than the capacity accepted or held, or a message lost")
    @State
    public static class CapacityTwoTwoSenders extends Bounded {
        /** An idle actor with an empty mailbox of capacity 2. */
        public CapacityTwoTwoSenders() {
            super(2, Mailbox.Overflow.FAIL);
        }

        /** First sender. */
        @Actor
        public void sender1() {
            send(1);
            send(2);
        }

        /** Second sender. */
        @Actor
        public void sender2() {
            send(3);
            send(4);
        }

        /** @param r accepted, held, handled */
        @Arbiter
        public void arbiter(III_Result r) {
            result(r, true);
        }
    }

    /** Capacity 2, DROP_NEW, two senders of two messages each: exactly two are held. */
    @JCStressTest
    @Description("Capacity 2, DROP_NEW: of four messages from two concurrent senders exactly two are held")
    @Outcome(id = "-1, 2, 2", expect = ACCEPTABLE, desc = "two held and handled; two dropped")
    @Outcome(expect = FORBIDDEN, desc = "more than the capacity held, or a message lost")
    @State
    public static class CapacityTwoTwoSendersDropNew extends Bounded {
        /** An idle actor with an empty mailbox of capacity 2. */
        public CapacityTwoTwoSendersDropNew() {
            super(2, Mailbox.Overflow.DROP_NEW);
        }

        /** First sender. */
        @Actor
        public void sender1() {
            ref.tell(1);
            ref.tell(2);
        }

        /** Second sender. */
        @Actor
        public void sender2() {
            ref.tell(3);
            ref.tell(4);
        }

        /** @param r -1, held, handled */
        @Arbiter
        public void arbiter(III_Result r) {
            result(r, false);
        }
    }

    // The three-sender tests need three CPUs: jcstress does not run them on fewer.

    /** Capacity 1, DROP_NEW, three senders: exactly one is held. */
    @JCStressTest
    @Description("Capacity 1, DROP_NEW: of three concurrent senders exactly one is held")
    @Outcome(id = "-1, 1, 1", expect = ACCEPTABLE, desc = "one held and handled; two dropped")
    @Outcome(expect = FORBIDDEN, desc = "more than the capacity held, or a message lost")
    @State
    public static class CapacityOneThreeSenders extends Bounded {
        /** An idle actor with an empty mailbox of capacity 1. */
        public CapacityOneThreeSenders() {
            super(1, Mailbox.Overflow.DROP_NEW);
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

        /** Third sender. */
        @Actor
        public void sender3() {
            ref.tell(3);
        }

        /** @param r -1, held, handled */
        @Arbiter
        public void arbiter(III_Result r) {
            result(r, false);
        }
    }

    /** Capacity 2, FAIL, three senders: exactly two get in. */
    @JCStressTest
    @Description("Capacity 2, FAIL: of three concurrent senders exactly two get in")
    @Outcome(id = "2, 2, 2", expect = ACCEPTABLE, desc = "two accepted, held and handled; one refused")
    @Outcome(expect = FORBIDDEN, desc = "more than the capacity accepted or held, or a message lost")
    @State
    public static class CapacityTwoThreeSenders extends Bounded {
        /** An idle actor with an empty mailbox of capacity 2. */
        public CapacityTwoThreeSenders() {
            super(2, Mailbox.Overflow.FAIL);
        }

        /** First sender. */
        @Actor
        public void sender1() {
            send(1);
        }

        /** Second sender. */
        @Actor
        public void sender2() {
            send(2);
        }

        /** Third sender. */
        @Actor
        public void sender3() {
            send(3);
        }

        /** @param r accepted, held, handled */
        @Arbiter
        public void arbiter(III_Result r) {
            result(r, true);
        }
    }
}
