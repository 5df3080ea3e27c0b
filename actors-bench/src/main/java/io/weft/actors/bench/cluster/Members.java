package io.weft.actors.bench.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The two child members of a round: JVMs started from the bench's own class path with
 * {@code Main cluster-member <impl> <index> <ports>}, each printing {@code READY} once it is up.
 * Their standard error goes to {@code <tmpdir>/weft-cluster-bench/<impl>-<index>.log}. Closing
 * kills every child still alive and waits for it, bounded.
 */
final class Members implements AutoCloseable {

    private static final long READY_SECONDS = 90;

    private final List<Process> children = new ArrayList<>();

    /**
     * Ports for three members: for each a free TCP port on loopback whose neighbour 100 above
     * (JGroups' FD_SOCK2 socket) is free as well.
     *
     * @param count how many
     * @return the ports
     * @throws IOException if none can be probed
     */
    static int[] freePorts(int count) throws IOException {
        int[] ports = new int[count];
        int found = 0;
        for (int tries = 0; found < count && tries < 1_000; tries++) {
            int p = ThreadLocalRandom.current().nextInt(20_000, 40_000);
            if (free(p) && free(p + 100) && !taken(ports, found, p)) {
                ports[found++] = p;
            }
        }
        if (found < count) {
            throw new IOException("no " + count + " free port pairs (p, p+100) found between 20000 and 40100");
        }
        return ports;
    }

    private static boolean taken(int[] ports, int found, int p) {
        for (int i = 0; i < found; i++) {
            if (Math.abs(ports[i] - p) <= 100) {
                return true;
            }
        }
        return false;
    }

    private static boolean free(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * Starts children 1 and 2 in parallel and waits for both to be up.
     *
     * @param impl {@code weft} or {@code pekko}
     * @param ports every member's port, index 0 being this process
     * @throws Exception if a child does not print READY within 90 s
     */
    void startChildren(String impl, int[] ports) throws Exception {
        String cp = System.getProperty("java.class.path");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path logs = Path.of(System.getProperty("java.io.tmpdir"), "weft-cluster-bench");
        Files.createDirectories(logs);
        StringBuilder portList = new StringBuilder();
        for (int p : ports) {
            portList.append(portList.isEmpty() ? "" : ",").append(p);
        }
        List<CompletableFuture<Void>> ready = new ArrayList<>();
        for (int i = 1; i < ports.length; i++) {
            File log = logs.resolve(impl + "-" + i + ".log").toFile();
            Process p = new ProcessBuilder(java, "-Xmx512m", "-Djava.net.preferIPv4Stack=true",
                    "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", cp,
                    "io.weft.actors.bench.Main", "cluster-member", impl, Integer.toString(i), portList.toString())
                    .redirectError(log).start();
            children.add(p);
            ready.add(CompletableFuture.runAsync(() -> awaitReady(p, impl, log)));
        }
        CompletableFuture.allOf(ready.toArray(CompletableFuture[]::new)).get(READY_SECONDS + 5, TimeUnit.SECONDS);
    }

    /** Reads the child's output on a daemon thread until it ends (so a chatty child never blocks on a full pipe); fails unless READY comes. */
    private static void awaitReady(Process p, String impl, File log) {
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<Boolean> seen = new CompletableFuture<>();
        Thread drain = new Thread(() -> {
            try {
                String line;
                while ((line = out.readLine()) != null) {
                    if (line.equals("READY")) {
                        seen.complete(true);
                    }
                }
            } catch (IOException e) {
                // the child is gone
            }
            seen.complete(false);
        }, "cluster-bench-child-output");
        drain.setDaemon(true);
        drain.start();
        boolean ok;
        try {
            ok = seen.get(READY_SECONDS, TimeUnit.SECONDS);
        } catch (Exception e) {
            ok = false;
        }
        if (!ok) {
            p.destroyForcibly();
            throw new IllegalStateException(impl + " child did not print READY within " + READY_SECONDS + " s; see " + log);
        }
    }

    /**
     * CPU time used so far by this process and the children alive, as the operating system counts it.
     *
     * @return the sum, in nanoseconds; a process whose CPU time the system does not report counts 0
     */
    long cpuNanos() {
        long sum = ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
        for (Process p : children) {
            sum += p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
        }
        return sum;
    }

    /**
     * Kills a child at once (SIGKILL), the failure the bench measures recovery from.
     *
     * @param index the child's member index, 1 or 2
     */
    void kill(int index) {
        children.get(index - 1).destroyForcibly();
    }

    @Override
    public void close() {
        for (Process p : children) {
            p.destroyForcibly();
        }
        try {
            for (Process p : children) {
                p.waitFor(30, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        children.clear();
    }
}
