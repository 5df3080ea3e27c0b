package io.weft.actors.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.weft.actors.runtime.internal.ActivationWord;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * jcstress tests of the shared activation primitive, {@link ActivationWord}, on a bare frame: a
 * word and one queue, no runtime. Its invariants A1 (one owner) and A2 (no lost wake-up) are the
 * ones every frame of the runtime (actor cells, stream stages) relies on.
 */
public final class ActivationWordTests {

    private ActivationWordTests() {
    }

    /** A frame with a queue whose offer is a full fence (a CAS), as the word's A2 requires. */
    public static class Frame extends ActivationWord {
        final ConcurrentLinkedQueue<Object> queue = new ConcurrentLinkedQueue<>();

        @Override
        protected boolean workPending() {
            return !queue.isEmpty();
        }

        boolean active() {
            return lvActive();
        }

        boolean senderActivates() {
            return activateIfIdle();
        }

        boolean ownerIdlesOrReclaims() {
            return idleOrReclaim();
        }

        void owned() {
            svActive();
        }
    }

    /** A1: two senders find the frame idle; exactly one of them wins it. */
    @JCStressTest
    @Description("Two senders activate an idle frame: exactly one owns it")
    @Outcome(id = {"1, 0, 1", "0, 1, 1"}, expect = ACCEPTABLE, desc = "one sender owns the frame")
    @Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "two owners")
    @Outcome(expect = FORBIDDEN, desc = "nobody owns a frame with messages")
    @State
    public static class TwoSenders extends Frame {
        @Actor
        public void sender1(III_Result r) {
            queue.offer(1);
            r.r1 = senderActivates() ? 1 : 0;
        }

        @Actor
        public void sender2(III_Result r) {
            queue.offer(2);
            r.r2 = senderActivates() ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r3 = active() ? 1 : 0;
        }
    }

    /**
     * A2: a send racing with the owner's end of turn on an empty queue. Either the sender wins the
     * frame or the owner reclaims it for the new message: never both (two owners), never neither
     * (a message stranded in an idle frame).
     */
    @JCStressTest
    @Description("A send racing with idleOrReclaim: exactly one of sender and owner owns the frame")
    @Outcome(id = {"1, 0", "0, 1"}, expect = ACCEPTABLE, desc = "exactly one owner, the message is seen")
    @Outcome(id = "0, 0", expect = FORBIDDEN, desc = "lost wake-up: the message is stranded")
    @Outcome(id = "1, 1", expect = FORBIDDEN, desc = "two owners")
    @State
    public static class SendVersusIdle extends Frame {
        /** The owner is running a turn: the word is 1, the queue empty. */
        public SendVersusIdle() {
            owned();
        }

        @Actor
        public void sender(II_Result r) {
            queue.offer(1);
            r.r1 = senderActivates() ? 1 : 0;
        }

        @Actor
        public void owner(II_Result r) {
            r.r2 = ownerIdlesOrReclaims() ? 1 : 0;
        }
    }
}
