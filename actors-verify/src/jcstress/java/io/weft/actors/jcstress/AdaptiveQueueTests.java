package io.weft.actors.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE_INTERESTING;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.weft.actors.runtime.internal.mailbox.AdaptiveQueue;
import java.util.function.BooleanSupplier;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.III_Result;
import org.openjdk.jcstress.infra.results.IIII_Result;

/**
 * jcstress tests of the unbounded mailbox's form switches ({@link AdaptiveQueue}): producers racing
 * with the switch from the linked to the chunked form, and with the consumer's switch back; every
 * item taken exactly once and in each producer's order; size() and isEmpty() read from another
 * thread during the switch back; the owner's give-back at its idle transition
 * ({@link AdaptiveQueue#idle}) racing with a producer; and the activation protocol's
 * no-lost-wake-up (Cell I2) with the queue in the chunked form, also with the give-back before the
 * owner's idle store.
 */
public final class AdaptiveQueueTests {

    /** Items queued by the constructor: the next offer's node (seq 256) makes the producer switch. */
    static final int BEFORE_SWITCH = 254;

    /**
     * Items the constructor queues to get the chunked form with 144 items; it takes them all, then
     * queues the last 2 again.
     */
    static final int CHUNKED_FILL = 400;

    /** AdaptiveQueue's default count of empty polls before it switches back to the linked form. */
    static final int SWITCH_BACK_EMPTY = 32;

    private AdaptiveQueueTests() {
    }

    /** A queue and the consumer's check of what it took: counts, and the order per producer. */
    public static class Checked {
        final AdaptiveQueue queue = new AdaptiveQueue();
        int taken; // consumer-only (an actor, then the arbiter after it)
        int nextPrefix;
        int nextA = 1_000;
        int nextB = 2_000;
        boolean inOrder = true;

        void fill(int n) {
            for (int i = 0; i < n; i++) {
                queue.offer(i);
            }
        }

        void take(Object item) {
            int v = (Integer) item;
            taken++;
            if (v < 1_000) {
                inOrder &= v == nextPrefix++;
            } else if (v < 2_000) {
                inOrder &= v == nextA++;
            } else {
                inOrder &= v == nextB++;
            }
        }

        /** Takes until {@code total} items or a bound of empty polls (the arbiter takes the rest). */
        void consumeBounded(int total) {
            int empty = 0;
            while (taken < total && empty < 20_000) {
                Object item = queue.relaxedPoll();
                if (item == null) {
                    empty++;
                    Thread.onSpinWait();
                } else {
                    take(item);
                }
            }
        }

        /** Takes what is left (after the actors ended). */
        void consumeRest() {
            Object item;
            while ((item = queue.poll()) != null) {
                take(item);
            }
        }

        /**
         * The arbiter's outcome: takes what is left, then r1 = items taken, r2 = 1 if every
         * producer's order held and {@code ends} holds (each sequence ended where expected, read
         * after the rest is taken), r3 = 1 if the queue is empty by isEmpty and size.
         */
        void report(III_Result r, BooleanSupplier ends) {
            consumeRest();
            r.r1 = taken;
            r.r2 = inOrder && ends.getAsBoolean() ? 1 : 0;
            r.r3 = queue.isEmpty() && queue.size() == 0 ? 1 : 0;
        }

        /** Producer A's four items, 1,000 to 1,003. */
        void offerFour() {
            for (int i = 0; i < 4; i++) {
                queue.offer(1_000 + i);
            }
        }

        /**
         * The report of a test whose queue held the last 2 of the CHUNKED_FILL prefix when producer
         * A offered its four.
         */
        void reportPrefixTailAndFour(III_Result r) {
            report(r, () -> nextA == 1_004 && nextPrefix == CHUNKED_FILL);
        }
    }

    /** Two producers race through the linked-to-chunked switch; the arbiter takes everything. */
    @JCStressTest
    @Description("Two producers across the switch to the chunked form: all taken once, in each producer's order")
    @Outcome(id = "258, 1, 1", expect = ACCEPTABLE, desc = "every item once, in order; the queue is empty")
    @Outcome(expect = FORBIDDEN, desc = "an item lost or taken twice, a producer's order broken, or left over")
    @State
    public static class TwoProducersAcrossSwitch extends Checked {
        /** 254 items queued: the second of the four offers switches the queue. */
        public TwoProducersAcrossSwitch() {
            fill(BEFORE_SWITCH);
        }

        /** Producer A. */
        @Actor
        public void producerA() {
            queue.offer(1_000);
            queue.offer(1_001);
        }

        /** Producer B. */
        @Actor
        public void producerB() {
            queue.offer(2_000);
            queue.offer(2_001);
        }

        /** @param r taken, in order, empty */
        @Arbiter
        public void arbiter(III_Result r) {
            report(r, () -> nextA == 1_002 && nextB == 2_002);
        }
    }

