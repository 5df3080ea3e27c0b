package io.weft.actors.bench.kit;

import io.weft.actors.SchedulerTuning;
import java.util.Objects;

/**
 * How a Weft react {@link Kit} builds its actor system: the ForkJoin scheduler's optimization
 * switches, the batch size, and whether every actor (children spawned through {@link Ctx#spawn}
 * too) runs on the system's fair scheduler ({@code system.schedulers().fair()}) instead of the
 * ForkJoin one. {@link Impl#WEFT} is {@link #defaults()}, {@link Impl#WEFT_FAIR} is
 * {@code defaults().onFairScheduler()}; the scheduling measurements build the other variants.
 *
 * @param tuning the ForkJoin scheduler's switches ({@code ActorSystem.Builder.schedulerTuning})
 * @param batchSize messages per actor turn ({@code ActorSystem.Builder.batchSize}; the fair
 *     scheduler uses it as its per-turn cap), or 0 for the system's default (50)
 * @param fair whether every actor is spawned with {@code Props.defaults().withScheduler(fair())}
 */
public record WeftReactConfig(SchedulerTuning tuning, int batchSize, boolean fair) {

    /**
     * Validates.
     *
     * @param tuning not null
     * @param batchSize 0 (the default) or positive
     * @param fair see the record description
     */
    public WeftReactConfig {
        Objects.requireNonNull(tuning, "tuning");
        if (batchSize < 0) {
            throw new IllegalArgumentException("batchSize: must be 0 (the default) or positive, was " + batchSize);
        }
    }

    /**
     * The system as {@code ActorSystem.builder().build()} makes it: default tuning and batch size,
     * every actor on the ForkJoin scheduler.
     *
     * @return the defaults
     */
    public static WeftReactConfig defaults() {
        return new WeftReactConfig(SchedulerTuning.defaults(), 0, false);
    }

    /**
     * @param newTuning the ForkJoin scheduler's switches
     * @return a copy with that tuning
     */
    public WeftReactConfig withTuning(SchedulerTuning newTuning) {
        return new WeftReactConfig(newTuning, batchSize, fair);
    }

    /**
     * @param newBatchSize messages per actor turn, at least 1 (or 0 for the default)
     * @return a copy with that batch size
     */
    public WeftReactConfig withBatchSize(int newBatchSize) {
        return new WeftReactConfig(tuning, newBatchSize, fair);
    }

    /**
     * @return a copy that spawns every actor on the fair scheduler (one thread, Prokopec 2016, §4)
     */
    public WeftReactConfig onFairScheduler() {
        return new WeftReactConfig(tuning, batchSize, true);
    }

    /**
     * Builds a fresh actor system with these settings.
     *
     * @return the kit, named {@code weft} or {@code weft-fair}; close it when done
     */
    public Kit create() {
        return new WeftReactKit(this);
    }
}
