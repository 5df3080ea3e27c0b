package io.weft.actors.bench.scheduling;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.SchedulerTuning;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * The scheduling measurements (docs/scheduling.md): Savina-like pingpong, counting, fjthrput and
 * threadring with each ForkJoin optimization on vs off (seed 004 §5), runs interleaved so that
 * machine noise hits every variant alike, reported as medians and ratios to the defaults; and the
 * running time against the batch size (seed 004 Fig. 10).
 *
 * <pre>
 * java -jar actors-bench.jar scheduling [--reps N] [--scale F] [--only optimizations|batch]
 * </pre>
 */
public final class SchedulingBench {

    private SchedulingBench() {
    }

    /** A workload: runs once on a fresh system and returns after checking its result. */
    interface Workload {
        void run(ActorSystem system, double scale) throws Exception;
    }

    static final Map<String, Workload> WORKLOADS = new LinkedHashMap<>();

    static {
        WORKLOADS.put("pingpong", SchedulingBench::pingPong);
        WORKLOADS.put("counting", SchedulingBench::counting);
        WORKLOADS.put("fjthrput", SchedulingBench::fjThroughput);
        WORKLOADS.put("threadring", SchedulingBench::threadRing);
        WORKLOADS.put("streaming-pingpong", SchedulingBench::streamingPingPong);
    }