    /** A producer switches the queue to the chunked form while the consumer takes from it. */
    @JCStressTest
    @Description("A producer switches to the chunked form while the consumer takes: all taken once, in order")
    @Outcome(id = "258, 1, 1", expect = ACCEPTABLE, desc = "every item once, in order; the queue is empty")
    @Outcome(expect = FORBIDDEN, desc = "an item lost or taken twice, the order broken, or left over")
    @State
    public static class ConsumerAcrossSwitch extends Checked {
        /** 254 items queued: the producer's second offer switches the queue. */
        public ConsumerAcrossSwitch() {
            fill(BEFORE_SWITCH);
        }

        /** The producer: four items, the last two into the chunked form. */
        @Actor
        public void producer() {
            for (int i = 0; i < 4; i++) {
                queue.offer(1_000 + i);
            }
        }

        /** The consumer, concurrently. */
        @Actor
        public void consumer() {
            consumeBounded(BEFORE_SWITCH + 4);
        }

        /** @param r taken, in order, empty */
        @Arbiter
        public void arbiter(III_Result r) {
            report(r, () -> nextA == 1_004);
        }
    }

    /**
     * The consumer drains the chunked form and switches back to the linked form while a producer
     * queues: a claim on the closed form must go to the linked form, nothing lost or reordered.
     */
    @JCStressTest
    @Description("The consumer switches back to the linked form while a producer queues: all taken once, in order")
    @Outcome(id = "6, 1, 1", expect = ACCEPTABLE, desc = "every item once, in order; the queue is empty")
    @Outcome(expect = FORBIDDEN, desc = "an item lost or taken twice, the order broken, or left over")
    @State
    public static class SwitchBackVersusProducer extends Checked {
        /**
         * The chunked form with 2 items left, having carried enough to switch back and been found
         * empty on all but one of the polls the switch back waits for (AdaptiveQueue's default
         * weft.mailbox.switchBackEmpty, 32), so that the consumer's first empty poll closes it.
         */
        public SwitchBackVersusProducer() {
            fill(CHUNKED_FILL);
            for (int i = 0; i < CHUNKED_FILL; i++) {
                queue.poll();
            }
            for (int i = 1; i < SWITCH_BACK_EMPTY; i++) {
                queue.relaxedPoll();
            }
            queue.offer(CHUNKED_FILL - 2);
            queue.offer(CHUNKED_FILL - 1);
            taken = 0;
            nextPrefix = CHUNKED_FILL - 2;
        }

        /** The producer. */
        @Actor
        public void producer() {
            offerFour();
        }

        /** The consumer, concurrently: takes the 2 and closes the form when it finds it empty. */
        @Actor
        public void consumer() {
            consumeBounded(6);
        }

        /** @param r taken, in order, empty */
        @Arbiter
        public void arbiter(III_Result r) {
            reportPrefixTailAndFour(r);
        }
    }

