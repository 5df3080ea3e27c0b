package io.weft.actors.stream.internal;

import io.weft.actors.stream.Policy;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/** The built-in farm policies; their {@code select} is a fallback, outlets switch on the kind. */
public final class Policies {

    private Policies() {
    }

    private record Builtin<T>(Policy.Kind kind) implements Policy<T> {
        @Override
        public int select(T item, int replicas) {
            return ThreadLocalRandom.current().nextInt(replicas);
        }
    }

    private record ByKey<T>(Function<? super T, ?> key) implements Policy<T> {
        @Override
        public int select(T item, int replicas) {
            int h = Objects.hashCode(key.apply(item));
            h ^= h >>> 16;
            return Math.floorMod(h, replicas);
        }

        @Override
        public Kind kind() {
            return Kind.BY_KEY;
        }
    }

    private static final Policy<Object> ROUND_ROBIN = new Builtin<>(Policy.Kind.ROUND_ROBIN);
    private static final Policy<Object> RANDOM = new Builtin<>(Policy.Kind.RANDOM);
    private static final Policy<Object> BROADCAST = new Builtin<>(Policy.Kind.BROADCAST);

    /**
     * @param <T> the item type
     * @return round robin
     */
    @SuppressWarnings("unchecked")
    public static <T> Policy<T> roundRobin() {
        return (Policy<T>) ROUND_ROBIN;
    }

    /**
     * @param <T> the item type
     * @return random
     */
    @SuppressWarnings("unchecked")
    public static <T> Policy<T> random() {
        return (Policy<T>) RANDOM;
    }

    /**
     * @param <T> the item type
     * @return broadcast
     */
    @SuppressWarnings("unchecked")
    public static <T> Policy<T> broadcast() {
        return (Policy<T>) BROADCAST;
    }

    /**
     * @param key the key function
     * @param <T> the item type
     * @return by key
     */
    public static <T> Policy<T> byKey(Function<? super T, ?> key) {
        return new ByKey<>(Objects.requireNonNull(key, "key"));
    }
}
