package io.weft.actors.runtime.internal;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.SchedulerState;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-actor state of the ForkJoin scheduler with message-arrival speculation on (seed 004 §5.4–5.5):
 * the batch budget, plus the decision whether to spin briefly before deactivating.
 */
final class Speculation implements SchedulerState {

    /* design
     * Before an actor with nothing left deactivates (Cell.afterTurn, still owning the frame), it
     * may spin for a delay d waiting for a message; if one arrives it runs another turn at once and
     * saves a deactivation + activation + task hand-off (the "context switch", cost c).
     *
     * Sampling: with probability phi (initially the class profile's rate, else PHI0 = 0.2%) the
     * actor spins for candidate delay d_i (round-robin over DELAY_NS) and records whether a message
     * arrived. A hit doubles phi (up to PHI_MAX): sampling is itself a speculative delay, so
     * sampling more is cheap exactly when speculation helps. After SAMPLE_SET samples it picks, by
     * eq. 2-3, the i minimizing delta_i - p_i among those with delta_i <= p_i, where
     * delta_i = d_i / c and p_i = hits_i / samples_i; none qualifies -> no spinning. It keeps
     * sampling and revisits the decision after each sample set. phi is recorded into the per-class
     * profile with eq. 4 (0.8 old + 0.2 new) so short-lived actors of the same class start from it.
     *
     * Only the owner thread touches an instance (SchedulerState contract); profiles are shared and
     * updated racily (a lost update only loses one sample's influence).
     */

    static final double PHI0 = 0.002;
    static final double PHI_MAX = 0.25;
    static final long[] DELAY_NS = {300, 700, 1_500, 3_000};
    /** Estimated cost of one deactivate/activate/hand-off cycle on this kind of machine, ns. */
    static final double SWITCH_NS = 4_000;
    static final int SAMPLE_SET = 8 * DELAY_NS.length;

    /** The sampling-rate profile of one actor class (eq. 4). */
    static final class Profile {
        volatile double rate = PHI0;

        void record(double newRate) {
            rate = 0.8 * rate + 0.2 * newRate;
        }
    }

    /** Profiles by actor class. */
    static final class Profiles {
        private final ConcurrentHashMap<Class<?>, Profile> byClass = new ConcurrentHashMap<>();
        private final Profile unknown = new Profile();

        Profile of(Class<?> type) {
            return type == null ? unknown : byClass.computeIfAbsent(type, t -> new Profile());
        }
    }

    private final int budget;
    private final Profile profile;
    private double phi;
    private long rng;
    private int chosen = -1;
    private final int[] hits = new int[DELAY_NS.length];
    private final int[] samples = new int[DELAY_NS.length];
    private int sampleCount;

    Speculation(int budget, Profile profile, long seed) {
        this.budget = budget;
        this.profile = profile;
        this.phi = Math.max(PHI0, profile.rate);
        this.rng = seed | 1;
    }

    @Override
    public void onBatchStart() {
    }

    @Override
    public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
        return handledInBatch < budget;
    }

    /**
     * Called by the owner before it deactivates the frame.
     *
     * @return true if a message arrived while spinning (the owner keeps the frame and runs a turn)
     */
    boolean awaitArrival(Frame frame) {
        int i;
        boolean sampling = nextDouble() < phi;
        if (sampling) {
            i = sampleCount % DELAY_NS.length;
        } else if (chosen >= 0) {
            i = chosen;
        } else {
            return false;
        }
        boolean arrived = spin(frame, DELAY_NS[i]);
        if (sampling) {
            record(i, arrived);
        }
        return arrived;
    }

    private static boolean spin(Frame frame, long nanos) {
        long deadline = System.nanoTime() + nanos;
        do {
            if (frame.hasPending()) {
                return true;
            }
            Thread.onSpinWait();
        } while (System.nanoTime() - deadline < 0);
        return frame.hasPending();
    }

    private void record(int i, boolean arrived) {
        samples[i]++;
        if (arrived) {
            hits[i]++;
            phi = Math.min(PHI_MAX, phi * 2);
        }
        if (++sampleCount >= SAMPLE_SET) {
            decide();
        }
    }

    /** Eq. 2-3: pick the delay with delta <= p minimizing delta - p; then eq. 4 into the profile. */
    private void decide() {
        int best = -1;
        double bestScore = 0;
        for (int i = 0; i < DELAY_NS.length; i++) {
            if (samples[i] == 0) {
                continue;
            }
            double delta = DELAY_NS[i] / SWITCH_NS;
            double p = hits[i] / (double) samples[i];
            if (delta <= p && (best < 0 || delta - p < bestScore)) {
                best = i;
                bestScore = delta - p;
            }
            hits[i] = 0;
            samples[i] = 0;
        }
        chosen = best;
        sampleCount = 0;
        if (best < 0) {
            phi = Math.max(PHI0, phi / 4); // no benefit seen: back towards the low initial rate
        }
        profile.record(phi);
    }

    /** @return the chosen spin delay in ns, 0 if none (tests, diagnostics) */
    long chosenDelayNanos() {
        return chosen < 0 ? 0 : DELAY_NS[chosen];
    }

    private double nextDouble() {
        long x = rng;
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        rng = x;
        return (x >>> 11) * 0x1.0p-53;
    }

    @Override
    public String toString() {
        return "speculation(budget " + budget + ", phi " + phi + ", delay " + chosenDelayNanos() + " ns)";
    }
}
