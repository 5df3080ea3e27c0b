package io.weft.actors.bench.stream;

import io.weft.actors.ActorSystem;
import io.weft.actors.bench.Stats;
import io.weft.actors.stream.internal.StageStats;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code java -jar actors-bench.jar stream [pipeline|pipeline3|pipeline2|items|prodcons|apps|all] [-n N] [-r ROUNDS] [-p REPLICAS]}:
 * The streaming benchmarks of Rinaldi et al. 2020. Variants run interleaved, round after round, so that a noisy
 * machine disturbs them alike; the report gives every run, the medians and the ratios, the median CPU time of
 * the JVM per run (the process's CPU time, JIT and GC threads included, in whole ms: it moves in 10 ms ticks
 * here), and per run the stage counters of {@code StageStats} (on unless
 * {@code -Dweft.stream.stats=false}). {@code items} splits the
 * 2-stage pipeline's per-item cost into producer and consumer, each measured alone ({@code -r} batches;
 * ItemCostBench).
 */
public final class StreamBench {

    private StreamBench() {
    }

    /** One measurement. */
    @FunctionalInterface
    interface Run {
        double once() throws Exception;
    }

    /**
     * @param args see the class comment
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        if (System.getProperty("weft.stream.stats") == null) {
            // the stage counters in the report (StageStats; read once, before any stage runs)
            System.setProperty("weft.stream.stats", "true");
        }
        String what = "all";
        long n = 5_000_000;
        int rounds = 5;
        int replicas = 2;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-n" -> n = Long.parseLong(args[++i]);
                case "-r" -> rounds = Integer.parseInt(args[++i]);
                case "-p" -> replicas = Integer.parseInt(args[++i]);
                default -> what = args[i];
            }
        }
        System.out.printf(Locale.ROOT, "stream %s: n=%d rounds=%d replicas=%d cores=%d java=%s%n", what, n, rounds,
                replicas, Runtime.getRuntime().availableProcessors(), System.getProperty("java.version"));
        try (ActorSystem system = ActorSystem.builder().name("stream-bench").build()) {
            long size = n;
            int p = replicas;
            if (what.equals("pipeline") || what.equals("pipeline3") || what.equals("all")) {
                Map<String, Run> v = new LinkedHashMap<>();
                v.put("stages", () -> PipelineBench.stages(system, size));
                v.put("stages+feeder", () -> PipelineBench.feeder(system, size, 1));
                v.put("actors", () -> PipelineBench.actors(system, size));
                v.put("actors/become", () -> PipelineBench.actors(system, size, 1, true));
                v.put("threads+spsc", () -> PipelineBench.threads(size));
                report("3-stage pipeline, tuples/s", v, rounds, "threads+spsc");
            }
            if (what.equals("pipeline") || what.equals("pipeline2") || what.equals("all")) {
                Map<String, Run> v = new LinkedHashMap<>();
                v.put("stages", () -> PipelineBench.stages(system, size, 0));
                v.put("stages+feeder", () -> PipelineBench.feeder(system, size, 0));
                v.put("actors", () -> PipelineBench.actors(system, size, 0));
                v.put("actors/become", () -> PipelineBench.actors(system, size, 0, true));
                v.put("threads+spsc", () -> PipelineBench.threads(size, 0));
                report("2-stage pipeline (source, sink), tuples/s", v, rounds, "threads+spsc");
            }
            if (what.equals("items")) {
                ItemCostBench.report(system, rounds);
            }
            if (what.equals("prodcons") || what.equals("all")) {
                Map<String, Run> v = new LinkedHashMap<>();
                v.put("stage", () -> PipelineBench.prodCons(system, "stage", size));
                v.put("actor", () -> PipelineBench.prodCons(system, "actor", size));
                v.put("queue", () -> PipelineBench.prodCons(system, "queue", size));
                report("producer-consumer, ns per message", v, rounds, "queue");
            }
            if (what.equals("apps") || what.equals("all")) {
                int lines = (int) Math.min(Integer.MAX_VALUE, size / 8);
                List<String> text = Apps.lines(lines, 42);
                Map<String, Long> wc = Apps.wordCountReference(text);
                Map<String, Run> v = new LinkedHashMap<>();
                v.put("stages", () -> Apps.wordCountStages(system, text, p, wc));
                v.put("actors", () -> Apps.wordCountActors(system, text, p, wc));
                report("word count, lines/s (8 words/line)", v, rounds, "actors");

                List<Apps.Reading> readings = Apps.readings((int) Math.min(Integer.MAX_VALUE, size), 43);
                long[] sd = Apps.spikeReference(readings);
                report("spike detection, readings/s (" + sd[0] + " spikes)",
                        variants("stages", () -> Apps.spikeStages(system, readings, p, sd),
                                "actors", () -> Apps.spikeActors(system, readings, p, sd)), rounds, "actors");

                List<Apps.Txn> txns = Apps.txns((int) Math.min(Integer.MAX_VALUE, size), 44);
                long[] fd = Apps.fraudReference(txns);
                report("fraud detection, transactions/s (" + fd[0] + " frauds)",
                        variants("stages", () -> Apps.fraudStages(system, txns, p, fd),
                                "actors", () -> Apps.fraudActors(system, txns, p, fd)), rounds, "actors");

                List<LinearRoad.Report> reports = LinearRoad.reports((int) Math.min(Integer.MAX_VALUE, size), 45);
                long[] lr = LinearRoad.reference(reports);
                report("small linear road, reports/s (" + lr[0] + " toll notifications, " + lr[1] + " total toll)",
                        variants("stages", () -> LinearRoad.stages(system, reports, p, lr),
                                "actors", () -> LinearRoad.actors(system, reports, p, lr)), rounds, "actors");
            }
        }
    }

    /** @return the collection time of every collector so far, in ms */
    private static long gcMillis() {
        long t = 0;
        for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, b.getCollectionTime());
        }
        return t;
    }

    /** @return the CPU time of every thread of this JVM so far, in ns (0 if not available) */
    private static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean()
                instanceof com.sun.management.OperatingSystemMXBean os ? os.getProcessCpuTime() : 0;
    }

    private static Map<String, Run> variants(String a, Run ra, String b, Run rb) {
        Map<String, Run> m = new LinkedHashMap<>();
        m.put(a, ra);
        m.put(b, rb);
        return m;
    }

    private static void report(String title, Map<String, Run> variants, int rounds, String base) throws Exception {
        Map<String, List<Double>> results = new LinkedHashMap<>();
        variants.keySet().forEach(k -> results.put(k, new ArrayList<>()));
        for (Map.Entry<String, Run> e : variants.entrySet()) {
            e.getValue().once(); // warm-up, not recorded
        }
        Map<String, long[]> counts = new LinkedHashMap<>();
        Map<String, Long> gcMillis = new LinkedHashMap<>();
        Map<String, List<Long>> cpuNanos = new LinkedHashMap<>();
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, Run> e : variants.entrySet()) {
                Map<String, Long> before = StageStats.snapshot();
                long gc0 = gcMillis();
                long cpu0 = processCpuNanos();
                results.get(e.getKey()).add(e.getValue().once());
                cpuNanos.computeIfAbsent(e.getKey(), k -> new ArrayList<>()).add(processCpuNanos() - cpu0);
                gcMillis.merge(e.getKey(), gcMillis() - gc0, Long::sum);
                Map<String, Long> after = StageStats.snapshot();
                long[] c = counts.computeIfAbsent(e.getKey(), k -> new long[after.size()]);
                int i = 0;
                for (Map.Entry<String, Long> a : after.entrySet()) {
                    c[i++] += a.getValue() - before.get(a.getKey());
                }
            }
        }
        System.out.println("== " + title);
        double baseMedian = base == null ? Double.NaN : Stats.median(results.get(base));
        for (Map.Entry<String, List<Double>> e : results.entrySet()) {
            double m = Stats.median(e.getValue());
            StringBuilder runs = new StringBuilder();
            for (double d : e.getValue()) {
                runs.append(String.format(Locale.ROOT, " %.4g", d));
            }
            String perRound = "";
            if (base != null && !e.getKey().equals(base)) {
                // the variants of one round ran back to back, so a round's ratio cancels most of
                // the machine's load changes between rounds
                List<Double> ratios = new ArrayList<>();
                for (int r = 0; r < e.getValue().size(); r++) {
                    ratios.add(e.getValue().get(r) / results.get(base).get(r));
                }
                perRound = String.format(Locale.ROOT, ", median of per-round ratios %.3f", Stats.median(ratios));
            }
            System.out.printf(Locale.ROOT, "  %-15s median %.4g%s%s  runs:%s%n", e.getKey(), m,
                    base == null ? "" : String.format(Locale.ROOT, "  ratio to %s %.3f", base, m / baseMedian), perRound, runs);
        }
        // collector time per run: how much of a variant's run the young collections took (an
        // unbounded mailbox backlog is copied by them)
        StringBuilder gc = new StringBuilder("  GC ms per run:");
        gcMillis.forEach((k, v) -> gc.append(String.format(Locale.ROOT, " %s=%d", k, Math.round(v / (double) rounds))));
        System.out.println(gc);
        // CPU time of the whole JVM per run (every thread, spinning included, JIT and GC threads
        // too): less moved by other jobs on the cores than tuples/s, which also counts the time
        // the run's threads wait for a CPU. getProcessCpuTime moves in 10 ms ticks on Linux here,
        // so the median is printed in whole ms
        StringBuilder cpu = new StringBuilder("  CPU ms per run, median (process CPU time, all threads, 10 ms ticks):");
        cpuNanos.forEach((k, v) -> cpu.append(String.format(Locale.ROOT, " %s=%.0f", k,
                Stats.median(v.stream().map(x -> x / 1e6).toList()))));
        System.out.println(cpu);
        if (StageStats.enabled()) {
            // the stage item path's counters (-Dweft.stream.stats=true), per run: scheduling
            // (executes, wake-ups, idle transitions) apart from per-item cost
            String[] names = StageStats.snapshot().keySet().toArray(new String[0]);
            for (Map.Entry<String, long[]> e : counts.entrySet()) {
                long[] c = e.getValue();
                if (java.util.Arrays.stream(c).allMatch(x -> x == 0)) {
                    continue;
                }
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < c.length; i++) {
                    sb.append(String.format(Locale.ROOT, " %s=%d", names[i], Math.round(c[i] / (double) rounds)));
                }
                System.out.printf(Locale.ROOT, "  %-14s per run:%s%n", e.getKey(), sb);
            }
        }
    }
}
