package io.weft.actors.stream.internal;

import java.util.Iterator;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A cold publisher of an iterable's items, emitted on the thread that requests them (one drain
 * loop at a time, so no recursion between request and onNext).
 *
 * @param <T> the item type
 */
public final class IterablePublisher<T> implements Flow.Publisher<T> {

    private final Iterable<? extends T> source;

    /** @param source the items */
    public IterablePublisher(Iterable<? extends T> source) {
        this.source = source;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super T> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        Sub<T> s = new Sub<>(subscriber, source.iterator());
        subscriber.onSubscribe(s);
        s.drain();
    }

    private static final class Sub<T> implements Flow.Subscription {
        private final Flow.Subscriber<? super T> downstream;
        private final Iterator<? extends T> it;
        private final AtomicLong requested = new AtomicLong();
        private final AtomicInteger wip = new AtomicInteger();
        private volatile boolean cancelled;
        private volatile Throwable badRequest;
        private boolean done;

        Sub(Flow.Subscriber<? super T> downstream, Iterator<? extends T> it) {
            this.downstream = downstream;
            this.it = it;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                badRequest = new IllegalArgumentException("request: must be positive (§3.9), was " + n);
            } else {
                requested.getAndUpdate(r -> r + n < 0 ? Long.MAX_VALUE : r + n);
            }
            drain();
        }

        @Override
        public void cancel() {
            cancelled = true;
        }

        void drain() {
            if (wip.getAndIncrement() != 0) {
                return;
            }
            int missed = 1;
            do {
                if (!done && !cancelled) {
                    Throwable bad = badRequest;
                    if (bad != null) {
                        done = true;
                        downstream.onError(bad);
                    } else {
                        long r = requested.get();
                        long e = 0;
                        try {
                            while (e != r && !cancelled && it.hasNext()) {
                                downstream.onNext(Objects.requireNonNull(it.next(), "iterable item"));
                                e++;
                            }
                            if (!cancelled && !it.hasNext()) {
                                done = true;
                                downstream.onComplete();
                            }
                        } catch (RuntimeException ex) {
                            done = true;
                            downstream.onError(ex);
                        }
                        if (e != 0) {
                            long produced = e;
                            requested.getAndUpdate(x -> x == Long.MAX_VALUE ? x : x - produced);
                        }
                    }
                }
                missed = wip.addAndGet(-missed);
            } while (missed != 0);
        }
    }
}
