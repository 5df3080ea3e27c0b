package io.weft.actors.stream;

import io.weft.actors.ActorSystem;
import io.weft.actors.stream.internal.FlowProcessor;
import io.weft.actors.stream.internal.IterablePublisher;
import java.util.Objects;
import java.util.concurrent.Flow;

/**
 * {@link java.util.concurrent.Flow} adapters: a network of stages as a {@link Flow.Processor},
 * {@link Flow.Subscriber} or {@link Flow.Publisher}, with demand-based backpressure at the edges
 * (verified by the Reactive Streams TCK). Inside, the stages keep their bounded typed queues.
 *
 * <p>Backpressure: the subscriber side requests {@code buffer} items up front and requests more
 * only as the network's first stage consumes them and while the output buffer holds fewer than
 * {@code buffer} items; the publisher side emits only what the downstream requested. Each
 * processor supports one downstream subscriber (later ones get {@code onError}).
 */
public final class FlowStreams {

    private FlowStreams() {
    }

    /**
     * @param system runs the stages
     * @param node the network
     * @param buffer items requested from upstream ahead of consumption, at least 1
     * @param <I> input
     * @param <O> output
     * @return a started network as a processor
     */
    public static <I, O> Flow.Processor<I, O> processor(ActorSystem system, Node<I, O> node, int buffer) {
        return new FlowProcessor<>(system, node, checkBuffer(buffer), true);
    }

    /**
     * @param system runs the stages
     * @param node a network whose last stages do not emit (sinks)
     * @param buffer items requested ahead of consumption, at least 1
     * @param <I> input
     * @return a started network as a subscriber; it must be subscribed to at most one publisher
     */
    public static <I> Flow.Subscriber<I> subscriber(ActorSystem system, Node<I, ?> node, int buffer) {
        return new FlowProcessor<>(system, node, checkBuffer(buffer), false);
    }

    /**
     * @param system runs the stages
     * @param source the items, read lazily as demand allows
     * @param node the network they go through
     * @param buffer items in flight ahead of downstream demand, at least 1
     * @param <T> source item type
     * @param <O> output
     * @return a publisher of the network's output (one subscriber)
     */
    public static <T, O> Flow.Publisher<O> publisher(ActorSystem system, Iterable<? extends T> source, Node<T, O> node, int buffer) {
        Objects.requireNonNull(source, "source");
        FlowProcessor<T, O> p = new FlowProcessor<>(system, node, checkBuffer(buffer), true);
        new IterablePublisher<T>(source).subscribe(p);
        return p;
    }

    private static int checkBuffer(int buffer) {
        if (buffer < 1) {
            throw new IllegalArgumentException("buffer: must be at least 1, was " + buffer);
        }
        return buffer;
    }
}
