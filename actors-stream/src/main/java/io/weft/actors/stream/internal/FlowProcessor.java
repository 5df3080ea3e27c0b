package io.weft.actors.stream.internal;

import io.weft.actors.ActorSystem;
import io.weft.actors.stream.Node;
import io.weft.actors.stream.Pipeline;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.Stage;
import io.weft.actors.stream.StageFailedException;
import java.util.Objects;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.jctools.queues.atomic.MpscUnboundedAtomicArrayQueue;

/**
 * A network of stages as a {@link Flow.Processor}.
 *
 * @param <I> input
 * @param <O> output
 */
public final class FlowProcessor<I, O> implements Flow.Processor<I, O> {

    /* design
     * Input: a gate stage in front of the user's node counts consumed items as credit; credit is
     * requested from upstream in batches (>= buffer/4) while the output buffer holds fewer than
     * `buffer` items, else left pending until the downstream drains the buffer. So at most
     * `buffer` items are requested but not yet consumed by the gate (its queue never overflows).
     * Output: the last stages emit into an unbounded MPSC buffer, bounded in practice by the
     * credit rule (for 1:1 stages: about buffer x (stages + 1)); a classic wip-guarded drain loop
     * (one thread at a time, no recursion, rule 3.3) delivers up to the downstream's demand.
     * Terminal state comes from the network's completion future.
     * Conditional emits (emitIfBelow; the last stages of a farm emit concurrently) check the
     * buffer's length and offer under `conditional`, a ReentrantLock (never a monitor: a virtual
     * thread may emit), so no two of them take the same last place below their limit; the drain
     * only shrinks the buffer meanwhile. emit takes no lock.
     */

    private final int buffer;
    private final int batch;
    private final boolean hasOutput;
    private final RunningPipeline<I> net;
    private final MpscUnboundedAtomicArrayQueue<O> out = new MpscUnboundedAtomicArrayQueue<>(256);
    /** Serializes conditional emits into {@code out} (emitIfBelow), so that their limit holds. */
    private final ReentrantLock conditional = new ReentrantLock();
    private final AtomicReference<Flow.Subscription> upstream = new AtomicReference<>();
    /** The downstream; dropped (null) after cancel or a terminal signal (rule 3.13). */
    private volatile Flow.Subscriber<? super O> downstream;
    private final AtomicLong credit = new AtomicLong();
    private final AtomicLong requested = new AtomicLong();
    private final AtomicInteger wip = new AtomicInteger();
    private volatile boolean done;
    private volatile Throwable error;
    private volatile boolean cancelled;
    private volatile boolean upstreamTerminated;
    private final java.util.concurrent.atomic.AtomicBoolean subscribed = new java.util.concurrent.atomic.AtomicBoolean();
    private boolean terminated;

    /**
     * @param system runs the stages
     * @param node the network
     * @param buffer the credit
     * @param hasOutput whether the node's output goes to a downstream subscriber
     */
    public FlowProcessor(ActorSystem system, Node<I, ?> node, int buffer, boolean hasOutput) {
        this.buffer = buffer;
        this.batch = Math.max(1, buffer / 4);
        this.hasOutput = hasOutput;
        Stage<I, I> gate = new Stage<>() {
            @Override
            protected void consume(I item) {
                emit(item);
                consumedOne();
            }
        };
        gate.named("flow-inlet").withCapacity(Math.max(4, buffer));
        @SuppressWarnings("unchecked")
        Node<I, O> typed = (Node<I, O>) node;
        this.net = Graph.start(system, Pipeline.of(gate, typed), hasOutput ? name -> new ToBuffer() : null);
        net.completion().whenComplete((v, t) -> {
            if (t != null) {
                Throwable cause = t;
                if (t instanceof StageFailedException f && "inlet".equals(f.stage()) && f.getCause() != null) {
                    cause = f.getCause(); // the upstream's own error, as it was signalled
                }
                if (error == null) {
                    error = cause;
                }
                if (!upstreamTerminated) { // rule 2.3: never cancel from within onError/onComplete
                    Flow.Subscription s = upstream.get();
                    if (s != null) {
                        s.cancel();
                    }
                }
            }
            done = true;
            drain();
        });
    }

    private final class ToBuffer extends Outlet<O> {
        @Override
        public boolean emit(O item) {
            out.offer(item);
            drain();
            return true;
        }

        @Override
        public boolean tryEmit(O item) {
            return emit(item);
        }

        @Override
        public boolean emitIfBelow(O item, int limit) {
            conditional.lock();
            try {
                if (out.size() >= limit) {
                    return false;
                }
                out.offer(item);
            } finally {
                conditional.unlock();
            }
            drain();
            return true;
        }

        @Override
        public int queueLength() {
            return out.size();
        }

        @Override
        public void complete() {
        }
    }

