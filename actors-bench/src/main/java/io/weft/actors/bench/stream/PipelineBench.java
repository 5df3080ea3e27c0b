package io.weft.actors.bench.stream;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.stream.Feeder;
import io.weft.actors.stream.Pipeline;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.Stage;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;

/**
 * Seed 002 §4 microbenchmarks: the three-stage pipeline (source, forwarder, sink; 24-byte tuples)
 * at maximum rate, and the producer-consumer send cost, for typed stages (fed through the shared
 * inlet's {@code put} or through a {@link Feeder}), plain actors and hand-written threads joined by
 * JCTools SPSC queues. Every sink does the same work per tuple: it counts it and adds its value to a
 * checksum (so each reads the tuple, as a real sink would).
 */
public final class PipelineBench {

    private static final java.util.concurrent.atomic.AtomicLong IDS = new java.util.concurrent.atomic.AtomicLong();

    private PipelineBench() {
    }

    /** The 24-byte tuple of Rinaldi et al. 2020, §4. */
    public record Tuple(long key, long value, long timestamp) {
    }

    /** Marks the end of the stream for the actor and thread versions. */
    private static final Tuple END = new Tuple(-1, -1, -1);

    /** Forwards its input. */
    static final class Forward extends Stage<Tuple, Tuple> {
        @Override
        protected void consume(Tuple item) {
            emit(item);
        }
    }

    /** Counts its input. */
    static final class Count extends Stage<Tuple, Void> {
        long count;
        long check;

        @Override
        protected void consume(Tuple item) {
            count++;
            check += item.value();
        }
    }

    /**
     * Typed stages: the calling thread is the source (blocking emit), then forwarder and sink stages.
     *
     * @param system the system
     * @param n tuples
     * @return tuples per second
     * @throws Exception on failure
     */
    static double stages(ActorSystem system, long n) throws Exception {
        return stages(system, n, 1);
    }

    /**
     * Typed stages: the calling thread is the source (blocking emit), then {@code forwarders}
     * forwarder stages (0 or 1) and a sink stage.
     *
     * @param system the system
     * @param n tuples
     * @param forwarders 1 for the 3-stage pipeline, 0 for source and sink only
     * @return tuples per second
     * @throws Exception on failure
     */
    static double stages(ActorSystem system, long n, int forwarders) throws Exception {
        Count sink = new Count();
        RunningPipeline<Tuple> run = forwarders == 0 ? sink.start(system) : Pipeline.of(new Forward(), sink).start(system);
        long t0 = System.nanoTime();
        for (long i = 0; i < n; i++) {
            run.put(new Tuple(i, i, t0));
        }
        run.complete();
        run.completion().get(10, TimeUnit.MINUTES);
        long t1 = System.nanoTime();
        if (sink.count != n) {
            throw new AssertionError("stages: sink saw " + sink.count + " of " + n);
        }
        return n * 1e9 / (t1 - t0);
    }

    /**
     * Typed stages fed through a {@link Feeder}: the calling thread is the source, with its own
     * SPSC lane into the first stage, then {@code forwarders} forwarder stages (0 or 1) and a sink.
     *
     * @param system the system
     * @param n tuples
     * @param forwarders 1 for the 3-stage pipeline, 0 for source and sink only
     * @return tuples per second
     * @throws Exception on failure
     */
    static double feeder(ActorSystem system, long n, int forwarders) throws Exception {
        Count sink = new Count();
        RunningPipeline<Tuple> run = forwarders == 0 ? sink.start(system) : Pipeline.of(new Forward(), sink).start(system);
        long t0 = System.nanoTime();
        try (Feeder<Tuple> f = run.feeder()) {
            for (long i = 0; i < n; i++) {
                f.put(new Tuple(i, i, t0));
            }
        }
        run.complete();
        run.completion().get(10, TimeUnit.MINUTES);
        long t1 = System.nanoTime();
        if (sink.count != n) {
            throw new AssertionError("feeder: sink saw " + sink.count + " of " + n);
        }
        return n * 1e9 / (t1 - t0);
    }

    /**
     * Plain actors: the calling thread tells a forwarder actor, which tells a sink actor.
     *
     * @param system the system
     * @param n tuples
     * @return tuples per second
     * @throws Exception on failure
     */
    static double actors(ActorSystem system, long n) throws Exception {
        return actors(system, n, 1);
    }

    /**
     * Plain actors: the calling thread tells {@code forwarders} forwarder actors (0 or 1) in a chain
     * ending in a sink actor.
     *
     * @param system the system
     * @param n tuples
     * @param forwarders 1 for the 3-stage pipeline, 0 for source and sink only
     * @return tuples per second
     * @throws Exception on failure
     */
    static double actors(ActorSystem system, long n, int forwarders) throws Exception {
        return actors(system, n, forwarders, false);
    }

