package io.weft.actors.cluster;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

/** A {@link ClusterPeerMain} in its own JVM, started with this JVM's class and module path. */
final class ClusterPeer implements AutoCloseable {

    final Process process;
    final Member member;
    final String echo;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Semaphore arrived = new Semaphore(0);
    private final Writer stdin;

    ClusterPeer(String name, int port, String seeds) throws IOException, InterruptedException {
        this(ClusterPeerMain.class, name, port, seeds);
    }

    /** A peer running another main class that takes the same arguments and prints the same READY line. */
    ClusterPeer(Class<?> main, String name, int port, String seeds) throws IOException, InterruptedException {
        List<String> cp = new ArrayList<>();
        for (String p : new String[] {System.getProperty("jdk.module.path"), System.getProperty("java.class.path")}) {
            if (p != null && !p.isBlank()) {
                cp.add(p);
            }
        }
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(javaBin, "-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true", "-cp", String.join(File.pathSeparator, cp), main.getName(), name,
                Integer.toString(port), seeds);
        Path logs = Path.of("target", "peer-logs");
        Files.createDirectories(logs);
        pb.redirectError(logs.resolve("cluster-" + name + "-" + System.nanoTime() + ".log").toFile());
        process = pb.start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("cluster-peer-stdout-" + name).start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                    arrived.release();
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        String ready = line("READY", 90);
        if (ready == null) {
            process.destroyForcibly();
            throw new IllegalStateException("cluster peer " + name + " did not start within 90 s (see target/peer-logs)");
        }
        String[] f = ready.split(" ");
        member = Member.parse(f[1]);
        echo = f[2];
    }

    /**
     * Waits for a line starting with the prefix among all the peer has printed so far (lines are
     * not consumed, so the order of calls does not matter).
     *
     * @return the line, or null if none came in time or the process ended without it
     */
    String line(String prefix, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            boolean alive = process.isAlive();
            for (String l : lines) {
                if (l.startsWith(prefix)) {
                    return l;
                }
            }
            if (!alive || System.nanoTime() > deadline) {
                return null;
            }
            arrived.tryAcquire(100, TimeUnit.MILLISECONDS);
        }
    }

    void send(String command) throws IOException {
        stdin.write(command + "\n");
        stdin.flush();
    }

    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() {
        try {
            stdin.close();
        } catch (IOException e) {
            // already gone
        }
        try {
            if (!process.waitFor(15, TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
