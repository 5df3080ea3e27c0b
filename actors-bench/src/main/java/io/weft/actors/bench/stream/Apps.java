package io.weft.actors.bench.stream;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.stream.Farm;
import io.weft.actors.stream.Pipeline;
import io.weft.actors.stream.Policy;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.Stage;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seed 002 §5 applications on generated data (Fig. 11): Word Count, Spike Detection and Fraud
 * Detection, with replicated operators (farms), the source at maximum rate throttled by
 * {@code offerIfBelow} (the {@code send_next_if} of Rinaldi et al. 2020, limit 1K), each checked against a
 * sequential reference. Linear Road (small) is in {@link LinearRoad}.
 */
public final class Apps {

    /** The queue-length limit for send_next_if of Rinaldi et al. 2020. */
    static final int LIMIT = 1024;

    private static final java.util.concurrent.atomic.AtomicLong IDS = new java.util.concurrent.atomic.AtomicLong();

    private Apps() {
    }

    /** Feeds items at maximum rate with flow control: retry (yield) while the target is over the limit. */
    static <T> void feed(RunningPipeline<T> run, List<T> items) {
        for (T t : items) {
            while (!run.offerIfBelow(t, LIMIT)) {
                Thread.yield();
            }
        }
        run.complete();
    }

    // ------------------------------------------------------------ Word Count

    /** A counted word. */
    record WordCount(String word, long count) {
    }