    /**
     * Plain actors: the calling thread tells {@code forwarders} forwarder actors (0 or 1) in a chain
     * ending in a sink actor; each actor either re-arms its handler per message in the style
     * {@code loop(() -> react(handler built per message))} or is {@code become(handler)} with
     * the handler built once.
     *
     * @param system the system
     * @param n tuples
     * @param forwarders 1 for the 3-stage pipeline, 0 for source and sink only
     * @param become whether the actors use {@code become} (handler built once)
     * @return tuples per second
     * @throws Exception on failure
     */
    static double actors(ActorSystem system, long n, int forwarders, boolean become) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        long[] count = new long[2]; // count, checksum: the work of the stage sink (Count)
        java.util.function.Supplier<Receive<Object, ?>> sinkHandler = () -> Receive.handler()
                .match(Tuple.class, t -> {
                    if (t == END) {
                        done.countDown();
                    } else {
                        count[0]++;
                        count[1] += t.value();
                    }
                }).build();
        ActorRef<Object> sink = system.spawn("sink-" + IDS.incrementAndGet(), become
                ? self -> self.become(sinkHandler.get())
                : self -> self.loop(() -> self.react(sinkHandler.get())));
        java.util.function.Supplier<Receive<Object, ?>> fwdHandler = () -> Receive.handler()
                .match(Tuple.class, sink::tell).build();
        ActorRef<Object> forwarder = forwarders == 0 ? sink
                : system.spawn("forwarder-" + IDS.incrementAndGet(), become
                        ? self -> self.become(fwdHandler.get())
                        : self -> self.loop(() -> self.react(fwdHandler.get())));
        long t0 = System.nanoTime();
        for (long i = 0; i < n; i++) {
            forwarder.tell(new Tuple(i, i, t0));
        }
        forwarder.tell(END);
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new AssertionError("actors: timed out");
        }
        long t1 = System.nanoTime();
        if (count[0] != n) {
            throw new AssertionError("actors: sink saw " + count[0] + " of " + n);
        }
        return n * 1e9 / (t1 - t0);
    }

    private static void spinOffer(SpscAtomicArrayQueue<Tuple> q, Tuple t) {
        int spins = 0;
        while (!q.offer(t)) {
            if (++spins > 64) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }

    private static Tuple spinPoll(SpscAtomicArrayQueue<Tuple> q) {
        int spins = 0;
        Tuple t;
        while ((t = q.poll()) == null) {
            if (++spins > 64) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
        return t;
    }

    /**
     * The hand-written baseline: three threads (the caller is the source) and two SPSC queues.
     *
     * @param n tuples
     * @return tuples per second
     * @throws Exception on failure
     */
    static double threads(long n) throws Exception {
        return threads(n, 1);
    }

    /**
     * The hand-written baseline: the caller is the source, then {@code forwarders} forwarder
     * threads (0 or 1) and a sink thread, joined by SPSC queues.
     *
     * @param n tuples
     * @param forwarders 1 for three threads on two queues, 0 for two threads on one queue
     * @return tuples per second
     * @throws Exception on failure
     */
    static double threads(long n, int forwarders) throws Exception {
        SpscAtomicArrayQueue<Tuple> q1 = new SpscAtomicArrayQueue<>(4096);
        SpscAtomicArrayQueue<Tuple> q2 = forwarders == 0 ? q1 : new SpscAtomicArrayQueue<>(4096);
        long[] count = new long[2]; // count, checksum: the work of the stage sink (Count)
        Thread fwd = forwarders == 0 ? null : Thread.ofPlatform().start(() -> {
            for (;;) {
                Tuple t = spinPoll(q1);
                spinOffer(q2, t);
                if (t == END) {
                    return;
                }
            }
        });
        Thread sink = Thread.ofPlatform().start(() -> {
            for (;;) {
                Tuple t = spinPoll(q2);
                if (t == END) {
                    return;
                }
                count[0]++;
                count[1] += t.value();
            }
        });
        long t0 = System.nanoTime();
        for (long i = 0; i < n; i++) {
            spinOffer(q1, new Tuple(i, i, t0));
        }
        spinOffer(q1, END);
        if (fwd != null) {
            fwd.join();
        }
        sink.join();
        long t1 = System.nanoTime();
        if (count[0] != n) {
            throw new AssertionError("threads: sink saw " + count[0] + " of " + n);
        }
        return n * 1e9 / (t1 - t0);
    }

    /**
     * Producer-consumer: the producer's average cost per send, in ns (Rinaldi et al. 2020, Fig. 5, 10).
     *
     * @param system the system
     * @param kind stage, actor or queue
     * @param n messages
     * @return nanoseconds per message, producer side, including the drain of the consumer
     * @throws Exception on failure
     */
    static double prodCons(ActorSystem system, String kind, long n) throws Exception {
        Integer msg = 7;
        long t0 = System.nanoTime();
        switch (kind) {
            case "stage" -> {
                Stage<Integer, Void> c = new Stage<>() {
                    long seen;

                    @Override
                    protected void consume(Integer item) {
                        seen++;
                    }
                };
                RunningPipeline<Integer> run = c.start(system);
                t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    run.put(msg);
                }
                run.complete();
                run.completion().get(10, TimeUnit.MINUTES);
            }
            case "actor" -> {
                CountDownLatch done = new CountDownLatch(1);
                long[] seen = new long[1];
                ActorRef<Integer> c = system.spawn("consumer-" + IDS.incrementAndGet(), self -> self.loop(() -> self.react(Receive.<Integer>handler()
                        .match(Integer.class, x -> {
                            if (++seen[0] == n) {
                                done.countDown();
                            }
                        }).build())));
                t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    c.tell(msg);
                }
                done.await(10, TimeUnit.MINUTES);
            }
            case "queue" -> {
                SpscAtomicArrayQueue<Integer> q = new SpscAtomicArrayQueue<>(4096);
                Thread c = Thread.ofPlatform().start(() -> {
                    long seen = 0;
                    int spins = 0;
                    while (seen < n) {
                        if (q.poll() != null) {
                            seen++;
                            spins = 0;
                        } else if (++spins > 64) {
                            Thread.yield();
                        }
                    }
                });
                t0 = System.nanoTime();
                for (long i = 0; i < n; i++) {
                    int spins = 0;
                    while (!q.offer(msg)) {
                        if (++spins > 64) {
                            Thread.yield();
                        }
                    }
                }
                c.join();
            }
            default -> throw new IllegalArgumentException("kind: stage, actor or queue, was " + kind);
        }
        return (System.nanoTime() - t0) / (double) n;
    }
}
