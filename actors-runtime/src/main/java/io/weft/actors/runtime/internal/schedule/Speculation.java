package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.SchedulerState;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-actor state of the ForkJoin scheduler with message-arrival speculation on (Prokopec 2016, §5.4–5.5):
 * the batch budget, plus the decision whether to spin briefly before deactivating.
 */
public final class Speculation implements SchedulerState {

    /* design
     * Before an actor with nothing left deactivates (Cell.afterTurn, still owning the frame), it
     * may spin for a delay d waiting for a message; if one arrives it runs another turn at once and
     * saves a deactivation + activation + task hand-off (the "context switch", cost c).
     *
     * Sampling: with probability phi (initially the class profile's rate, else PHI0 = 0.2%) the
     * actor spins for candidate delay d_i = delta_i * c (round-robin over DELTAS, the relative delays
     * of eq. 2; c is the scheduler's SwitchCost) and records whether a message
     * arrived. A hit doubles phi (up to PHI_MAX): sampling is itself a speculative delay, so
     * sampling more is cheap exactly when speculation helps. After SAMPLE_SET samples it picks, by
     * eq. 2-3, the i minimizing delta_i - p_i among those with delta_i <= p_i, where
     * p_i = hits_i / samples_i; none qualifies -> no spinning. c is the measured cost of a
     * context switch on this scheduler's pool (SwitchCalibration, run when the scheduler starts
     * with speculation on); until it is known, DEFAULT_SWITCH_NS stands in. It keeps
     * sampling and revisits the decision after each sample set. phi is recorded into the per-class
     * profile with eq. 4 (0.8 old + 0.2 new) so short-lived actors of the same class start from it.
     *
     * Only the owner thread touches an instance (SchedulerState contract); profiles are shared and
     * updated racily (a lost update only loses one sample's influence).
     */

    static final double PHI0 = 0.002;
    static final double PHI_MAX = 0.25;
    /** The candidate relative delays delta_i of eq. 2-3 (spin time / context-switch cost). */
    static final double[] DELTAS = {0.075, 0.175, 0.375, 0.75};
    /** The context-switch cost assumed until the scheduler has measured it, ns. */
    static final double DEFAULT_SWITCH_NS = 4_000;
    static final int SAMPLE_SET = 8 * DELTAS.length;

    /**
     * The cost c of one context switch (deactivate, activate, hand off, pick up) on one scheduler,
     * in ns: {@link #DEFAULT_SWITCH_NS} until {@link SwitchCalibration} has measured it.
     */
    static final class SwitchCost {
        /** Bounds for a measurement, against a clock glitch or a descheduled worker. */
        static final double MIN_NS = 20;
        static final double MAX_NS = 100_000;

        private volatile double nanos = DEFAULT_SWITCH_NS;
        private volatile boolean measured;

        double nanos() {
            return nanos;
        }

        boolean measured() {
            return measured;
        }

        /** @param measuredNanos a calibration's result, clamped to [MIN_NS, MAX_NS] */
        void measured(double measuredNanos) {
            nanos = Math.max(MIN_NS, Math.min(MAX_NS, measuredNanos));
            measured = true;
        }
    }

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
    private final SwitchCost cost;
    private double phi;
    private long rng;
    private int chosen = -1;
    private final int[] hits = new int[DELTAS.length];
    private final int[] samples = new int[DELTAS.length];
    private int sampleCount;

    Speculation(int budget, Profile profile, SwitchCost cost, long seed) {
        this.budget = budget;
        this.profile = profile;
        this.cost = cost;
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
    public boolean awaitArrival(Frame frame) {
        int i;
        boolean sampling = nextDouble() < phi;
        if (sampling) {
            i = sampleCount % DELTAS.length;
        } else if (chosen >= 0) {
            i = chosen;
        } else {
            return false;
        }
        boolean arrived = spin(frame, (long) (DELTAS[i] * cost.nanos()));
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
        for (int i = 0; i < DELTAS.length; i++) {
            if (samples[i] == 0) {
                continue;
            }
            double delta = DELTAS[i];
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
        return chosen < 0 ? 0 : (long) (DELTAS[chosen] * cost.nanos());
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
