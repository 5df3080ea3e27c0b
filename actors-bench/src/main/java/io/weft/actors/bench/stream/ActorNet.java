package io.weft.actors.bench.stream;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.ToIntFunction;

/**
 * The plain-actor version of a farm pipeline, for comparison with typed stages: every operator
 * replica is an ordinary actor matching {@code Object} messages, routing is done by the sender (the
 * same router-free topology as the stages), and end of stream is a marker counted at each join.
 * Mailboxes are unbounded and there is no flow control (actors have no queue-length query).
 */
final class ActorNet {

    private static final Object END = new Object();
    private static final AtomicLong IDS = new AtomicLong();

    private ActorNet() {
    }

    /** An operator's logic, one instance per replica. */
    interface Op {
        /**
         * @param item the input
         * @param out sends to the next layer
         */
        void accept(Object item, Consumer<Object> out);

        /**
         * Called once all producers have ended.
         *
         * @param out sends to the next layer
         */
        default void end(Consumer<Object> out) {
        }
    }

    /**
     * A layer of replicas.
     *
     * @param name the actor name prefix
     * @param replicas how many
     * @param op makes each replica's logic
     * @param key routes items into this layer by key; null for round robin
     */
    record Layer(String name, int replicas, Supplier<Op> op, ToIntFunction<Object> key) {
    }

    private static Consumer<Object> router(List<ActorRef<Object>> targets, ToIntFunction<Object> key) {
        if (targets.isEmpty()) {
            return x -> {
                throw new IllegalStateException("the last layer emitted");
            };
        }
        int[] next = new int[1];
        int n = targets.size();
        return x -> {
            int i;
            if (key == null) {
                i = next[0];
                next[0] = i + 1 == n ? 0 : i + 1;
            } else {
                int h = key.applyAsInt(x);
                i = Math.floorMod(h ^ (h >>> 16), n);
            }
            targets.get(i).tell(x);
        };
    }

    /**
     * Spawns the layers, feeds {@code items} from the calling thread, waits for the end.
     *
     * @param system the system
     * @param items the input
     * @param layers the operators, first to last (the last is the sink)
     * @return items per second
     * @throws Exception on failure
     */
    static double run(ActorSystem system, List<?> items, List<Layer> layers) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        List<ActorRef<Object>> next = List.of();
        ToIntFunction<Object> nextKey = null;
        for (int l = layers.size() - 1; l >= 0; l--) {
            Layer layer = layers.get(l);
            int producers = l == 0 ? 1 : layers.get(l - 1).replicas();
            boolean last = l == layers.size() - 1;
            List<ActorRef<Object>> mine = new ArrayList<>();
            for (int r = 0; r < layer.replicas(); r++) {
                Op op = layer.op().get();
                Consumer<Object> out = router(next, nextKey);
                List<ActorRef<Object>> downstream = next;
                int[] ends = new int[1];
                mine.add(system.spawn(layer.name() + "-" + r + "-" + IDS.incrementAndGet(), self -> self.loop(() -> self.react(
                        Receive.handler().matchAny(m -> {
                            if (m == END) {
                                if (++ends[0] == producers) {
                                    op.end(out);
                                    if (last) {
                                        done.countDown();
                                    } else {
                                        downstream.forEach(a -> a.tell(END));
                                    }
                                }
                            } else {
                                op.accept(m, out);
                            }
                        }).build()))));
            }
            next = mine;
            nextKey = layer.key();
        }
        if (layers.get(layers.size() - 1).replicas() != 1) {
            throw new IllegalArgumentException("the sink layer must have one replica");
        }
        Consumer<Object> source = router(next, nextKey);
        long t0 = System.nanoTime();
        for (Object x : items) {
            source.accept(x);
        }
        next.forEach(a -> a.tell(END));
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new AssertionError("actor network timed out");
        }
        return items.size() * 1e9 / (System.nanoTime() - t0);
    }
}
