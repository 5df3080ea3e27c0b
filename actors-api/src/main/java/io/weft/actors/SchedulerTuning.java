package io.weft.actors;

import java.time.Duration;
import java.util.Objects;

/**
 * Switches for the optimizations of the default ForkJoin scheduler (Prokopec 2016, §5) and for its
 * blocking watchdog, so that each one's effect can be measured on and off. Part of
 * {@link ActorSystem.Settings}; set with {@link ActorSystem.Builder#schedulerTuning(SchedulerTuning)}.
 *
 * <p>The defaults are the combination that measured best on balance (see {@code docs/scheduling.md}).
 *
 * <p>Actor-to-actor activations always go to the activating worker's local queue (the pool puts
 * a worker's own submissions there); {@code lazyActivations} only decides whether an idle worker is
 * woken for them.
 *
 * @param lazyActivations an actor activated from a pool worker is pushed on that worker's local
 *     queue with {@code ForkJoinPool.lazySubmit} (no idle worker is woken; this one or a thief takes
 *     it) instead of {@code fork} (which wakes an idle worker if there is one); with
 *     {@code lazyScheduling}, this applies to an actor displaced from the mini-queue while the worker
 *     has no other queued task (with a backlog, it is forked so that an idle worker helps)
 * @param lazySelfResubmit an actor whose turn ended with messages left is resubmitted with
 *     {@code ForkJoinPool.lazySubmit} (no worker is woken: this worker will take it)
 * @param localSteal explicit local work stealing (§5.1): after a turn, the worker runs a few
 *     frames it submitted itself before going back to the pool
 * @param lazyScheduling lazy task scheduling (§5.2–5.3): an activation from a worker goes to a
 *     one-slot mini-queue of that worker and is run by it after the current turn, in chains of up
 *     to 64 turns on the same worker; a reanimation thread with adaptive sleep (eq. 1, 1–200 ms)
 *     rescues frames stranded in a mini-queue behind a long turn
 * @param speculation message-arrival speculation (§5.4–5.5): before deactivating, an actor may spin
 *     briefly waiting for its next message; decided by sampling (eq. 2–3) with per-class profiles
 *     (eq. 4); the spin times are fractions of the context-switch cost, which the scheduler
 *     measures on its own pool when it starts (two empty handlers pass a message 100,000 times,
 *     some tens of milliseconds of one worker)
 * @param blockingThreshold how long one react handler may hold a pool worker before the watchdog
 *     logs a warning and adds a spare worker; {@link Duration#ZERO} turns the watchdog off
 */
public record SchedulerTuning(boolean lazyActivations, boolean lazySelfResubmit, boolean localSteal, boolean lazyScheduling,
        boolean speculation, Duration blockingThreshold) {

    /**
     * Validates.
     *
     * @param lazyActivations see the record description
     * @param lazySelfResubmit see the record description
     * @param localSteal see the record description
     * @param lazyScheduling see the record description
     * @param speculation see the record description
     * @param blockingThreshold zero (off) or positive
     */
    public SchedulerTuning {
        Objects.requireNonNull(blockingThreshold, "blockingThreshold");
        if (blockingThreshold.isNegative()) {
            throw new IllegalArgumentException("blockingThreshold: must be zero (off) or positive, was " + blockingThreshold);
        }
    }

    /**
     * The measured defaults (docs/scheduling.md): lazy activations, lazy self-resubmission and lazy
     * scheduling on; explicit local stealing and speculation off; watchdog at 1 s.
     *
     * @return the defaults
     */
    public static SchedulerTuning defaults() {
        return new SchedulerTuning(true, true, false, true, false, Duration.ofSeconds(1));
    }

    /** @return every optimization off (the plain ForkJoinPool scheduler), watchdog as in the defaults */
    public static SchedulerTuning none() {
        return new SchedulerTuning(false, false, false, false, false, Duration.ofSeconds(1));
    }

    /**
     * @param on see {@link #lazyActivations()}
     * @return a copy with that switch
     */
    public SchedulerTuning withLazyActivations(boolean on) {
        return new SchedulerTuning(on, lazySelfResubmit, localSteal, lazyScheduling, speculation, blockingThreshold);
    }

    /**
     * @param on see {@link #lazySelfResubmit()}
     * @return a copy with that switch
     */
    public SchedulerTuning withLazySelfResubmit(boolean on) {
        return new SchedulerTuning(lazyActivations, on, localSteal, lazyScheduling, speculation, blockingThreshold);
    }

    /**
     * @param on see {@link #localSteal()}
     * @return a copy with that switch
     */
    public SchedulerTuning withLocalSteal(boolean on) {
        return new SchedulerTuning(lazyActivations, lazySelfResubmit, on, lazyScheduling, speculation, blockingThreshold);
    }

    /**
     * @param on see {@link #lazyScheduling()}
     * @return a copy with that switch
     */
    public SchedulerTuning withLazyScheduling(boolean on) {
        return new SchedulerTuning(lazyActivations, lazySelfResubmit, localSteal, on, speculation, blockingThreshold);
    }

    /**
     * @param on see {@link #speculation()}
     * @return a copy with that switch
     */
    public SchedulerTuning withSpeculation(boolean on) {
        return new SchedulerTuning(lazyActivations, lazySelfResubmit, localSteal, lazyScheduling, on, blockingThreshold);
    }

    /**
     * @param threshold see {@link #blockingThreshold()}
     * @return a copy with that threshold
     */
    public SchedulerTuning withBlockingThreshold(Duration threshold) {
        return new SchedulerTuning(lazyActivations, lazySelfResubmit, localSteal, lazyScheduling, speculation, threshold);
    }
}
