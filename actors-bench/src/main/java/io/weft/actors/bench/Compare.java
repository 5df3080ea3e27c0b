package io.weft.actors.bench;

import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.workload.Scale;
import io.weft.actors.bench.workload.Workload;
import io.weft.actors.bench.workload.Workloads;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * {@code compare}: every workload on every implementation, interleaved in one JVM (A B A B ...),
 * after warm-up, so that machine noise hits all implementations alike. Prints a table and a summary
 * (per workload, each peer's median over Weft react's, and the geometric mean over the workloads),
 * and writes the table, a CSV and an SVG chart to {@code --out DIR} (default {@value #DEFAULT_OUT}).
 *
 * <p>With {@code --forks N}, each implementation instead runs in JVMs of its own, as JMH forks do:
 * for each workload, N rounds of one child JVM per implementation (A B A B across JVMs), each doing
 * the warm-up and measured runs; the table pools the measured runs of all forks. In one shared JVM
 * the JIT compiles the workloads' call sites (a {@code Ref.tell}, a handler) for every
 * implementation at once, so none of them gets the inlining it would get alone; forks remove that
 * bias at the price of JVM start-ups. A child is this same jar started with the same JVM options.
 */
public final class Compare {

    /** Where the table, CSV and chart go unless {@code --out} says otherwise. */
    static final String DEFAULT_OUT = "target/compare";

    /**
     * The implementation the ratios are taken against ({@code --base}, default Weft react); set
     * once per command, before any row is reported.
     */
    private static String base = Impl.WEFT.cliName();

    private Compare() {
    }

    /** One workload on one implementation: its times and whether every run validated. */
    record Row(String workload, String impl, List<Double> ms, boolean validated, String error) {
        double median() {
            return Stats.median(ms);
        }

        double min() {
            return ms.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
        }

        double max() {
            return ms.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
        }
    }

    /**
     * @param args the options, see {@link Main}
     * @return the exit status: 0 if every result validated
     * @throws Exception on bad options or I/O failure
     */
    public static int run(String[] args) throws Exception {
        try {
            return runWith(args);
        } finally {
            base = Impl.WEFT.cliName(); // the static reports (ratios, print, Chart) default to Weft react again
        }
    }

    private static int runWith(String[] args) throws Exception {
        boolean quick = false;
        Set<String> only = null;
        List<Impl> impls = new ArrayList<>(Arrays.asList(Impl.values()));
        impls.remove(Impl.WEFT_CONT); // only when named: it needs --add-exports java.base/jdk.internal.vm=ALL-UNNAMED
        Path csv = null;
        Path svg = null;
        int runs = -1;
        int warmup = -1;
        boolean each = false;
        int forks = 0;
        Path raw = null;
        Path outDir = Path.of(DEFAULT_OUT);
        base = Impl.WEFT.cliName();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--quick" -> quick = true;
                case "--only" -> only = new TreeSet<>(Arrays.asList(value(args, ++i, "--only").split(",")));
                case "--impl" -> impls = Arrays.stream(value(args, ++i, "--impl").split(",")).map(Impl::parse).toList();
                case "--csv" -> csv = Path.of(value(args, ++i, "--csv"));
                case "--svg" -> svg = Path.of(value(args, ++i, "--svg"));
                case "--runs" -> runs = positive(value(args, ++i, "--runs"), "--runs");
                case "--warmup" -> warmup = Integer.parseInt(value(args, ++i, "--warmup"));
                case "--each" -> each = true;
                case "--forks" -> forks = positive(value(args, ++i, "--forks"), "--forks");
                case "--raw" -> raw = Path.of(value(args, ++i, "--raw"));
                case "--out" -> outDir = Path.of(value(args, ++i, "--out"));
                case "--base" -> base = Impl.parse(value(args, ++i, "--base")).cliName();
                default -> throw new IllegalArgumentException("compare: unknown option \"" + args[i] + "\"");
            }
        }
        Scale scale = quick ? Scale.QUICK : Scale.FULL;
        if (runs < 0) {
            runs = quick ? 3 : 5;
        }
        if (warmup < 0) {
            warmup = quick ? 1 : 2;
        }
        List<Workload> workloads = select(only).stream().filter(w -> w.runsAt(scale)).toList();
        List<Row> rows = forks > 0
                ? runForked(workloads, impls, quick, warmup, runs, forks, each, System.err)
                : run(workloads, impls, scale, warmup, runs, System.err, each);
        if (raw != null) { // a fork of a parent compare (--forks): the parent reports
            writeRaw(rows, raw);
            print(rows, System.out);
            return rows.stream().allMatch(Row::validated) ? 0 : 1;
        }
        String name = quick ? "quick" : "compare";
        Path txt = outDir.resolve(name + ".txt");
        csv = csv != null ? csv : outDir.resolve(name + ".csv");
        svg = svg != null ? svg : outDir.resolve(name + ".svg");
        String report = report(rows);
        System.out.print(report);
        Files.createDirectories(txt.toAbsolutePath().getParent());
        Files.writeString(txt, report);
        writeCsv(rows, csv);
        Chart.write(rows, svg, "Time relative to Weft react (lower is faster), " + (quick ? "compare --quick" : "compare"));
        System.out.println();
        System.out.println("table and summary: " + txt);
        System.out.println("CSV:               " + csv);
        System.out.println("chart (SVG):       " + svg);
        return rows.stream().allMatch(Row::validated) ? 0 : 1;
    }

    /** The table, then the summary, as printed and as written to the {@code .txt} file. */
    static String report(List<Row> rows) {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
        print(rows, out);
        out.println();
        printSummary(rows, out);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Each peer's median divided by the base implementation's ({@code --base}, default Weft react),
     * per workload where both ran and validated.
     *
     * @return peer name to (workload to ratio), peers in the order of {@link Impl}
     */
    static Map<String, Map<String, Double>> ratios(List<Row> rows) {
        Map<String, Map<String, Double>> byPeer = new LinkedHashMap<>();
        for (Row r : rows) {
            if (r.impl().equals(base)) {
                continue;
            }
            Map<String, Double> mine = byPeer.computeIfAbsent(r.impl(), k -> new LinkedHashMap<>());
            Row weft = rows.stream()
                    .filter(w -> w.workload().equals(r.workload()) && w.impl().equals(base))
                    .findFirst().orElse(null);
            if (weft != null && weft.validated() && r.validated()) {
                double ratio = r.median() / weft.median();
                if (ratio > 0 && Double.isFinite(ratio)) {
                    mine.put(r.workload(), ratio);
                }
            }
        }
        Map<String, Map<String, Double>> ordered = new LinkedHashMap<>();
        for (Impl i : Impl.values()) {
            if (byPeer.containsKey(i.cliName())) {
                ordered.put(i.cliName(), byPeer.remove(i.cliName()));
            }
        }
        ordered.putAll(byPeer);
        return ordered;
    }

    /**
     * The geometric mean of a peer's ratios over the workloads.
     *
     * @param ratios workload to ratio
     * @return the geometric mean, NaN if there is none
     */
    static double geomean(Map<String, Double> ratios) {
        if (ratios.isEmpty()) {
            return Double.NaN;
        }
        double sum = 0;
        for (double v : ratios.values()) {
            sum += Math.log(v);
        }
        return Math.exp(sum / ratios.size());
    }

    /**
     * Prints, per workload, each peer's median over Weft react's (above 1: Weft is faster), then the
     * geometric mean per peer and on how many workloads Weft was faster.
     */
    static void printSummary(List<Row> rows, PrintStream out) {
        Map<String, Map<String, Double>> ratios = ratios(rows);
        String name = base.equals(Impl.WEFT.cliName()) ? "Weft react" : base;
        if (ratios.isEmpty() || rows.stream().noneMatch(r -> r.impl().equals(base))) {
            out.println("summary: no ratios (" + name + " did not run, or no other implementation did)");
            return;
        }
        List<String> peers = new ArrayList<>(ratios.keySet());
        List<String> workloads = rows.stream().map(Row::workload).distinct().toList();
        out.println("summary: each implementation's median time / " + name + "'s (above 1 = " + name + " is faster; - = not run);");
        out.println("the geometric mean is over the workloads that implementation ran");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%-18s", "workload"));
        for (String p : peers) {
            head.append(String.format(Locale.ROOT, " %11s", p));
        }
        out.println(head);
        for (String w : workloads) {
            StringBuilder line = new StringBuilder(String.format(Locale.ROOT, "%-18s", w));
            for (String p : peers) {
                Double v = ratios.get(p).get(w);
                line.append(String.format(Locale.ROOT, " %11s", v == null ? "-" : ratio(v)));
            }
            out.println(line);
        }
        StringBuilder geo = new StringBuilder(String.format(Locale.ROOT, "%-18s", "geometric mean"));
        for (String p : peers) {
            double g = geomean(ratios.get(p));
            geo.append(String.format(Locale.ROOT, " %11s", Double.isNaN(g) ? "-" : ratio(g)));
        }
        out.println(geo);
        for (String p : peers) {
            Map<String, Double> m = ratios.get(p);
            if (m.isEmpty()) {
                continue;
            }
            long faster = m.values().stream().filter(v -> v > 1).count();
            double g = geomean(m);
            out.printf(Locale.ROOT, "%s vs %s: faster on %d of %d workloads; %s%n", name, p, faster, m.size(),
                    g >= 1 ? String.format(Locale.ROOT, "%s takes %s %s's time on geometric mean", p, ratio(g), name)
                            : String.format(Locale.ROOT, "%s is faster, at %s of %s's time on geometric mean", p, ratio(g), name));
        }
    }

    private static String ratio(double v) {
        return v >= 100 ? String.format(Locale.ROOT, "%.0fx", v) : String.format(Locale.ROOT, "%.2fx", v);
    }

    static List<Workload> select(Set<String> only) {
        if (only == null) {
            return Workloads.all();
        }
        for (String n : only) {
            try {
                Workloads.named(n);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("--only: " + e.getMessage(), e);
            }
        }
        return Workloads.all().stream().filter(w -> only.contains(w.name())).toList();
    }

    static List<Row> run(List<Workload> workloads, List<Impl> impls, Scale scale, int warmup, int runs, PrintStream progress) {
        return run(workloads, impls, scale, warmup, runs, progress, false);
    }

    /** As above; with {@code each}, every run's time (warm-up rounds marked) goes to {@code progress} too. */
    static List<Row> run(List<Workload> workloads, List<Impl> impls, Scale scale, int warmup, int runs, PrintStream progress,
            boolean each) {
        Map<Impl, Kit> kits = new EnumMap<>(Impl.class);
        List<Row> rows = new ArrayList<>();
        try {
            for (Impl impl : impls) {
                kits.put(impl, impl.create());
            }
            int index = 0;
            for (Workload w : workloads) {
                index++;
                List<Impl> here = impls.stream()
                        .filter(w::supports)
                        .filter(i -> w.liveActors(scale) <= kits.get(i).maxActors())
                        .toList();
                progress.printf("[%d/%d] %s (%s) on %s ...%n", index, workloads.size(), w.name(), w.describe(scale),
                        here.stream().map(Impl::cliName).toList());
                Map<Impl, List<Double>> times = new LinkedHashMap<>();
                Map<Impl, String> errors = new EnumMap<>(Impl.class);
                for (Impl i : here) {
                    times.put(i, new ArrayList<>());
                }
                for (int round = 0; round < warmup + runs; round++) {
                    for (Impl i : here) {
                        if (errors.containsKey(i)) {
                            continue;
                        }
                        System.gc();
                        long t0 = System.nanoTime();
                        try {
                            w.run(kits.get(i), scale);
                        } catch (Exception | AssertionError e) {
                            errors.put(i, e.toString());
                            progress.println("  FAILED " + w.name() + " on " + i.cliName() + ": " + e);
                            continue;
                        }
                        double ms = (System.nanoTime() - t0) / 1e6;
                        if (round >= warmup) {
                            times.get(i).add(ms);
                        }
                        if (each) {
                            progress.printf("    %s round %d%s: %s ms%n", i.cliName(), round + 1,
                                    round < warmup ? " (warm-up)" : "", fmt(ms));
                        }
                    }
                }
                rows.addAll(rowsOf(w, here, times, errors, Set.of(), progress));
            }
        } finally {
            for (Kit k : kits.values()) {
                k.close();
            }
        }
        return rows;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + ": missing value");
        }
        return args[i];
    }

    private static int positive(String s, String option) {
        int v = Integer.parseInt(s);
        if (v < 1) {
            throw new IllegalArgumentException(option + ": must be at least 1, was " + v);
        }
        return v;
    }

    static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return v >= 100 ? String.format(Locale.ROOT, "%.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /** One workload's rows (implementations not skipped, in order), and its progress line. */
    private static List<Row> rowsOf(Workload w, List<Impl> here, Map<Impl, List<Double>> times, Map<Impl, String> errors,
            Set<Impl> skipped, PrintStream progress) {
        List<Row> mine = new ArrayList<>();
        for (Impl i : here) {
            if (!skipped.contains(i)) {
                mine.add(new Row(w.name(), i.cliName(), times.get(i), !errors.containsKey(i), errors.get(i)));
            }
        }
        progress.println("  " + mine.stream()
                .map(r -> r.impl() + " " + fmt(r.median()) + " ms" + (r.validated() ? "" : " FAILED"))
                .collect(Collectors.joining(", ")));
        return mine;
    }

    /**
     * {@code --forks}: runs each (workload, implementation) in child JVMs, {@code forks} rounds, and
     * pools their measured runs. A child that fails to report marks the row as not validated, and
     * the first and last lines of its standard error are repeated on {@code progress} (without
     * {@code each}, which shows all of it as it runs).
     */
    static List<Row> runForked(List<Workload> workloads, List<Impl> impls, boolean quick, int warmup, int runs, int forks,
            boolean each, PrintStream progress) throws IOException, InterruptedException {
        Scale scale = quick ? Scale.QUICK : Scale.FULL;
        List<Row> rows = new ArrayList<>();
        Path dir = Files.createTempDirectory("weft-compare-forks");
        try {
            int index = 0;
            for (Workload w : workloads) {
                index++;
                List<Impl> here = impls.stream().filter(w::supports).toList();
                progress.printf("[%d/%d] %s (%s) on %s, %d fork(s) each ...%n", index, workloads.size(), w.name(),
                        w.describe(scale), here.stream().map(Impl::cliName).toList(), forks);
                Map<Impl, List<Double>> times = new LinkedHashMap<>();
                Map<Impl, String> errors = new EnumMap<>(Impl.class);
                Set<Impl> skipped = EnumSet.noneOf(Impl.class);
                for (Impl i : here) {
                    times.put(i, new ArrayList<>());
                }
                for (int fork = 1; fork <= forks; fork++) {
                    for (Impl i : here) {
                        if (errors.containsKey(i) || skipped.contains(i)) {
                            continue;
                        }
                        Path out = dir.resolve(w.name() + "-" + i.cliName() + "-" + fork + ".raw");
                        Path err = dir.resolve(w.name() + "-" + i.cliName() + "-" + fork + ".err");
                        List<String> command = childCommand(w, i, quick, warmup, runs, each, out);
                        Process child = new ProcessBuilder(command)
                                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                                .redirectError(each ? ProcessBuilder.Redirect.INHERIT : ProcessBuilder.Redirect.to(err.toFile()))
                                .start();
                        int status = child.waitFor();
                        List<Row> got = Files.exists(out) ? readRaw(out) : List.of();
                        if (status == 0 && got.isEmpty()) {
                            skipped.add(i); // the child's filter: e.g. too many live actors for platform threads
                            continue;
                        }
                        if (got.size() != 1) {
                            errors.put(i, "fork " + fork + " exited with status " + status + " without a result");
                        } else if (!got.get(0).validated()) {
                            errors.put(i, got.get(0).error());
                        } else {
                            times.get(i).addAll(got.get(0).ms());
                        }
                        if (errors.containsKey(i)) {
                            progress.println("  FAILED " + w.name() + " on " + i.cliName() + ": " + errors.get(i));
                            if (!each) {
                                for (String line : headAndTail(err, FAILED_CHILD_LINES)) {
                                    progress.println("    | " + line); // the child's last words, otherwise lost
                                }
                            }
                        }
                    }
                }
                rows.addAll(rowsOf(w, here, times, errors, skipped, progress));
            }
        } finally {
            try (var files = Files.list(dir)) {
                for (Path f : files.toList()) {
                    Files.deleteIfExists(f);
                }
            }
            Files.deleteIfExists(dir);
        }
        return rows;
    }

    /**
     * Lines of a failed child's standard error that the progress output repeats, from its start
     * (the exception and its message) and from its end (where it stopped).
     */
    static final int FAILED_CHILD_LINES = 12;

    /**
     * The first and the last lines of a text file, for a failed child's standard error.
     *
     * @param file the file; a missing file has no lines
     * @param n how many lines at most from each end
     * @return all its lines if it has at most {@code 2 n}; else its first {@code n} lines, a line
     *     saying how many were left out, and its last {@code n} lines
     * @throws IOException if the file exists but cannot be read
     */
    static List<String> headAndTail(Path file, int n) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        if (all.size() <= 2 * n) {
            return all;
        }
        List<String> kept = new ArrayList<>(all.subList(0, n));
        kept.add("... (" + (all.size() - 2 * n) + " lines left out)");
        kept.addAll(all.subList(all.size() - n, all.size()));
        return kept;
    }

    /** The command of one fork: this JVM's java and options, this class path, one workload and implementation. */
    private static List<String> childCommand(Workload w, Impl i, boolean quick, int warmup, int runs, boolean each, Path out) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), Main.class.getName(), "compare",
                "--only", w.name(), "--impl", i.cliName(), "--runs", Integer.toString(runs),
                "--warmup", Integer.toString(warmup), "--raw", out.toString()));
        if (quick) {
            command.add("--quick");
        }
        if (each) {
            command.add("--each");
        }
        return command;
    }

    /** {@code --raw}: one line per row, {@code workload,impl,validated,ms ms ms...}, then the error if any. */
    static void writeRaw(List<Row> rows, Path file) throws IOException {
        StringBuilder b = new StringBuilder();
        for (Row r : rows) {
            b.append(r.workload()).append(',').append(r.impl()).append(',').append(r.validated()).append(',')
                    .append(r.ms().stream().map(v -> String.format(Locale.ROOT, "%.4f", v)).collect(Collectors.joining(" ")))
                    .append(',').append(r.error() == null ? "" : r.error().replace('\n', ' ')).append('\n');
        }
        Files.writeString(file, b);
    }

    static List<Row> readRaw(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank()) {
                continue;
            }
            String[] f = line.split(",", 5);
            if (f.length < 5) {
                throw new IllegalArgumentException(file + ": expected 5 fields in \"" + line + "\"");
            }
            List<Double> ms = f[3].isBlank() ? List.of()
                    : Arrays.stream(f[3].trim().split(" ")).map(Double::parseDouble).toList();
            rows.add(new Row(f[0], f[1], ms, Boolean.parseBoolean(f[2]), f[4].isEmpty() ? null : f[4]));
        }
        return rows;
    }

    static double weftMedian(List<Row> rows, String workload) {
        return rows.stream()
                .filter(r -> r.workload().equals(workload) && r.impl().equals(base) && r.validated())
                .mapToDouble(Row::median).findFirst().orElse(Double.NaN);
    }

    static void print(List<Row> rows, PrintStream out) {
        out.printf("%-18s %-12s %10s %10s %10s %9s  %s%n", "workload", "impl", "median ms", "min ms", "max ms",
                "vs " + base, "validated");
        for (Row r : rows) {
            double ratio = r.median() / weftMedian(rows, r.workload());
            out.printf("%-18s %-12s %10s %10s %10s %9s  %s%n", r.workload(), r.impl(), fmt(r.median()), fmt(r.min()),
                    fmt(r.max()), Double.isNaN(ratio) ? "-" : String.format(Locale.ROOT, "%.2fx", ratio),
                    r.validated() ? "yes" : "NO: " + r.error());
        }
    }

    static void writeCsv(List<Row> rows, Path file) throws IOException {
        StringBuilder b = new StringBuilder("workload,impl,median_ms,min_ms,max_ms,validated\n");
        for (Row r : rows) {
            b.append(String.format(Locale.ROOT, "%s,%s,%.3f,%.3f,%.3f,%s%n", r.workload(), r.impl(), r.median(), r.min(),
                    r.max(), r.validated()));
        }
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, b);
    }

    static List<Row> readCsv(Path file) throws IOException {
        List<Row> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file)) {
            if (line.isBlank() || line.startsWith("workload,")) {
                continue;
            }
            String[] f = line.split(",");
            if (f.length < 6) {
                throw new IllegalArgumentException(file + ": expected 6 columns in \"" + line + "\"");
            }
            double median = Double.parseDouble(f[2]);
            List<Double> ms = Double.isNaN(median) ? List.of() : List.of(Double.parseDouble(f[3]), median, Double.parseDouble(f[4]));
            rows.add(new Row(f[0], f[1], ms, Boolean.parseBoolean(f[5]), null));
        }
        return rows;
    }
}
