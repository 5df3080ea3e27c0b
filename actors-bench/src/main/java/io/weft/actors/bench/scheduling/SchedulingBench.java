package io.weft.actors.bench.scheduling;

import io.weft.actors.SchedulerTuning;
import io.weft.actors.bench.Stats;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.WeftReactConfig;
import io.weft.actors.bench.workload.Scale;
import io.weft.actors.bench.workload.Workload;
import io.weft.actors.bench.workload.Workloads;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * The scheduling measurements (docs/scheduling.md), on the same Savina workloads as
 * {@code compare} ({@link io.weft.actors.bench.workload}) through Weft react kits built by
 * {@link WeftReactConfig}:
 *
 * <ul>
 *   <li>{@code optimizations}: each ForkJoin optimization switch of {@link SchedulerTuning} flipped
 *       from the defaults (Prokopec 2016, §5), all switches off ({@code none}), the noise control
 *       {@code watchdog=off} (differs from the defaults only by one sleeping thread), and
 *       {@code fair}: every actor on the fair scheduler ({@code system.schedulers().fair()}, one
 *       thread). Workloads: pingpong, threadring, count, fjthrput, fjcreate, fib, big, chameneos.
 *       Each cell is the median ms and its ratio to the defaults' median (below 1 is faster).</li>
 *   <li>{@code batch}: running time against the batch size 1, 2, 5, 10, 20, 50, 100, 200 (Prokopec 2016,
 *       Fig. 10), default tuning otherwise. Workloads: streaming-pingpong, count, fjthrput. Each
 *       cell is the median ms.</li>
 * </ul>
 *
 * <p>Every run builds a fresh actor system (the kit), times only the workload, then closes the
 * system; {@code System.gc()} runs, untimed, before each. The variants are interleaved so that
 * machine noise hits them alike: after the warm-up rounds (every workload on the defaults), for
 * each rep, for each workload, every variant runs once. Every run checks its own result; a failed
 * run is reported on stderr, shown as {@code FAILED} in its cell and not repeated, and the command
 * then exits with status 1. Tables are markdown on stdout; progress goes to stderr.
 *
 * <pre>
 * java -jar actors-bench.jar scheduling [--reps N] [--warmup N] [--scale tiny|quick|full] [--only a,b]
 * </pre>
 *
 * <ul>
 *   <li>{@code --reps N}: timed rounds, default 7.</li>
 *   <li>{@code --warmup N}: untimed rounds first, default 3.</li>
 *   <li>{@code --scale tiny|quick|full}: the workloads' sizes ({@link Scale}); default {@code full}
 *       (Savina's defaults). {@code 1} is accepted for {@code full} (the earlier numeric form).</li>
 *   <li>{@code --only a,b}: a comma-separated list of parts ({@code optimizations}, {@code batch},
 *       {@code all}) and workload names (as in {@code compare}). Named parts run, default both;
 *       named workloads replace each part's default set, in the order given. For example
 *       {@code --only optimizations}, {@code --only batch,count} or {@code --only pingpong,big}.</li>
 * </ul>
 */
public final class SchedulingBench {

    /** The optimizations table's default workloads (Savina's micro set, Savina's sizes). */
    static final List<String> OPTIMIZATION_WORKLOADS =
            List.of("pingpong", "threadring", "count", "fjthrput", "fjcreate", "fib", "big", "chameneos");

    /** The batch curve's default workloads. */
    static final List<String> BATCH_WORKLOADS = List.of("streaming-pingpong", "count", "fjthrput");

    /** The batch sizes of Prokopec 2016, Fig. 10. */
    static final int[] BATCH_SIZES = {1, 2, 5, 10, 20, 50, 100, 200};

    private static final String OPTIMIZATIONS = "optimizations";
    private static final String BATCH = "batch";

    private SchedulingBench() {
    }

    /**
     * One configuration measured: a row of a table.
     *
     * @param name the row's label
     * @param config how its system is built
     */
    record Variant(String name, WeftReactConfig config) {
    }

    /** The times of every workload on every variant, and the runs that failed. */
    static final class Results {
        final List<Workload> workloads;
        final List<Variant> variants;
        private final Map<String, List<Double>> times = new HashMap<>();
        private final Map<String, String> errors = new LinkedHashMap<>();

        Results(List<Workload> workloads, List<Variant> variants) {
            this.workloads = List.copyOf(workloads);
            this.variants = List.copyOf(variants);
        }

        private static String key(Workload w, String variant) {
            return w.name() + "|" + variant;
        }

        /**
         * @param w a workload
         * @param variant a variant's name
         * @return the median ms of its timed runs, NaN if none
         */
        double median(Workload w, String variant) {
            return Stats.median(times.getOrDefault(key(w, variant), List.of()));
        }

        /**
         * @param w a workload
         * @param variant a variant's name
         * @return whether a run of it failed
         */
        boolean failed(Workload w, String variant) {
            return errors.containsKey(key(w, variant));
        }

        /** @return whether every run (warm-up included) validated */
        boolean validated() {
            return errors.isEmpty();
        }

        /** @return "workload|variant: error" for every failed pair */
        List<String> failures() {
            return errors.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue()).toList();
        }
    }

    /**
     * The optimizations table's rows: the defaults, all off, each switch flipped, the noise control
     * and the fair scheduler.
     *
     * @return the variants, defaults first
     */
    static List<Variant> optimizationVariants() {
        SchedulerTuning d = SchedulerTuning.defaults();
        WeftReactConfig base = WeftReactConfig.defaults();
        return List.of(
                new Variant("defaults", base),
                new Variant("none", base.withTuning(SchedulerTuning.none())),
                new Variant("lazyActivations=" + !d.lazyActivations(), base.withTuning(d.withLazyActivations(!d.lazyActivations()))),
                new Variant("lazySelfResubmit=" + !d.lazySelfResubmit(),
                        base.withTuning(d.withLazySelfResubmit(!d.lazySelfResubmit()))),
                new Variant("localSteal=" + !d.localSteal(), base.withTuning(d.withLocalSteal(!d.localSteal()))),
                new Variant("lazyScheduling=" + !d.lazyScheduling(), base.withTuning(d.withLazyScheduling(!d.lazyScheduling()))),
                new Variant("speculation=" + !d.speculation(), base.withTuning(d.withSpeculation(!d.speculation()))),
                new Variant("watchdog=off", base.withTuning(d.withBlockingThreshold(Duration.ZERO))),
                new Variant("fair", base.onFairScheduler()));
    }

    /**
     * The batch curve's rows: one per batch size, default tuning.
     *
     * @return the variants, smallest batch first
     */
    static List<Variant> batchVariants() {
        return Arrays.stream(BATCH_SIZES)
                .mapToObj(n -> new Variant(Integer.toString(n), WeftReactConfig.defaults().withBatchSize(n)))
                .toList();
    }

    /**
     * Runs the command.
     *
     * @param args the options (see the class description)
     * @return the exit status: 0 if every run validated, 1 otherwise
     * @throws IllegalArgumentException on bad options
     */
    public static int run(String[] args) {
        return run(args, System.out, System.err);
    }

    /**
     * Runs the command, exiting with status 1 if a run failed validation.
     *
     * @param args the options (see the class description)
     */
    public static void main(String[] args) {
        int status = run(args);
        if (status != 0) {
            System.exit(status);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream progress) {
        int reps = 7;
        int warmup = 3;
        Scale scale = Scale.FULL;
        Set<String> parts = new LinkedHashSet<>();
        List<Workload> named = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--reps" -> reps = atLeast(value(args, ++i), 1, "--reps");
                case "--warmup" -> warmup = atLeast(value(args, ++i), 0, "--warmup");
                case "--scale" -> scale = scale(value(args, ++i));
                case "--only" -> {
                    for (String item : value(args, ++i).split(",")) {
                        String s = item.trim();
                        switch (s) {
                            case OPTIMIZATIONS, BATCH -> parts.add(s);
                            case "all" -> parts.addAll(List.of(OPTIMIZATIONS, BATCH));
                            default -> named.add(Workloads.named(s));
                        }
                    }
                }
                default -> throw new IllegalArgumentException("scheduling: unknown option \"" + args[i]
                        + "\"; use --reps N, --warmup N, --scale tiny|quick|full, --only optimizations|batch|workload,...");
            }
        }
        if (parts.isEmpty()) {
            parts.addAll(List.of(OPTIMIZATIONS, BATCH));
        }
        out.printf(Locale.ROOT, "# scheduling bench: reps %d, warm-up %d, scale %s, cpus %d, java %s%n", reps, warmup,
                scale.name().toLowerCase(Locale.ROOT), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"));
        List<Results> all = new ArrayList<>();
        if (parts.contains(OPTIMIZATIONS)) {
            Results r = measure(named.isEmpty() ? lookUp(OPTIMIZATION_WORKLOADS) : named, optimizationVariants(), scale,
                    warmup, reps, progress);
            print(r, scale, "optimizations: median ms (ratio to defaults; < 1 is faster)", "variant", "defaults", out);
            all.add(r);
        }
        if (parts.contains(BATCH)) {
            Results r = measure(named.isEmpty() ? lookUp(BATCH_WORKLOADS) : named, batchVariants(), scale, warmup, reps,
                    progress);
            print(r, scale, "batch size curve (Prokopec 2016, Fig. 10): median ms", "batchSize", null, out);
            all.add(r);
        }
        List<String> failures = all.stream().flatMap(r -> r.failures().stream()).toList();
        if (!failures.isEmpty()) {
            out.println();
            out.println("FAILED (wrong result or error), exit status 1:");
            failures.forEach(f -> out.println("- " + f));
            return 1;
        }
        return 0;
    }

    /**
     * The measuring loop: warm-up rounds of every workload on the defaults, then for each rep, for
     * each workload, every variant once, each on a fresh system.
     *
     * @param workloads the columns
     * @param variants the rows
     * @param scale the workloads' size
     * @param warmup untimed rounds first
     * @param reps timed rounds
     * @param progress where a line per rep and workload goes
     * @return the times and failures
     */
    static Results measure(List<Workload> workloads, List<Variant> variants, Scale scale, int warmup, int reps,
            PrintStream progress) {
        Results results = new Results(workloads, variants);
        Variant defaults = new Variant("(warm-up)", WeftReactConfig.defaults());
        for (int round = 0; round < warmup; round++) {
            progress.printf(Locale.ROOT, "warm-up %d/%d%n", round + 1, warmup);
            for (Workload w : workloads) {
                once(w, defaults, scale, results, progress);
            }
        }
        for (int rep = 0; rep < reps; rep++) {
            for (Workload w : workloads) {
                List<String> line = new ArrayList<>();
                for (Variant v : variants) {
                    double ms = once(w, v, scale, results, progress);
                    if (!Double.isNaN(ms)) {
                        results.times.computeIfAbsent(Results.key(w, v.name()), k -> new ArrayList<>()).add(ms);
                        line.add(v.name() + " " + String.format(Locale.ROOT, "%.1f", ms));
                    }
                }
                progress.printf(Locale.ROOT, "[rep %d/%d] %s (%s): %s%n", rep + 1, reps, w.name(), w.describe(scale),
                        String.join(", ", line));
            }
        }
        return results;
    }

    /** Runs {@code w} once on a fresh system built by {@code v}; NaN if it failed or failed before. */
    private static double once(Workload w, Variant v, Scale scale, Results results, PrintStream progress) {
        String key = Results.key(w, v.name());
        if (results.errors.containsKey(key)) {
            return Double.NaN;
        }
        System.gc();
        try (Kit kit = v.config().create()) {
            long t0 = System.nanoTime();
            w.run(kit, scale);
            return (System.nanoTime() - t0) / 1e6;
        } catch (Exception | AssertionError e) {
            results.errors.put(key, e.toString());
            progress.println("  FAILED " + w.name() + " on " + v.name() + ": " + e);
            return Double.NaN;
        }
    }

    /**
     * Prints one markdown table: a row per variant, a column per workload.
     *
     * @param r the results
     * @param scale the scale they were measured at (for the workloads' sizes)
     * @param title the heading
     * @param rowHeader the first column's header
     * @param baseline the variant each cell is divided by, or null for medians only
     * @param out where to print
     */
    static void print(Results r, Scale scale, String title, String rowHeader, String baseline, PrintStream out) {
        out.println();
        out.println("## " + title);
        out.println();
        for (Workload w : r.workloads) {
            out.println("- " + w.name() + ": " + w.describe(scale));
        }
        out.println();
        int first = Math.max(rowHeader.length(), r.variants.stream().mapToInt(v -> v.name().length()).max().orElse(0));
        int width = Math.max(20, r.workloads.stream().mapToInt(w -> w.name().length()).max().orElse(0));
        StringBuilder header = new StringBuilder(cell(rowHeader, first));
        StringBuilder rule = new StringBuilder("|---|");
        for (Workload w : r.workloads) {
            header.append(' ').append(pad(w.name(), width)).append(" |");
            rule.append("---|");
        }
        out.println(header);
        out.println(rule);
        for (Variant v : r.variants) {
            StringBuilder row = new StringBuilder(cell(v.name(), first));
            for (Workload w : r.workloads) {
                row.append(' ').append(pad(cellText(r, w, v.name(), baseline), width)).append(" |");
            }
            out.println(row);
        }
    }

    private static String cellText(Results r, Workload w, String variant, String baseline) {
        if (r.failed(w, variant)) {
            return "FAILED";
        }
        double m = r.median(w, variant);
        if (baseline == null) {
            return String.format(Locale.ROOT, "%8.1f", m);
        }
        double ratio = m / r.median(w, baseline);
        return String.format(Locale.ROOT, "%8.1f (%s)", m,
                Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2f", ratio));
    }

    private static String cell(String text, int width) {
        return "| " + pad(text, width) + " |";
    }

    private static String pad(String text, int width) {
        return text + " ".repeat(Math.max(0, width - text.length()));
    }

    private static List<Workload> lookUp(List<String> names) {
        return names.stream().map(Workloads::named).toList();
    }

    private static Scale scale(String s) {
        return switch (s.trim().toLowerCase(Locale.ROOT)) {
            case "tiny" -> Scale.TINY;
            case "quick" -> Scale.QUICK;
            case "full", "1", "1.0" -> Scale.FULL;
            default -> throw new IllegalArgumentException("--scale: choose tiny, quick or full (1 = full), was \"" + s + "\"");
        };
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + ": missing value");
        }
        return args[i];
    }

    private static int atLeast(String s, int min, String option) {
        int v = Integer.parseInt(s);
        if (v < min) {
            throw new IllegalArgumentException(option + ": must be at least " + min + ", was " + v);
        }
        return v;
    }
}
