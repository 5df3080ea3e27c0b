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
 * (every frame is polled exactly once) and F3 (one owner of the drain at a time).
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

    /** A queue and three frames, with the drain loop a Drain runs (poll until the word is given up). */
    public static class Frames {
        final ForeignActivations queue = new ForeignActivations();
        final BareFrame seed = new BareFrame();
        final BareFrame a = new BareFrame();
        final BareFrame b = new BareFrame();
        int seenSeed;
        int seenA;
        int seenB;

        /** Polls until the word is given up; returns how many of a and b it took. */
        int drainAll() {
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
    }

    /**
     * F1, F2: a drain owns the word (it won it by offering {@code seed}) and drains, giving the
     * word up at the end as a Drain does, while a thread outside the pool offers frame a. The
     * arbiter then drains as the Drain a winning offer submits would. r1: whether the offer won the
     * word; r2: whether the racing drain took a, or -1 if a or the seed was polled twice or never;
     * r3: frames left for the arbiter's drain, or 9 if a frame was left with no owner.
     */
    @JCStressTest
    @Description("A foreign offer against a drain giving the word up: the frame is polled once, never stranded")
    @Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the drain took the frame and gave the word up")
    @Outcome(id = "1, 1, 0", expect = ACCEPTABLE, desc = "the drain took the frame; the offer won the word after it (a drain that finds nothing)")
    @Outcome(id = "1, 0, 1", expect = ACCEPTABLE, desc = "the drain gave the word up first; the offer won it")
    @Outcome(id = "0, .*", expect = FORBIDDEN, desc = "lost wake-up: the frame is stranded, or polled twice")
    @Outcome(expect = FORBIDDEN, desc = "anything else")
    @State
    public static class OfferVersusRelease extends Frames {
        int won;
        int drained;

        /** The drain owns the word, with its seed frame queued. */
        public OfferVersusRelease() {
            if (!queue.offer(seed)) {
                throw new IllegalStateException("a new queue's first offer must win the word");
            }
        }

        @Actor
        public void offer() {
            won = queue.offer(a) ? 1 : 0;
        }

        @Actor
        public void drain() {
            drained = drainAll();
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = won;
            r.r3 = won == 1 ? drainAll() : 0; // only an owner drains
            if (queue.poll() != null) {
                r.r3 = 9;
            }
            r.r2 = seenA == 1 && seenSeed == 1 ? drained : -1;
        }
    }

    /**
     * F3: two threads outside the pool offer a frame each to an idle queue: exactly one wins the
     * word, and its drain (the arbiter) takes both frames once. r1, r2: whether each offer won;
     * r3: frames the winner's drain took, or -1 if a frame was polled twice, never, or left over.
     */
    @JCStressTest
    @Description("Two foreign offers to an idle queue: exactly one owner, whose drain takes both frames")
    @Outcome(id = {"1, 0, 2", "0, 1, 2"}, expect = ACCEPTABLE, desc = "one owner, both frames drained once")
    @Outcome(id = "1, 1, .*", expect = FORBIDDEN, desc = "two owners")
    @Outcome(id = "0, 0, .*", expect = FORBIDDEN, desc = "no owner: both frames stranded")
    @Outcome(expect = FORBIDDEN, desc = "a frame lost or polled twice")
    @State
    public static class TwoOffers extends Frames {
        int wonA;
        int wonB;

        @Actor
        public void offerA() {
            wonA = queue.offer(a) ? 1 : 0;
        }

        @Actor
        public void offerB() {
            wonB = queue.offer(b) ? 1 : 0;
        }

        @Arbiter
        public void arbiter(III_Result r) {
            r.r1 = wonA;
            r.r2 = wonB;
            int n = wonA + wonB > 0 ? drainAll() : 0;
            r.r3 = seenA == 1 && seenB == 1 && queue.poll() == null ? n : -1;
        }
    }
}
