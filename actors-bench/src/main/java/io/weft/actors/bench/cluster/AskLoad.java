package io.weft.actors.bench.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A closed-loop ask load: {@code inFlight} virtual threads, each asking a uniformly random entity
 * and waiting for its reply before the next ask, for a fixed time. Every reply is checked (it must
 * be the entity's id) and its round trip recorded.
 *
 * @param asksPerSecond completed asks per second of the run
 * @param p50Micros median round trip in microseconds
 * @param p99Micros 99th percentile round trip in microseconds
 * @param completed asks answered right
 * @param failed asks that timed out, failed or got a wrong reply
 */
record AskLoad(double asksPerSecond, double p50Micros, double p99Micros, long completed, long failed) {

    private static final Duration ASK_TIMEOUT = Duration.ofSeconds(10);

    /**
     * Runs the load.
     *
     * @param node the asking member
     * @param ids the entity ids
     * @param inFlight concurrent asks
     * @param duration how long
     * @return the result
     * @throws InterruptedException if interrupted
     */
    static AskLoad run(BenchNode node, List<String> ids, int inFlight, Duration duration) throws InterruptedException {
        long[][] samples = new long[inFlight][];
        int[] counts = new int[inFlight];
        AtomicLong failed = new AtomicLong();
        long start = System.nanoTime();
        long end = start + duration.toNanos();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < inFlight; t++) {
            int lane = t;
            threads.add(Thread.ofVirtual().start(() -> {
                long[] mine = new long[4_096];
                int n = 0;
                ThreadLocalRandom random = ThreadLocalRandom.current();
                while (System.nanoTime() < end) {
                    String id = ids.get(random.nextInt(ids.size()));
                    long t0 = System.nanoTime();
                    try {
                        Object reply = node.ask(id, ASK_TIMEOUT).get(ASK_TIMEOUT.toSeconds() + 5, TimeUnit.SECONDS);
                        if (!id.equals(reply)) {
                            failed.incrementAndGet();
                            continue;
                        }
                    } catch (Exception e) {
                        failed.incrementAndGet();
                        continue;
                    }
                    if (n == mine.length) {
                        mine = Arrays.copyOf(mine, n * 2);
                    }
                    mine[n++] = System.nanoTime() - t0;
                }
                samples[lane] = mine;
                counts[lane] = n;
            }));
        }
        for (Thread t : threads) {
            t.join(duration.toMillis() + 2 * (ASK_TIMEOUT.toMillis() + 5_000));
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        int total = 0;
        for (int c : counts) {
            total += c;
        }
        long[] all = new long[total];
        int at = 0;
        for (int t = 0; t < inFlight; t++) {
            if (samples[t] != null) {
                System.arraycopy(samples[t], 0, all, at, counts[t]);
                at += counts[t];
            }
        }
        Arrays.sort(all, 0, at);
        if (at == 0) {
            return new AskLoad(0, Double.NaN, Double.NaN, 0, failed.get());
        }
        return new AskLoad(at / seconds, all[at / 2] / 1e3, all[(int) (at * 0.99)] / 1e3, at, failed.get());
    }
}
