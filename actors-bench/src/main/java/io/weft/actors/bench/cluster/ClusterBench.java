package io.weft.actors.bench.cluster;

import io.weft.actors.bench.Stats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Sharded entities on three JVMs on loopback, Weft's cluster sharding against Pekko Cluster
 * Sharding (classic, Artery TCP), the same work on both, implementations alternating in one run.
 *
 * <p>Each round, per implementation: this process starts as member 0 (Pekko's only seed, so its
 * shard coordinator; the first in Weft's view), then starts members 1 and 2 as child JVMs from the
 * same class path. All three host the entity type ({@value BenchNode#SHARDS} shards). This process
 * first asks every one of the entities once (so all exist), then runs a closed-loop load of
 * {@code --in-flight} concurrent asks of random entities, each answered with a reply, for
 * {@code --warmup} seconds unmeasured and {@code --seconds} measured: asks per second, p50 and p99
 * round trip, and the CPU time all three JVMs used per ask in the measured run (beside the share of
 * a core they use idle, measured for 2 s between warm-up and measured run). Then it kills
 * member 2 ({@code destroyForcibly}, SIGKILL) and measures the time until every entity has
 * answered an ask sent after the kill ({@link Recovery}), and, beside it, the time until member 0
 * no longer counts member 2 as up (polled every 10 ms). Failure detection and downing:
 * {@link FailureDetection}.
 */
public final class ClusterBench {

    private static final List<String> IMPLS = List.of("weft", "pekko");
    private static final Duration UP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration SERVED_TIMEOUT = Duration.ofSeconds(120);
    private static final Duration IDLE = Duration.ofSeconds(2);

    private ClusterBench() {
    }

    /** What is measured in one round of one implementation. */
    private record Row(double asksPerSecond, double p50, double p99, long failed, double cpuPerAskMicros, double idleCpuPercent,
            double killToDownMs, double killToServedMs) {
        double column(int c) {
            return switch (c) {
                case 0 -> asksPerSecond;
                case 1 -> p50;
                case 2 -> p99;
                case 3 -> failed;
                case 4 -> cpuPerAskMicros;
                case 5 -> idleCpuPercent;
                case 6 -> killToDownMs;
                default -> killToServedMs;
            };
        }
    }

    /**
     * Runs the benchmark.
     *
     * @param args {@code [--rounds N] [--impl weft,pekko] [--entities N] [--in-flight N] [--seconds S] [--warmup S]}
     * @return the exit status
     * @throws Exception if a member fails to start or entities are not served again
     */
    public static int run(String[] args) throws Exception {
        int rounds = 3;
        int entities = 1_000;
        int inFlight = 64;
        int seconds = 10;
        int warmup = 5;
        List<String> impls = IMPLS;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--impl" -> impls = Arrays.asList(args[i + 1].split(","));
                case "--entities" -> entities = Integer.parseInt(args[i + 1]);
                case "--in-flight" -> inFlight = Integer.parseInt(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("cluster: unknown option " + args[i]
                        + "; expected --rounds, --impl, --entities, --in-flight, --seconds or --warmup");
            }
        }
        for (String impl : impls) {
            if (!IMPLS.contains(impl)) {
                throw new IllegalArgumentException("cluster: unknown impl " + impl + ", expected some of " + IMPLS);
            }
        }
        List<String> ids = new ArrayList<>(entities);
        for (int i = 0; i < entities; i++) {
            ids.add("e" + i);
        }
        System.out.printf(Locale.ROOT, "cluster bench: 3 members on 127.0.0.1, %d rounds, impls %s, %,d entities in %d shards, %d asks in flight, "
                + "%d s warm-up + %d s measured, %d cores%n", rounds, impls, entities, BenchNode.SHARDS, inFlight, warmup, seconds,
                Runtime.getRuntime().availableProcessors());
        System.out.println("failure detection: " + FailureDetection.describe() + "; kill-to-served resolution " + Recovery.ASK_TIMEOUT_MS + " ms");
        System.out.println("impl    round    asks_s   p50_us   p99_us  failed  cpu_us_per_ask  idle_cpu_pct  kill_to_down_ms  kill_to_served_ms");
        Map<String, List<Row>> results = new LinkedHashMap<>();
        for (int r = 1; r <= rounds; r++) {
            for (String impl : impls) {
                Row row = round(impl, ids, inFlight, Duration.ofSeconds(warmup), Duration.ofSeconds(seconds));
                results.computeIfAbsent(impl, k -> new ArrayList<>()).add(row);
                System.out.printf(Locale.ROOT, "%-6s %6d %9.0f %8.0f %8.0f %7d %15.0f %13.1f %16.0f %18.0f%n", impl, r, row.asksPerSecond(),
                        row.p50(), row.p99(), row.failed(), row.cpuPerAskMicros(), row.idleCpuPercent(), row.killToDownMs(), row.killToServedMs());
                System.out.flush();
            }
        }
        printMedians(results);
        return 0;
    }

    private static void printMedians(Map<String, List<Row>> results) {
        System.out.println("medians:");
        System.out.println("impl         asks_s   p50_us   p99_us  failed  cpu_us_per_ask  idle_cpu_pct  kill_to_down_ms  kill_to_served_ms");
        Map<String, double[]> medians = new LinkedHashMap<>();
        for (var e : results.entrySet()) {
            double[] m = new double[8];
            for (int c = 0; c < m.length; c++) {
                int col = c;
                m[c] = Stats.median(e.getValue().stream().map(x -> x.column(col)).toList());
            }
            medians.put(e.getKey(), m);
            System.out.printf(Locale.ROOT, "%-10s %8.0f %8.0f %8.0f %7.0f %15.0f %13.1f %16.0f %18.0f%n", e.getKey(), m[0], m[1], m[2], m[3], m[4],
                    m[5], m[6], m[7]);
        }
        double[] w = medians.get("weft");
        double[] p = medians.get("pekko");
        if (w != null && p != null) {
            System.out.printf(Locale.ROOT, "weft/pekko %8.2f %8.2f %8.2f %7s %15.2f %13.2f %16.2f %18.2f%n", w[0] / p[0], w[1] / p[1], w[2] / p[2],
                    "", w[4] / p[4], w[5] / p[5], w[6] / p[6], w[7] / p[7]);
            System.out.println("(asks/s: higher is better for weft; the other ratios: lower is better)");
        }
    }

    private static Row round(String impl, List<String> ids, int inFlight, Duration warmup, Duration measured) throws Exception {
        int[] ports = Members.freePorts(3);
        try (BenchNode client = start(impl, 0, ports); Members members = new Members()) {
            members.startChildren(impl, ports);
            awaitUp(client, 3, impl);
            Recovery.untilAllServed(client, ids, inFlight, Duration.ofSeconds(10), System.nanoTime(), SERVED_TIMEOUT);
            AskLoad.run(client, ids, inFlight, warmup);
            long idle0 = members.cpuNanos();
            long idleStart = System.nanoTime();
            LockSupport.parkNanos(IDLE.toNanos());
            double idlePercent = 100.0 * (members.cpuNanos() - idle0) / (System.nanoTime() - idleStart);
            long cpu0 = members.cpuNanos();
            AskLoad load = AskLoad.run(client, ids, inFlight, measured);
            long cpu = members.cpuNanos() - cpu0;
            long killed = System.nanoTime();
            members.kill(2);
            CompletableFuture<Duration> down = CompletableFuture.supplyAsync(() -> untilFewerUp(client, 3, killed),
                    r -> Thread.ofVirtual().start(r));
            Duration served = Recovery.untilAllServed(client, ids, inFlight, Duration.ofMillis(Recovery.ASK_TIMEOUT_MS), killed,
                    SERVED_TIMEOUT);
            Duration downAfter = down.get(SERVED_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            double cpuPerAsk = cpu / 1e3 / Math.max(1, load.completed());
            return new Row(load.asksPerSecond(), load.p50Micros(), load.p99Micros(), load.failed(), cpuPerAsk, idlePercent,
                    downAfter.toNanos() / 1e6, served.toNanos() / 1e6);
        }
    }

    /** Polls every 10 ms until the node sees fewer than {@code members} up; the time since {@code since}, or the timeout. */
    private static Duration untilFewerUp(BenchNode node, int members, long since) {
        long end = since + SERVED_TIMEOUT.toNanos();
        while (node.membersUp() >= members && System.nanoTime() < end) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        return Duration.ofNanos(System.nanoTime() - since);
    }

    private static void awaitUp(BenchNode node, int members, String impl) {
        long end = System.nanoTime() + UP_TIMEOUT.toNanos();
        while (node.membersUp() < members) {
            if (System.nanoTime() > end) {
                throw new IllegalStateException(impl + ": member 0 sees " + node.membersUp() + " members up, not " + members
                        + ", after " + UP_TIMEOUT);
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(50));
        }
    }

    /**
     * Starts a member of an implementation in this JVM.
     *
     * @param impl {@code weft} or {@code pekko}
     * @param index the member's index
     * @param ports every member's port
     * @return the member, up, hosting the entity type
     * @throws Exception if it does not start
     */
    static BenchNode start(String impl, int index, int[] ports) throws Exception {
        return switch (impl) {
            case "pekko" -> PekkoNode.start(index, ports);
            case "weft" -> WeftNode.start(index, ports);
            default -> throw new IllegalArgumentException("cluster: unknown impl " + impl);
        };
    }

    /**
     * A child member's entry ({@code cluster-member <impl> <index> <ports>}): starts the member,
     * prints {@code READY} once it is up, and runs until its standard input ends or it is killed.
     *
     * @param args the implementation, the member index and the comma-separated ports of all members
     * @throws Exception if the member does not start
     */
    public static void member(String[] args) throws Exception {
        int[] ports = Arrays.stream(args[2].split(",")).mapToInt(Integer::parseInt).toArray();
        try (BenchNode node = start(args[0], Integer.parseInt(args[1]), ports)) {
            System.out.println(node.membersUp() > 0 ? "READY" : "NOT-UP");
            System.out.flush();
            while (System.in.read() >= 0) {
                // the bench kills this JVM
            }
        }
    }
}
