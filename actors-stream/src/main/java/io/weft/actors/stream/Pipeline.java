package io.weft.actors.stream;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Nodes in a chain (Rinaldi et al. 2020, Fig. 2): each emits into the next. When a farm follows a farm, the
 * second farm's policy runs in the emitting stages of the first, with no router in between
 * (Fig. 8).
 *
 * @param <I> the first node's input type
 * @param <O> the last node's output type
 */
public final class Pipeline<I, O> implements Node<I, O> {

    private final List<Node<?, ?>> nodes;

    private Pipeline(List<Node<?, ?>> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /**
     * @param a the only node
     * @param <I> input
     * @param <O> output
     * @return a one-node pipeline
     */
    public static <I, O> Pipeline<I, O> of(Node<I, O> a) {
        return new Pipeline<>(List.of(Objects.requireNonNull(a, "a")));
    }

    /**
     * @param a first
     * @param b second
     * @param <I> input
     * @param <X> between a and b
     * @param <O> output
     * @return the chain a, b
     */
    public static <I, X, O> Pipeline<I, O> of(Node<I, X> a, Node<X, O> b) {
        return Pipeline.of(a).then(b);
    }

    /**
     * @param a first
     * @param b second
     * @param c third
     * @param <I> input
     * @param <X> between a and b
     * @param <Y> between b and c
     * @param <O> output
     * @return the chain a, b, c
     */
    public static <I, X, Y, O> Pipeline<I, O> of(Node<I, X> a, Node<X, Y> b, Node<Y, O> c) {
        return Pipeline.of(a).then(b).then(c);
    }

    /**
     * @param a first
     * @param b second
     * @param c third
     * @param d fourth
     * @param <I> input
     * @param <X> between a and b
     * @param <Y> between b and c
     * @param <Z> between c and d
     * @param <O> output
     * @return the chain a, b, c, d
     */
    public static <I, X, Y, Z, O> Pipeline<I, O> of(Node<I, X> a, Node<X, Y> b, Node<Y, Z> c, Node<Z, O> d) {
        return Pipeline.of(a).then(b).then(c).then(d);
    }

    /**
     * @param next the node to append
     * @param <R> its output
     * @return a new, longer pipeline
     */
    public <R> Pipeline<I, R> then(Node<O, R> next) {
        List<Node<?, ?>> all = new ArrayList<>(nodes);
        all.add(Objects.requireNonNull(next, "next"));
        return new Pipeline<>(all);
    }

    /** @return the nodes, in order */
    public List<Node<?, ?>> nodes() {
        return nodes;
    }

    @Override
    public String toString() {
        return "Pipeline" + nodes;
    }
}
