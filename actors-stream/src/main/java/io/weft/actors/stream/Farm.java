package io.weft.actors.stream;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code n} replicas of a node, fed by a distribution {@link Policy} (Rinaldi et al. 2020, Fig. 2). The
 * policy runs in whatever emits into the farm; there is no router stage. A farm finishes when all
 * of its replicas have finished; their outputs merge into the next node.
 *
 * @param <I> the input type
 * @param <O> the output type
 */
public final class Farm<I, O> implements Node<I, O> {

    private final int replicas;
    private final Supplier<? extends Node<I, O>> factory;
    private final Policy<? super I> policy;

    private Farm(int replicas, Supplier<? extends Node<I, O>> factory, Policy<? super I> policy) {
        this.replicas = replicas;
        this.factory = factory;
        this.policy = policy;
    }

    /**
     * @param replicas how many workers, at least 1
     * @param factory makes each worker (a new stage, pipeline or farm per call)
     * @param policy how items are distributed
     * @param <I> input
     * @param <O> output
     * @return the farm
     */
    public static <I, O> Farm<I, O> of(int replicas, Supplier<? extends Node<I, O>> factory, Policy<? super I> policy) {
        if (replicas < 1) {
            throw new IllegalArgumentException("replicas: must be at least 1, was " + replicas);
        }
        return new Farm<>(replicas, Objects.requireNonNull(factory, "factory"), Objects.requireNonNull(policy, "policy"));
    }

    /** @return the number of replicas */
    public int replicas() {
        return replicas;
    }

    /** @return the worker factory */
    public Supplier<? extends Node<I, O>> factory() {
        return factory;
    }

    /** @return the distribution policy */
    public Policy<? super I> policy() {
        return policy;
    }

    @Override
    public String toString() {
        return "Farm[" + replicas + ", " + policy.kind() + "]";
    }
}
