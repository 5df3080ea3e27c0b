package io.weft.actors.stream.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.stream.Farm;
import io.weft.actors.stream.Node;
import io.weft.actors.stream.Pipeline;
import io.weft.actors.stream.Policy;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.Stage;
import io.weft.actors.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Turns a node description into frames: one frame per stage, none for pipelines or farms. A farm
 * is only an outlet shape: whoever emits into it applies its policy over the replicas' entries, so
 * two consecutive farms have no router between them (Rinaldi et al. 2020, Fig. 8).
 */
public final class Graph {

    private Graph() {
    }

    /**
     * A built node: how to make an outlet into it (one per emitter), how to make a feeder's outlet
     * into it (new lanes into its first stages), and its last stages.
     */
    private record Built<I>(Supplier<Outlet<I>> entry, Supplier<Outlet<I>> lanes, List<StageFrame<?, ?>> exits) {
    }

    /**
     * @param ref the downstream actor
     * @param <O> the item type
     * @return a factory of outlets that tell {@code ref}
     */
    public static <O> Function<String, Outlet<O>> toRef(ActorRef<? super O> ref) {
        return stage -> new Outlet.ToRef<>(ref);
    }

    /**
     * Builds and starts a network.
     *
     * @param system the system whose schedulers run the stages
     * @param node the description
     * @param sink makes the last stages' outlets (given the stage name), or null for none
     * @param <I> input
     * @param <O> output
     * @return the running network
     */
    public static <I, O> RunningPipeline<I> start(ActorSystem system, Node<I, O> node,
                                                  Function<String, ? extends Outlet<O>> sink) {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(node, "node");
        Network<I> net = new Network<>(system, "stream-" + node.getClass().getSimpleName().toLowerCase(java.util.Locale.ROOT));
        Built<I> b = new Graph.Builder(system, net).build(node, 1, true);
        for (StageFrame<?, ?> f : b.exits()) {
            connectLast(f, sink);
        }
        net.start(b.entry().get(), b.lanes());
        return net;
    }

    @SuppressWarnings("unchecked")
    private static <O> void connectLast(StageFrame<?, ?> frame, Function<String, ? extends Outlet<O>> sink) {
        StageFrame<?, O> f = (StageFrame<?, O>) frame;
        f.connect(sink == null ? new Outlet.Nowhere<>(f.name()) : sink.apply(f.name()));
    }

    private static final class Builder {
        private final ActorSystem system;
        private final Network<?> net;

        Builder(ActorSystem system, Network<?> net) {
            this.system = system;
            this.net = net;
        }

        @SuppressWarnings({"unchecked", "rawtypes"})
        <I> Built<I> build(Node<I, ?> node, int producers, boolean external) {
            if (node instanceof Stage<I, ?> s) {
                return stage(s, producers, external);
            }
            if (node instanceof Pipeline<I, ?> p) {
                List<Node<?, ?>> nodes = p.nodes();
                Built<I> first = build((Node<I, ?>) nodes.get(0), producers, external);
                Built cur = first;
                for (int i = 1; i < nodes.size(); i++) {
                    Built next = build((Node) nodes.get(i), cur.exits().size(), false);
                    for (Object f : cur.exits()) {
                        ((StageFrame) f).connect((Outlet) next.entry().get());
                    }
                    cur = next;
                }
                return new Built<>(first.entry(), first.lanes(), cur.exits());
            }
            Farm<I, ?> farm = (Farm<I, ?>) node;
            List<Built<I>> replicas = new ArrayList<>();
            List<StageFrame<?, ?>> exits = new ArrayList<>();
            for (int i = 0; i < farm.replicas(); i++) {
                Node<I, ?> worker = Objects.requireNonNull(farm.factory().get(), "farm factory returned null");
                Built<I> r = build(worker, producers, external);
                replicas.add(r);
                exits.addAll(r.exits());
            }
            Policy<? super I> policy = farm.policy();
            Supplier<Outlet<I>> entry = () -> {
                Outlet<I>[] children = new Outlet[replicas.size()];
                for (int i = 0; i < children.length; i++) {
                    children[i] = replicas.get(i).entry().get();
                }
                return new Outlet.ToFarm<>(children, policy);
            };
            Supplier<Outlet<I>> lanes = () -> {
                Outlet<I>[] children = new Outlet[replicas.size()];
                for (int i = 0; i < children.length; i++) {
                    children[i] = replicas.get(i).lanes().get();
                }
                return new Outlet.ToFarm<>(children, policy);
            };
            return new Built<>(entry, lanes, exits);
        }

        /** A virtual thread per stage with actors-loom; a dedicated platform thread without it. */
        private Scheduler threadScheduler() {
            try {
                return system.schedulers().virtualThread();
            } catch (UnsupportedOperationException noLoom) {
                return system.schedulers().dedicatedThread();
            }
        }

        private <I, O> Built<I> stage(Stage<I, O> s, int producers, boolean external) {
            StageAccess a = StageAccess.get();
            Scheduler scheduler = a.onThread(s) ? threadScheduler() : system.schedulers().forkJoin();
            StageFrame<I, O> f = new StageFrame<>(net.uniqueName(a.name(s)), s, net, producers, external, scheduler);
            net.add(f);
            return new Built<>(() -> new Outlet.ToStage<>(f), () -> new Outlet.ToLane<>(f), List.of(f));
        }
    }
}
