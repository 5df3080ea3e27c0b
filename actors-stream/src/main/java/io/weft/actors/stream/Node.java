package io.weft.actors.stream;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.stream.internal.Graph;

/**
 * A piece of a streaming network that consumes {@code I} and emits {@code O}: a {@link Stage}, a
 * {@link Pipeline} or a {@link Farm}. Nodes compose and nest (Rinaldi et al. 2020, Fig. 2–3); they are
 * descriptions until {@link #start(ActorSystem)} turns them into running stages.
 *
 * @param <I> the input type
 * @param <O> the output type
 */
public sealed interface Node<I, O> permits Stage, Pipeline, Farm {

    /**
     * Starts this node on {@code system}'s schedulers. The last stages' output has nowhere to go:
     * they must not emit (a sink), or their {@code emit} throws {@link IllegalStateException}.
     *
     * @param system the system whose schedulers run the stages
     * @return the running network, fed through its inlet
     */
    default RunningPipeline<I> start(ActorSystem system) {
        return Graph.start(system, this, null);
    }

    /**
     * Starts this node, sending everything the last stages emit to {@code downstream} with
     * {@link ActorRef#tell(Object)}.
     *
     * @param system the system whose schedulers run the stages
     * @param downstream the actor that receives the output
     * @return the running network
     */
    default RunningPipeline<I> start(ActorSystem system, ActorRef<? super O> downstream) {
        java.util.Objects.requireNonNull(downstream, "downstream");
        return Graph.start(system, this, Graph.toRef(downstream));
    }
}
