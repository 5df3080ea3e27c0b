package io.weft.actors.bench.stream;

import io.weft.actors.ActorSystem;
import io.weft.actors.bench.stream.PipelineBench.Tuple;
import io.weft.actors.stream.Feeder;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.Stage;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;

/**
 * The 2-stage pipeline's per-item cost split into its two sides, each measured alone: the producer
 * fills a queue whose consumer is held (so no cache line moves between the cores meanwhile), then
 * the consumer drains it while the producer waits. For a typed sink stage fed by {@code put} or by
 * a {@link Feeder}, and for the hand-written baseline (a JCTools SPSC queue's {@code offer}, then a
 * thread's {@code poll} loop). Run by {@code stream items}.
 */
final class ItemCostBench {

    /* design
     * One batch is BATCH tuples; the stage's queue and the baseline's hold BATCH + 1 (one ring
     * array each: below StageInput's RING_MAX, so the stage's queue is not the chunked one). The
     * stage's sink holds its first item (a gate) until the producer has put the whole batch, then
     * releases; it times the batch from the first item after the gate to the last; its per-item
     * code has two compares more than the baseline's loop (the gate and the last item). Both sides
     * see the same tuples and do the same work per tuple (count and checksum, as PipelineBench's
     * sinks). Best and median over the batches, in ns per tuple.
     */

    static final int BATCH = 1 << 15;

    private ItemCostBench() {
    }

    /** A sink that holds its first item until released, then times the rest. */
    static final class GatedSink extends Stage<Tuple, Void> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        long count;
        long check;
        long first;
        long last;

        @Override
        protected void consume(Tuple item) throws Exception {
            if (count++ == 0) {
                entered.countDown();
                release.await();
                first = System.nanoTime();
                return;
            }
            check += item.value();
            if (count == BATCH + 1) {
                last = System.nanoTime();
            }
        }
    }

    /**
     * One batch through a typed sink stage.
     *
     * @param system the system
     * @param feeder whether the batch goes through a {@link Feeder} (else the inlet's {@code put})
     * @return producer and consumer ns per tuple
     * @throws Exception on failure
     */
    static double[] stage(ActorSystem system, boolean feeder) throws Exception {
        GatedSink sink = new GatedSink();
        sink.withCapacity(BATCH + 1);
        RunningPipeline<Tuple> run = sink.start(system);
        Tuple[] items = tuples();
        double prod;
        if (feeder) {
            try (Feeder<Tuple> f = run.feeder()) {
                f.put(items[0]);
                sink.entered.await(1, TimeUnit.MINUTES);
                long t0 = System.nanoTime();
                for (int i = 1; i <= BATCH; i++) {
                    f.put(items[i]);
                }
                prod = (System.nanoTime() - t0) / (double) BATCH;
            }
        } else {
            run.put(items[0]);
            sink.entered.await(1, TimeUnit.MINUTES);
            long t0 = System.nanoTime();
            for (int i = 1; i <= BATCH; i++) {
                run.put(items[i]);
            }
            prod = (System.nanoTime() - t0) / (double) BATCH;
        }
        sink.release.countDown();
        run.complete();
        run.completion().get(1, TimeUnit.MINUTES);
        if (sink.count != BATCH + 1) {
            throw new AssertionError("stage: sink saw " + sink.count);
        }
        return new double[] {prod, (sink.last - sink.first) / (double) (BATCH - 1)};
    }

    /**
     * One batch through the baseline's queue: offers, then a thread's poll loop.
     *
     * @return producer and consumer ns per tuple
     * @throws Exception on failure
     */
    static double[] queue() throws Exception {
        SpscAtomicArrayQueue<Tuple> q = new SpscAtomicArrayQueue<>(BATCH + 1);
        Tuple[] items = tuples();
        long t0 = System.nanoTime();
        for (int i = 1; i <= BATCH; i++) {
            q.offer(items[i]);
        }
        double prod = (System.nanoTime() - t0) / (double) BATCH;
        long[] out = new long[3];
        Thread c = Thread.ofPlatform().start(() -> {
            Tuple t = q.poll();
            long first = System.nanoTime();
            long check = 0;
            long n = 1;
            while ((t = q.poll()) != null) {
                check += t.value();
                n++;
            }
            out[0] = n;
            out[1] = System.nanoTime() - first;
            out[2] = check;
        });
        c.join();
        if (out[0] != BATCH) {
            throw new AssertionError("queue: consumer saw " + out[0]);
        }
        return new double[] {prod, out[1] / (double) (BATCH - 1)};
    }

    private static Tuple[] tuples() {
        Tuple[] t = new Tuple[BATCH + 1];
        for (int i = 0; i < t.length; i++) {
            t[i] = new Tuple(i, i, i);
        }
        return t;
    }

    /**
     * Runs {@code batches} batches of each variant, alternating, and prints best and median.
     *
     * @param system the system
     * @param batches batches per variant
     * @throws Exception on failure
     */
    static void report(ActorSystem system, int batches) throws Exception {
        String[] names = {"stage put", "stage feeder", "spsc queue"};
        double[][][] r = new double[3][2][batches];
        for (int b = 0; b < batches; b++) {
            for (int v = 0; v < 3; v++) {
                double[] x = v == 2 ? queue() : stage(system, v == 1);
                r[v][0][b] = x[0];
                r[v][1][b] = x[1];
            }
        }
        System.out.printf(Locale.ROOT, "== per-item cost, each side alone, ns per tuple (%d batches of %d)%n", batches, BATCH);
        for (int v = 0; v < 3; v++) {
            double[] p = r[v][0].clone();
            double[] c = r[v][1].clone();
            Arrays.sort(p);
            Arrays.sort(c);
            System.out.printf(Locale.ROOT, "  %-13s producer best %6.2f median %6.2f   consumer best %6.2f median %6.2f%n",
                    names[v], p[0], p[batches / 2], c[0], c[batches / 2]);
        }
    }
}