    private void consumedOne() {
        if (credit.incrementAndGet() >= batch) {
            replenish();
        }
    }

    private void replenish() {
        Flow.Subscription s = upstream.get();
        if (s == null || (hasOutput && out.size() >= buffer)) {
            return;
        }
        long c = credit.get();
        if (c >= batch && credit.compareAndSet(c, 0)) {
            s.request(c);
        }
    }

    // ------------------------------------------------------------ Subscriber side

    @Override
    public void onSubscribe(Flow.Subscription subscription) {
        Objects.requireNonNull(subscription, "subscription");
        if (!upstream.compareAndSet(null, subscription) || cancelled) {
            subscription.cancel(); // rule 2.5: one subscription at a time
            return;
        }
        subscription.request(buffer);
    }

    @Override
    public void onNext(I item) {
        Objects.requireNonNull(item, "item");
        if (!net.offer(item) && !done && !cancelled) {
            net.fail(new IllegalStateException("upstream sent more than requested (rule 1.1); buffer " + buffer));
        }
    }

    @Override
    public void onError(Throwable throwable) {
        Objects.requireNonNull(throwable, "throwable");
        upstreamTerminated = true;
        if (error == null) {
            // known now: whatever way the network then ends, the downstream gets this error,
            // never onComplete (seen once as a race in TCK rule 1.9)
            error = throwable;
        }
        net.fail(throwable);
    }

    @Override
    public void onComplete() {
        upstreamTerminated = true;
        net.complete();
    }

    // ------------------------------------------------------------ Publisher side

    @Override
    public void subscribe(Flow.Subscriber<? super O> subscriber) {
        Objects.requireNonNull(subscriber, "subscriber");
        if (!hasOutput || !subscribed.compareAndSet(false, true)) {
            subscriber.onSubscribe(new Flow.Subscription() {
                @Override
                public void request(long n) {
                }

                @Override
                public void cancel() {
                }
            });
            subscriber.onError(new IllegalStateException("this stream publisher supports one subscriber"));
            return;
        }
        subscriber.onSubscribe(new Flow.Subscription() {
            @Override
            public void request(long n) {
                if (n <= 0) {
                    error = new IllegalArgumentException("request: must be positive (rule 3.9), was " + n);
                    done = true;
                    cancelUpstream();
                } else {
                    requested.getAndUpdate(r -> r + n < 0 ? Long.MAX_VALUE : r + n);
                }
                drain();
            }

            @Override
            public void cancel() {
                cancelled = true;
                downstream = null;
                cancelUpstream();
            }
        });
        // published only after onSubscribe returned (rule 1.3): requests made inside it are counted
        // and served by the drain below
        if (!cancelled) {
            downstream = subscriber;
        }
        drain();
    }

    private void cancelUpstream() {
        Flow.Subscription s = upstream.getAndSet(CANCELLED);
        if (s != null && s != CANCELLED) {
            s.cancel();
        }
        net.cancel();
    }

    private static final Flow.Subscription CANCELLED = new Flow.Subscription() {
        @Override
        public void request(long n) {
        }

        @Override
        public void cancel() {
        }
    };

    private void drain() {
        if (wip.getAndIncrement() != 0) {
            return;
        }
        int missed = 1;
        do {
            Flow.Subscriber<? super O> s = downstream;
            if (s != null && !terminated) {
                if (cancelled) {
                    terminated = true;
                    downstream = null;
                    out.clear();
                } else {
                    long r = requested.get();
                    long e = 0;
                    while (e != r && !terminated) {
                        if (cancelled) {
                            break;
                        }
                        boolean d = done;
                        Throwable err = error;
                        if (d && err != null) {
                            terminate(s, err);
                            break;
                        }
                        O v = out.poll();
                        if (v == null) {
                            if (d) {
                                terminate(s, null);
                            }
                            break;
                        }
                        s.onNext(v);
                        e++;
                    }
                    if (!terminated && e == r && done) {
                        Throwable err = error;
                        if (err != null) {
                            terminate(s, err);
                        } else if (out.isEmpty()) {
                            terminate(s, null);
                        }
                    }
                    if (e != 0) {
                        long produced = e;
                        requested.getAndUpdate(x -> x == Long.MAX_VALUE ? x : x - produced);
                    }
                    if (!terminated) {
                        replenish();
                    }
                }
            }
            missed = wip.addAndGet(-missed);
        } while (missed != 0);
    }

    private void terminate(Flow.Subscriber<? super O> s, Throwable err) {
        terminated = true;
        downstream = null;
        out.clear();
        if (cancelled) {
            // The subscriber cancelled while this drain ran (its cancel also fails the network
            // with a CancellationException): it must get no further signal (rules 1.8, 3.13).
            return;
        }
        if (err != null) {
            s.onError(err);
        } else {
            s.onComplete();
        }
    }
}