    /**
     * Another thread reads size() and isEmpty() while the consumer switches an empty chunked form
     * back to the linked form: between the consumer's head store and its CAS of tail, head is the
     * fresh stub and tail the closed form, and the queue is empty throughout.
     */
    @JCStressTest
    @Description("size() and isEmpty() from another thread during the switch back: an empty queue reads empty")
    @Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "size 0 and empty")
    @Outcome(expect = FORBIDDEN, desc = "a phantom backlog on an empty queue")
    @State
    public static class SwitchBackVersusObserver {
        final AdaptiveQueue queue = new AdaptiveQueue();

        /**
         * The chunked form, empty, having carried enough to switch back and been found empty on
         * all but one of the polls the switch back waits for, so that the consumer's next poll
         * switches back.
         */
        public SwitchBackVersusObserver() {
            for (int i = 0; i < CHUNKED_FILL; i++) {
                queue.offer(i);
            }
            for (int i = 0; i < CHUNKED_FILL; i++) {
                queue.poll();
            }
            for (int i = 1; i < SWITCH_BACK_EMPTY; i++) {
                queue.relaxedPoll();
            }
        }

        /** The consumer: its empty poll switches the queue back. */
        @Actor
        public void consumer() {
            queue.relaxedPoll();
        }

        /** @param r size, 1 if empty */
        @Actor
        public void observer(II_Result r) {
            r.r1 = queue.size();
            r.r2 = queue.isEmpty() ? 1 : 0;
        }
    }

    /** The bare frame of ActivationWordTests with an AdaptiveQueue as its queue, as a cell's main queue. */
    public static class QueueFrame extends ActivationWordTests.Frame {
        final AdaptiveQueue mailbox = new AdaptiveQueue();

        @Override
        protected boolean workPending() {
            return !mailbox.isEmpty();
        }
    }

    /**
     * A QueueFrame whose owner is running a turn, its queue in the chunked form and drained (no
     * empty poll counted); {@link #send} is Cell's send.
     */
    public static class DrainedChunkedFrame extends QueueFrame {
        /** The owner is running a turn; the queue is in the chunked form and empty. */
        public DrainedChunkedFrame() {
            owned();
            for (int i = 0; i < 300; i++) {
                mailbox.offer(i);
            }
            for (int i = 0; i < 300; i++) {
                mailbox.relaxedPoll();
            }
        }

        /**
         * Offer, then activate.
         *
         * @return 1 if the sender owns the frame, else 0
         */
        int send() {
            mailbox.offer(1);
            return senderActivates() ? 1 : 0;
        }
    }

    /**
     * I2 with the queue in the chunked form and drained by its owner: a send racing with the
     * owner's idle transition (whose re-check is isEmpty) is seen by exactly one of them.
     */
    @JCStressTest
    @Description("A send into the chunked form racing with idleOrReclaim: exactly one owns the frame")
    @Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "exactly one owner, the message is seen")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost wake-up: the message is stranded")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "two owners")
    @State
    public static class ChunkedSendVersusIdle extends DrainedChunkedFrame {
        /** The sender. */
        @Actor
        public void sender(II_Result r) {
            r.r1 = send();
        }

        /** The owner ends its turn. */
        @Actor
        public void owner(II_Result r) {
            r.r2 = ownerIdlesOrReclaims() ? 1 : 0;
        }
    }

    /**
     * The owner gives an empty chunked form back at its idle transition (AdaptiveQueue.idle, with
     * none of the poll counts met) while a producer queues: a claim on the closed form must go to
     * the linked form, nothing lost or reordered. r4 = 1 if idle() gave the form back (the
     * queue linked right after it): both are correct, and the give-back shows that the race ran.
     */
    @JCStressTest
    @Description("The idle give-back of the chunked form while a producer queues: all taken once, in order")
    @Outcome(id = "6, 1, 1, 0", expect = ACCEPTABLE, desc = "every item once, in order; the queue is empty; the form kept")
    @Outcome(id = "6, 1, 1, 1", expect = ACCEPTABLE_INTERESTING,
            desc = "every item once, in order; the queue is empty; the form given back")
    @Outcome(expect = FORBIDDEN, desc = "an item lost or taken twice, the order broken, or left over")
    @State
    public static class IdleGiveBackVersusProducer extends Checked {
        /** 1 if the consumer's idle() left the queue linked, written by the consumer. */
        int givenBack;

        /** The chunked form with 2 items left and no empty poll counted. */
        public IdleGiveBackVersusProducer() {
            fill(CHUNKED_FILL);
            for (int i = 0; i < CHUNKED_FILL - 2; i++) {
                queue.relaxedPoll();
            }
            taken = 0;
            nextPrefix = CHUNKED_FILL - 2;
        }

        /** The producer. */
        @Actor
        public void producer() {
            offerFour();
        }

        /** The consumer, concurrently: takes the 2, gives the form back if it is empty, takes on. */
        @Actor
        public void consumer() {
            take(queue.relaxedPoll());
            take(queue.relaxedPoll());
            queue.idle();
            givenBack = queue.isChunked() ? 0 : 1;
            consumeBounded(6);
        }

        /** @param r taken, in order, empty, given back */
        @Arbiter
        public void arbiter(IIII_Result r) {
            III_Result three = new III_Result();
            reportPrefixTailAndFour(three);
            r.r1 = three.r1;
            r.r2 = three.r2;
            r.r3 = three.r3;
            r.r4 = givenBack;
        }
    }

    /**
     * I2 with the give-back: the owner of a drained chunked form gives it back (AdaptiveQueue.idle),
     * then ends its turn, while a send queues into the form or the linked form after it; the send
     * is seen by exactly one of them. r3 = 1 if idle() gave the form back (the queue linked right
     * after it); r4 = 1 if the arbiter then polls the message and finds the queue empty.
     */
    @JCStressTest
    @Description("A send racing with the owner's idle give-back and idleOrReclaim: exactly one owns the frame")
    @Outcome(id = {"1, 0, 0, 1", "0, 1, 0, 1"}, expect = ACCEPTABLE,
            desc = "exactly one owner, the message is taken once; the form kept")
    @Outcome(id = {"1, 0, 1, 1", "0, 1, 1, 1"}, expect = ACCEPTABLE_INTERESTING,
            desc = "exactly one owner, the message is taken once; the form given back")
    @Outcome(id = {"0, 0, .*"}, expect = FORBIDDEN, desc = "lost wake-up: the message is stranded")
    @Outcome(id = {"1, 1, .*"}, expect = FORBIDDEN, desc = "two owners")
    @Outcome(expect = FORBIDDEN, desc = "the message lost, or the queue not empty after it")
    @State
    public static class IdleGiveBackVersusSend extends DrainedChunkedFrame {
        /** The sender. */
        @Actor
        public void sender(IIII_Result r) {
            r.r1 = send();
        }

        /** The owner ends its turn: the give-back, then the idle store and its re-check. */
        @Actor
        public void owner(IIII_Result r) {
            mailbox.idle();
            r.r3 = mailbox.isChunked() ? 0 : 1;
            r.r2 = ownerIdlesOrReclaims() ? 1 : 0;
        }

        /** @param r r4 = 1 if the queue holds the message, and nothing after it */
        @Arbiter
        public void arbiter(IIII_Result r) {
            r.r4 = Integer.valueOf(1).equals(mailbox.poll()) && mailbox.isEmpty() ? 1 : 0;
        }
    }
}
