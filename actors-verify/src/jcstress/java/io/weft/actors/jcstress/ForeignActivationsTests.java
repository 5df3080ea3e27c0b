package io.weft.actors.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import io.weft.actors.ActorRef;
import io.weft.actors.runtime.internal.schedule.ForeignActivations;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * jcstress tests of the ForkJoin scheduler's queue of frames activated outside its pool,
 * {@link ForeignActivations}, on bare frames: its invariants F1 (a frame offered while the drain
 * gives the word up is seen by the drain or makes its offerer win the word: none is stranded), F2
 * (every frame is polled exactly once) and F3 (at most one owner of the drain).
 */
public final class ForeignActivationsTests {

    private ForeignActivationsTests() {
    }

    /** A frame with no actor behind it: only its identity matters here. */
    public static final class BareFrame implements Frame {

        @Override
        public ActorRef<?> ref() {
            return null;
        }

        @Override
        public void execute() {
        }

        @Override
        public Runnable task() {
            return this::execute;
        }

        @Override
        public SchedulerState schedulerState() {
            return null;
        }

        @Override
        public void schedulerState(SchedulerState state) {
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

    /**
     * A drain owns the word (it won it by offering {@code seed}) and drains, giving the word up at
     * the end as a Drain does, while two threads outside the pool offer one frame each. The arbiter
     * then drains what is left, as the Drain a winning offerer submits would. r1: offers that won the
     * word; r2: frames a and b the racing drain took, or -1 if a frame was polled twice or never;
     * r3: frames left for the arbiter.
     */
    @JCStressTest
    @Description("Two foreign offers against a drain giving the word up: each frame polled once, none stranded, one owner")
    @Outcome(id = "0, 2, 0", expect = ACCEPTABLE, desc = "the drain took both frames and gave the word up")
    @Outcome(id = "1, 2, 0", expect = ACCEPTABLE, desc = "the drain took both; an offer won the word after it (a drain that finds nothing)")
    @Outcome(id = "1, 1, 1", expect = ACCEPTABLE, desc = "the drain took one; the later offer won the word")
    @Outcome(id = "1, 0, 2", expect = ACCEPTABLE, desc = "the drain gave the word up first; an offer won it")
    @Outcome(id = ".*, -1, .*", expect = FORBIDDEN, desc = "a frame polled twice or lost")
    @Outcome(id = "0, .*, [12]", expect = FORBIDDEN, desc = "frames queued with no owner: stranded")
    @Outcome(expect = FORBIDDEN, desc = "two owners")
    @State
    public static class TwoOffersAgainstADrain {
        final ForeignActivations queue = new ForeignActivations();
        final BareFrame seed = new BareFrame();
        final BareFrame a = new BareFrame();
        final BareFrame b = new BareFrame();
        int seenSeed;
        int seenA;
        int seenB;
        int drained;
        int wonA;
        int wonB;

        /** The drain owns the word, with its seed frame queued. */
        public TwoOffersAgainstADrain() {
            if (!queue.offer(seed)) {
                throw new IllegalStateException("a new queue's first offer must win the word");
            }
        }

        @Actor
        public void offerA() {
            wonA = queue.offer(a) ? 1 : 0;
        }

        @Actor
        public void offerB() {
            wonB = queue.offer(b) ? 1 : 0;
        }

        @Actor
        public void drain() {
            drained = drainAll();
        }

        /** Polls until the word is given up; returns how many of a and b it took. */
        private int drainAll() {
            int n = 0;
            do {
                for (Frame f; (f = queue.poll()) != null; ) {
                    if (f == a) {
                        seenA++;
                        n++;
                    } else if (f == b) {
                        seenB++;
                        n++;
                    } else if (f == seed) {
                        seenSeed++;
                    }
                }
            } while (queue.release());
            return n;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = wonA + wonB;
            r.r3 = wonA + wonB > 0 ? drainAll() : 0; // only an owner drains
            if (queue.poll() != null) {
                r.r3 = 9; // something queued with nobody to take it
            }
            r.r2 = seenA == 1 && seenB == 1 && seenSeed == 1 ? drained : -1;
        }
    }
}
