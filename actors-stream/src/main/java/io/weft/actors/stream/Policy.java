package io.weft.actors.stream;

import io.weft.actors.stream.internal.Policies;
import java.util.function.Function;

/**
 * How a {@link Farm} distributes items over its replicas. The policy runs inside whoever emits
 * into the farm (an upstream stage or the inlet), never in a router stage of its own (Rinaldi et al. 2020,
 * §4, Fig. 8).
 *
 * <p>Custom policies implement {@link #select(Object, int)}; it is called by one emitting stage at
 * a time, but different upstream stages call it concurrently, so it should be stateless or
 * thread-safe.
 *
 * @param <T> the item type
 */
@FunctionalInterface
public interface Policy<T> {

    /** The distribution strategies the runtime knows; {@link #CUSTOM} for user code. */
    enum Kind {
        /** Replicas in turn; {@code emitIfBelow} tries every replica before failing. */
        ROUND_ROBIN,
        /** A random replica; {@code emitIfBelow} tries every replica before failing. */
        RANDOM,
        /** The replica chosen by a key: equal keys, same replica, so per-key order is kept. */
        BY_KEY,
        /** Every replica gets every item. */
        BROADCAST,
        /** {@link #select(Object, int)} decides. */
        CUSTOM
    }

    /**
     * Chooses the replica of {@code item}.
     *
     * @param item the item
     * @param replicas how many replicas the farm has
     * @return a replica index; taken modulo {@code replicas} (floor)
     */
    int select(T item, int replicas);

    /** @return the strategy, {@link Kind#CUSTOM} unless a built-in policy */
    default Kind kind() {
        return Kind.CUSTOM;
    }

    /**
     * @param <T> the item type
     * @return replicas in turn
     */
    static <T> Policy<T> roundRobin() {
        return Policies.roundRobin();
    }

    /**
     * @param <T> the item type
     * @return a random replica per item
     */
    static <T> Policy<T> random() {
        return Policies.random();
    }

    /**
     * @param key the key of an item; equal keys go to the same replica
     * @param <T> the item type
     * @return a by-key policy (hash of the key, floor-modulo the replica count)
     */
    static <T> Policy<T> byKey(Function<? super T, ?> key) {
        return Policies.byKey(key);
    }

    /**
     * @param <T> the item type
     * @return every item to every replica (items must be immutable or safely shareable)
     */
    static <T> Policy<T> broadcast() {
        return Policies.broadcast();
    }
}
