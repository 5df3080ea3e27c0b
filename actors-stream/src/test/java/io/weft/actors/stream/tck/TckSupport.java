package io.weft.actors.stream.tck;

import io.weft.actors.ActorSystem;
import io.weft.actors.stream.Stage;

/** The system and stages shared by the TCK verifications. */
final class TckSupport {

    /** Generous: CI machines are small and may be busy; a wait only lasts this long when a signal is missing. */
    static final long TIMEOUT_MILLIS = 2_000;
    static final long NO_SIGNAL_MILLIS = 100;

    private TckSupport() {
    }

    static ActorSystem newSystem(String name) {
        return ActorSystem.builder().name(name).parallelism(2).build();
    }

    /** Passes items through. */
    static final class Identity<T> extends Stage<T, T> {
        @Override
        protected void consume(T item) {
            emit(item);
        }
    }

    /** Swallows items. */
    static final class Sink<T> extends Stage<T, Void> {
        @Override
        protected void consume(T item) {
        }
    }

    /** An endless count, read lazily. */
    static Iterable<Long> range(long n) {
        return () -> new java.util.Iterator<>() {
            long i;

            @Override
            public boolean hasNext() {
                return i < n;
            }

            @Override
            public Long next() {
                if (i >= n) {
                    throw new java.util.NoSuchElementException();
                }
                return i++;
            }
        };
    }
}