    static List<String> lines(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<String> out = new ArrayList<>(n);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.setLength(0);
            for (int w = 0; w < 8; w++) {
                int id = (int) Math.min(999, Math.abs(r.nextGaussian() * 200));
                sb.append(w == 0 ? "" : " ").append("w").append(id);
            }
            out.add(sb.toString());
        }
        return out;
    }

    static Map<String, Long> wordCountReference(List<String> lines) {
        Map<String, Long> m = new HashMap<>();
        for (String l : lines) {
            for (String w : l.split(" ")) {
                m.merge(w, 1L, Long::sum);
            }
        }
        return m;
    }

    /** Splits lines into words. */
    static final class Splitter extends Stage<String, String> {
        @Override
        protected void consume(String line) {
            int start = 0;
            for (int i = 0; i <= line.length(); i++) {
                if (i == line.length() || line.charAt(i) == ' ') {
                    emit(line.substring(start, i));
                    start = i + 1;
                }
            }
        }
    }

    /** Counts words, emitting the running count of each. */
    static final class Counter extends Stage<String, WordCount> {
        private final Map<String, long[]> counts = new HashMap<>();

        @Override
        protected void consume(String word) {
            long[] c = counts.computeIfAbsent(word, k -> new long[1]);
            emit(new WordCount(word, ++c[0]));
        }
    }

    /** Keeps the latest count per word. */
    static final class CountSink extends Stage<WordCount, Void> {
        final Map<String, Long> result = new HashMap<>();

        @Override
        protected void consume(WordCount wc) {
            result.merge(wc.word(), wc.count(), Math::max);
        }
    }

    /**
     * @param system the system
     * @param lines the input
     * @param replicas per operator
     * @param expected the reference result
     * @return lines per second
     * @throws Exception on failure or a wrong result
     */
    static double wordCountStages(ActorSystem system, List<String> lines, int replicas, Map<String, Long> expected) throws Exception {
        CountSink sink = new CountSink();
        RunningPipeline<String> run = Pipeline.of(
                Farm.of(replicas, Splitter::new, Policy.roundRobin()),
                Farm.of(replicas, Counter::new, Policy.<String>byKey(w -> w)),
                sink).start(system);
        long t0 = System.nanoTime();
        feed(run, lines);
        run.completion().get(10, TimeUnit.MINUTES);
        long t1 = System.nanoTime();
        check("word count (stages)", expected, sink.result);
        return lines.size() * 1e9 / (t1 - t0);
    }

    private static final Object END = new Object();

    /**
     * The same network of plain actors: splitter actors fed in turn, counters chosen by the word's
     * hash, one sink; end-of-stream markers counted at each join.
     *
     * @param system the system
     * @param lines the input
     * @param replicas per operator
     * @param expected the reference result
     * @return lines per second
     * @throws Exception on failure or a wrong result
     */
    static double wordCountActors(ActorSystem system, List<String> lines, int replicas, Map<String, Long> expected) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        Map<String, Long> result = new HashMap<>();
        int[] ends = new int[3];
        ActorRef<Object> sink = system.spawn("wc-sink-" + IDS.incrementAndGet(), self -> self.loop(() -> self.react(Receive.handler()
                .match(WordCount.class, wc -> result.merge(wc.word(), wc.count(), Math::max))
                .matchAny(m -> {
                    if (++ends[0] == replicas) {
                        done.countDown();
                    }
                }).build())));
        List<ActorRef<Object>> counters = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            Map<String, long[]> counts = new HashMap<>();
            int[] myEnds = new int[1];
            counters.add(system.spawn("wc-counter--" + IDS.incrementAndGet() + i, self -> self.loop(() -> self.react(Receive.handler()
                    .match(String.class, w -> {
                        long[] c = counts.computeIfAbsent(w, k -> new long[1]);
                        sink.tell(new WordCount(w, ++c[0]));
                    })
                    .matchAny(m -> {
                        if (++myEnds[0] == replicas) {
                            sink.tell(END);
                        }
                    }).build()))));
        }
        List<ActorRef<Object>> splitters = new ArrayList<>();
        for (int i = 0; i < replicas; i++) {
            splitters.add(system.spawn("wc-splitter--" + IDS.incrementAndGet() + i, self -> self.loop(() -> self.react(Receive.handler()
                    .match(String.class, line -> {
                        for (String w : line.split(" ")) {
                            counters.get(Math.floorMod(hash(w), replicas)).tell(w);
                        }
                    })
                    .matchAny(m -> counters.forEach(c -> c.tell(END))).build()))));
        }
        long t0 = System.nanoTime();
        int k = 0;
        for (String l : lines) {
            splitters.get(k).tell(l);
            k = k + 1 == replicas ? 0 : k + 1;
        }
        splitters.forEach(s -> s.tell(END));
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new AssertionError("word count (actors) timed out");
        }
        long t1 = System.nanoTime();
        check("word count (actors)", expected, result);
        return lines.size() * 1e9 / (t1 - t0);
    }

    private static int hash(Object key) {
        int h = key.hashCode();
        return h ^ (h >>> 16);
    }

    // ------------------------------------------------------------ Spike Detection

    /** A sensor reading. */
    record Reading(int device, double value) {
    }

    /** A reading with its device's moving average. */
    record Averaged(int device, double value, double average) {
    }

    static final int WINDOW = 16;
    static final double SPIKE = 0.3;

    static List<Reading> readings(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Reading> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            double v = 100 + r.nextDouble() * 10;
            if (r.nextInt(100) == 0) {
                v *= 2; // a spike
            }
            out.add(new Reading(r.nextInt(64), v));
        }
        return out;
    }

    /** Per-device moving average over the last {@link #WINDOW} readings. */
    static final class MovingAverage {
        private final Map<Integer, ArrayDeque<Double>> windows = new HashMap<>();
        private final Map<Integer, double[]> sums = new HashMap<>();

        Averaged add(Reading r) {
            ArrayDeque<Double> w = windows.computeIfAbsent(r.device(), k -> new ArrayDeque<>());
            double[] sum = sums.computeIfAbsent(r.device(), k -> new double[1]);
            w.addLast(r.value());
            sum[0] += r.value();
            if (w.size() > WINDOW) {
                sum[0] -= w.removeFirst();
            }
            return new Averaged(r.device(), r.value(), sum[0] / w.size());
        }
    }

    static boolean isSpike(Averaged a) {
        return Math.abs(a.value() - a.average()) > SPIKE * a.average();
    }

    static long[] spikeReference(List<Reading> in) {
        MovingAverage ma = new MovingAverage();
        long count = 0;
        long check = 0;
        for (Reading r : in) {
            Averaged a = ma.add(r);
            if (isSpike(a)) {
                count++;
                check += a.device() + Double.doubleToLongBits(a.average()) % 1_000_003;
            }
        }
        return new long[] {count, check};
    }

    /**
     * Source, moving average (by device), spike filter (round robin), sink.
     *
     * @param system the system
     * @param in the readings
     * @param replicas per operator
     * @param expected {count, checksum} from the reference
     * @return readings per second
     * @throws Exception on failure or a wrong result
     */
    static double spikeStages(ActorSystem system, List<Reading> in, int replicas, long[] expected) throws Exception {
        AtomicLong count = new AtomicLong();
        AtomicLong check = new AtomicLong();
        RunningPipeline<Reading> run = Pipeline.of(
                Farm.of(replicas, () -> new Stage<Reading, Averaged>() {
                    private final MovingAverage ma = new MovingAverage();

                    @Override
                    protected void consume(Reading r) {
                        emit(ma.add(r));
                    }
                }, Policy.<Reading>byKey(Reading::device)),
                Farm.of(replicas, () -> new Stage<Averaged, Averaged>() {
                    @Override
                    protected void consume(Averaged a) {
                        if (isSpike(a)) {
                            emit(a);
                        }
                    }
                }, Policy.roundRobin()),
                new Stage<Averaged, Void>() {
                    @Override
                    protected void consume(Averaged a) {
                        count.incrementAndGet();
                        check.addAndGet(a.device() + Double.doubleToLongBits(a.average()) % 1_000_003);
                    }
                }).start(system);
        long t0 = System.nanoTime();
        feed(run, in);
        run.completion().get(10, TimeUnit.MINUTES);
        long t1 = System.nanoTime();
        if (count.get() != expected[0] || check.get() != expected[1]) {
            throw new AssertionError("spike detection: got " + count + "/" + check + ", expected " + expected[0] + "/" + expected[1]);
        }
        return in.size() * 1e9 / (t1 - t0);
    }

    /**
     * Spike Detection with plain actors ({@link ActorNet}), same topology as {@link #spikeStages}.
     *
     * @param system the system
     * @param in the readings
     * @param replicas per operator
     * @param expected {count, checksum}
     * @return readings per second
     * @throws Exception on failure or a wrong result
     */
    static double spikeActors(ActorSystem system, List<Reading> in, int replicas, long[] expected) throws Exception {
        long[] got = new long[2];
        double rate = ActorNet.run(system, in, List.of(
                new ActorNet.Layer("sd-average", replicas, () -> {
                    MovingAverage ma = new MovingAverage();
                    return (x, out) -> out.accept(ma.add((Reading) x));
                }, x -> ((Reading) x).device()),
                new ActorNet.Layer("sd-filter", replicas, () -> (x, out) -> {
                    if (isSpike((Averaged) x)) {
                        out.accept(x);
                    }
                }, null),
                new ActorNet.Layer("sd-sink", 1, () -> (x, out) -> {
                    Averaged a = (Averaged) x;
                    got[0]++;
                    got[1] += a.device() + Double.doubleToLongBits(a.average()) % 1_000_003;
                }, null)));
        if (got[0] != expected[0] || got[1] != expected[1]) {
            throw new AssertionError("spike detection (actors): got " + got[0] + "/" + got[1]);
        }
        return rate;
    }

    // ------------------------------------------------------------ Fraud Detection

    /** A card transaction, reduced to its Markov state. */
    record Txn(int customer, int state) {
    }

    static final int STATES = 8;
    static final int RECORDS = 5;
    static final double FRAUD = 0.96;
    static final double[][] MODEL = model();

    private static double[][] model() {
        SplittableRandom r = new SplittableRandom(7);
        double[][] m = new double[STATES][STATES];
        for (int i = 0; i < STATES; i++) {
            double sum = 0;
            for (int j = 0; j < STATES; j++) {
                m[i][j] = r.nextDouble() * (j == (i + 1) % STATES ? 10 : 1);
                sum += m[i][j];
            }
            for (int j = 0; j < STATES; j++) {
                m[i][j] /= sum;
            }
        }
        return m;
    }

    static List<Txn> txns(int n, long seed) {
        SplittableRandom r = new SplittableRandom(seed);
        List<Txn> out = new ArrayList<>(n);
        int[] last = new int[256];
        for (int i = 0; i < n; i++) {
            int c = r.nextInt(256);
            int s = r.nextInt(10) < 8 ? (last[c] + 1) % STATES : r.nextInt(STATES);
            last[c] = s;
            out.add(new Txn(c, s));
        }
        return out;
    }

    /** Per-customer windows; the miss probability of the last {@link #RECORDS} states. */
    static final class Predictor {
        private final Map<Integer, ArrayDeque<Integer>> windows = new HashMap<>();

        /** @return the miss probability, or -1 while the window fills */
        double add(Txn t) {
            ArrayDeque<Integer> w = windows.computeIfAbsent(t.customer(), k -> new ArrayDeque<>());
            w.addLast(t.state());
            if (w.size() > RECORDS) {
                w.removeFirst();
            }
            if (w.size() < RECORDS) {
                return -1;
            }
            double miss = 0;
            Integer prev = null;
            for (Integer s : w) {
                if (prev != null) {
                    miss += 1 - MODEL[prev][s];
                }
                prev = s;
            }
            return miss / (RECORDS - 1);
        }
    }

    static long[] fraudReference(List<Txn> in) {
        Predictor p = new Predictor();
        long count = 0;
        long check = 0;
        for (Txn t : in) {
            if (p.add(t) > FRAUD) {
                count++;
                check += t.customer() * 31L + t.state();
            }
        }
        return new long[] {count, check};
    }

    /**
     * Source, predictor (by customer), sink.
     *
     * @param system the system
     * @param in the transactions
     * @param replicas predictor replicas
     * @param expected {count, checksum} from the reference
     * @return transactions per second
     * @throws Exception on failure or a wrong result
     */
    static double fraudStages(ActorSystem system, List<Txn> in, int replicas, long[] expected) throws Exception {
        Map<String, Long> totals = new ConcurrentHashMap<>();
        RunningPipeline<Txn> run = Pipeline.of(
                Farm.of(replicas, () -> new Stage<Txn, Txn>() {
                    private final Predictor p = new Predictor();

                    @Override
                    protected void consume(Txn t) {
                        if (p.add(t) > FRAUD) {
                            emit(t);
                        }
                    }
                }, Policy.<Txn>byKey(Txn::customer)),
                new Stage<Txn, Void>() {
                    long count;
                    long check;

                    @Override
                    protected void consume(Txn t) {
                        count++;
                        check += t.customer() * 31L + t.state();
                    }

                    @Override
                    protected void onStop() {
                        totals.put("count", count);
                        totals.put("check", check);
                    }
                }).start(system);
        long t0 = System.nanoTime();
        feed(run, in);
        run.completion().get(10, TimeUnit.MINUTES);
        long t1 = System.nanoTime();
        if (totals.get("count") != expected[0] || totals.get("check") != expected[1]) {
            throw new AssertionError("fraud detection: got " + totals + ", expected " + expected[0] + "/" + expected[1]);
        }
        return in.size() * 1e9 / (t1 - t0);
    }

    /**
     * Fraud Detection with plain actors ({@link ActorNet}), same topology as {@link #fraudStages}.
     *
     * @param system the system
     * @param in the transactions
     * @param replicas predictor replicas
     * @param expected {count, checksum}
     * @return transactions per second
     * @throws Exception on failure or a wrong result
     */
    static double fraudActors(ActorSystem system, List<Txn> in, int replicas, long[] expected) throws Exception {
        long[] got = new long[2];
        double rate = ActorNet.run(system, in, List.of(
                new ActorNet.Layer("fd-predictor", replicas, () -> {
                    Predictor p = new Predictor();
                    return (x, out) -> {
                        if (p.add((Txn) x) > FRAUD) {
                            out.accept(x);
                        }
                    };
                }, x -> ((Txn) x).customer()),
                new ActorNet.Layer("fd-sink", 1, () -> (x, out) -> {
                    Txn t = (Txn) x;
                    got[0]++;
                    got[1] += t.customer() * 31L + t.state();
                }, null)));
        if (got[0] != expected[0] || got[1] != expected[1]) {
            throw new AssertionError("fraud detection (actors): got " + got[0] + "/" + got[1]);
        }
        return rate;
    }

    private static void check(String what, Map<String, Long> expected, Map<String, Long> got) {
        if (!expected.equals(got)) {
            throw new AssertionError(what + ": result differs from the sequential reference ("
                    + got.size() + " words vs " + expected.size() + ")");
        }
    }
}