    /**
     * @param args options
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int reps = 7;
        double scale = 1.0;
        String only = "all";
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--reps" -> reps = Integer.parseInt(args[++i]);
                case "--scale" -> scale = Double.parseDouble(args[++i]);
                case "--only" -> only = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; use --reps N, --scale F, --only optimizations|batch");
            }
        }
        System.out.printf(Locale.ROOT, "# scheduling bench: reps %d, scale %.2f, cpus %d, java %s%n", reps, scale,
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        if (!only.equals("batch")) {
            optimizations(reps, scale);
        }
        if (!only.equals("optimizations")) {
            batchCurve(reps, scale);
        }
    }

    private static void optimizations(int reps, double scale) throws Exception {
        SchedulerTuning d = SchedulerTuning.defaults();
        Map<String, SchedulerTuning> variants = new LinkedHashMap<>();
        variants.put("defaults", d);
        variants.put("none", SchedulerTuning.none());
        variants.put("lazyActivations=" + !d.lazyActivations(), d.withLazyActivations(!d.lazyActivations()));
        variants.put("lazySelfResubmit=" + !d.lazySelfResubmit(), d.withLazySelfResubmit(!d.lazySelfResubmit()));
        variants.put("localSteal=" + !d.localSteal(), d.withLocalSteal(!d.localSteal()));
        variants.put("lazyScheduling=" + !d.lazyScheduling(), d.withLazyScheduling(!d.lazyScheduling()));
        variants.put("speculation=" + !d.speculation(), d.withSpeculation(!d.speculation()));
        variants.put("watchdog=off", d.withBlockingThreshold(java.time.Duration.ZERO));
        List<String> benches = List.of("pingpong", "counting", "fjthrput", "threadring");
        Map<String, List<Double>> times = new LinkedHashMap<>();
        warmUp(benches, d, scale);
        for (int r = 0; r < reps; r++) {
            for (String bench : benches) {
                for (Map.Entry<String, SchedulerTuning> v : variants.entrySet()) {
                    double ms = once(bench, t -> v.getValue(), 50, scale);
                    times.computeIfAbsent(bench + "|" + v.getKey(), k -> new ArrayList<>()).add(ms);
                }
            }
        }
        System.out.println();
        System.out.println("## optimizations: median ms (ratio to defaults; < 1 is faster)");
        System.out.printf(Locale.ROOT, "| %-22s |", "variant");
        for (String b : benches) {
            System.out.printf(Locale.ROOT, " %-20s |", b);
        }
        System.out.println();
        System.out.print("|---|");
        benches.forEach(b -> System.out.print("---|"));
        System.out.println();
        for (String v : variants.keySet()) {
            System.out.printf(Locale.ROOT, "| %-22s |", v);
            for (String b : benches) {
                double m = median(times.get(b + "|" + v));
                double base = median(times.get(b + "|defaults"));
                System.out.printf(Locale.ROOT, " %8.1f (%.2f)      |", m, m / base);
            }
            System.out.println();
        }
    }

    private static void batchCurve(int reps, double scale) throws Exception {
        int[] sizes = {1, 2, 5, 10, 20, 50, 100, 200};
        List<String> benches = List.of("streaming-pingpong", "counting", "fjthrput");
        Map<String, List<Double>> times = new LinkedHashMap<>();
        warmUp(benches, SchedulerTuning.defaults(), scale);
        for (int r = 0; r < reps; r++) {
            for (String bench : benches) {
                for (int size : sizes) {
                    double ms = once(bench, t -> t, size, scale);
                    times.computeIfAbsent(bench + "|" + size, k -> new ArrayList<>()).add(ms);
                }
            }
        }
        System.out.println();
        System.out.println("## batch size curve (seed 004 Fig. 10): median ms");
        System.out.printf(Locale.ROOT, "| %-10s |", "batchSize");
        for (String b : benches) {
            System.out.printf(Locale.ROOT, " %-18s |", b);
        }
        System.out.println();
        System.out.print("|---|");
        benches.forEach(b -> System.out.print("---|"));
        System.out.println();
        for (int size : sizes) {
            System.out.printf(Locale.ROOT, "| %-10d |", size);
            for (String b : benches) {
                System.out.printf(Locale.ROOT, " %18.1f |", median(times.get(b + "|" + size)));
            }
            System.out.println();
        }
    }

    private static void warmUp(List<String> benches, SchedulerTuning tuning, double scale) throws Exception {
        for (int i = 0; i < 3; i++) {
            for (String b : benches) {
                once(b, t -> tuning, 50, scale);
            }
        }
    }

    private static double once(String bench, UnaryOperator<SchedulerTuning> tuning, int batchSize, double scale) throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("sched-bench").batchSize(batchSize)
                .schedulerTuning(tuning.apply(SchedulerTuning.defaults())).build()) {
            long t0 = System.nanoTime();
            WORKLOADS.get(bench).run(system, scale);
            return (System.nanoTime() - t0) / 1e6;
        }
    }

    static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).toArray();
        Arrays.sort(a);
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        if (!latch.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException(what + " did not finish");
        }
    }

    // ------------------------------------------------------------------ workloads

    /** Savina pingpong: N round trips between two actors (default N = 40,000). */
    static void pingPong(ActorSystem system, double scale) throws Exception {
        int n = (int) (40_000 * scale);
        CountDownLatch done = new CountDownLatch(1);
        ActorRef<Integer> pong = system.spawn(self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, i -> self.reply(i)).build())));
        ActorRef<Integer> ping = system.spawn(self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, i -> {
                    if (i == n) {
                        done.countDown();
                    } else {
                        pong.tell(i + 1, self.self());
                    }
                }).build())));
        pong.tell(0, ping);
        await(done, "pingpong");
    }

    /** Streaming ping-pong: a window of W = 100 pings in flight, N = 400,000 in all. */
    static void streamingPingPong(ActorSystem system, double scale) throws Exception {
        int n = (int) (400_000 * scale);
        int window = 100;
        CountDownLatch done = new CountDownLatch(1);
        ActorRef<Integer> pong = system.spawn(self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, i -> self.reply(i)).build())));
        int[] state = new int[2]; // sent, received: only the ping actor touches it
        ActorRef<Integer> ping = system.spawn(self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, i -> {
                    if (i < 0) {
                        for (int k = 0; k < window; k++) {
                            pong.tell(++state[0], self.self());
                        }
                        return;
                    }
                    if (++state[1] == n) {
                        done.countDown();
                    } else if (state[0] < n) {
                        pong.tell(++state[0], self.self());
                    }
                }).build())));
        ping.tell(-1);
        await(done, "streaming-pingpong");
    }

    /** Savina count: a producer actor sends N = 1,000,000 numbers to a counter, which checks the sum. */
    static void counting(ActorSystem system, double scale) throws Exception {
        int n = (int) (1_000_000 * scale);
        CountDownLatch done = new CountDownLatch(1);
        long expected = (long) n * (n + 1) / 2;
        long[] sum = new long[1];
        int[] count = new int[1];
        ActorRef<Integer> counter = system.spawn(self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, i -> {
                    sum[0] += i;
                    if (++count[0] == n) {
                        if (sum[0] != expected) {
                            throw new IllegalStateException("count: sum " + sum[0] + ", expected " + expected);
                        }
                        done.countDown();
                    }
                }).build())));
        ActorRef<String> producer = system.spawn(self -> self.react(Receive.<String>handler()
                .match(String.class, s -> {
                    for (int i = 1; i <= n; i++) {
                        counter.tell(i);
                    }
                }).build()));
        producer.tell("go");
        await(done, "counting");
    }

    /** Savina fjthrput: K = 60 actors, each sent M = 10,000 messages round-robin by one actor. */
    static void fjThroughput(ActorSystem system, double scale) throws Exception {
        int k = 60;
        int m = (int) (10_000 * scale);
        CountDownLatch done = new CountDownLatch(k);
        List<ActorRef<Integer>> workers = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            int[] count = new int[1];
            workers.add(system.spawn(self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, x -> {
                        double r = Math.sin(x) * Math.cos(x); // Savina's small per-message computation
                        if (r > 2) {
                            throw new IllegalStateException();
                        }
                        if (++count[0] == m) {
                            done.countDown();
                        }
                    }).build()))));
        }
        ActorRef<String> sender = system.spawn(self -> self.react(Receive.<String>handler()
                .match(String.class, s -> {
                    for (int j = 0; j < m; j++) {
                        for (ActorRef<Integer> w : workers) {
                            w.tell(j);
                        }
                    }
                }).build()));
        sender.tell("go");
        await(done, "fjthrput");
    }

    /** Savina threadring: R = 100 actors pass a token H = 100,000 hops. */
    static void threadRing(ActorSystem system, double scale) throws Exception {
        int r = 100;
        int hops = (int) (100_000 * scale);
        CountDownLatch done = new CountDownLatch(1);
        @SuppressWarnings({"unchecked", "rawtypes"})
        ActorRef<Integer>[] ring = new ActorRef[r];
        for (int i = 0; i < r; i++) {
            int id = i;
            ring[i] = system.spawn(Props.defaults(), self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, left -> {
                        if (left == 0) {
                            done.countDown();
                        } else {
                            ring[(id + 1) % r].tell(left - 1);
                        }
                    }).build())));
        }
        ring[0].tell(hops);
        await(done, "threadring");
    }
}
