package io.weft.actors.remote.remoting;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/** A {@link PeerMain} in a second JVM over one {@link Engine}, started with this JVM's class and module path. */
final class Peer implements AutoCloseable {

    final Process process;
    final String echo;
    final String checker;
    final String sizer;
    final long incarnation;
    private final BlockingQueue<String> lines = new ArrayBlockingQueue<>(1000);
    private final Writer stdin;

    Peer(int port, int advertised, Engine engine) throws IOException, InterruptedException {
        List<String> cp = new ArrayList<>();
        for (String p : new String[] {System.getProperty("jdk.module.path"), System.getProperty("java.class.path")}) {
            if (p != null && !p.isBlank()) {
                cp.add(p);
            }
        }
        String javaBin = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // the peer runs on the class path: Aeron's Agrona needs jdk.internal.misc exported to it there
        ProcessBuilder pb = new ProcessBuilder(javaBin, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED",
                "-cp", String.join(File.pathSeparator, cp), PeerMain.class.getName(), Integer.toString(port), Integer.toString(advertised),
                engine.name());
        // the peer's log, for diagnosis: target/peer-logs/peer-<port>-<time>.log
        Path logs = Path.of("target", "peer-logs");
        java.nio.file.Files.createDirectories(logs);
        pb.redirectError(logs.resolve("peer-" + port + "-" + System.nanoTime() + ".log").toFile());
        process = pb.start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = Thread.ofPlatform().daemon().name("peer-stdout").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.offer(line);
                }
            } catch (IOException e) {
                // the process ended
            }
        });
        String ready = line("READY", 60);
        if (ready == null) {
            process.destroyForcibly();
            reader.interrupt();
            throw new IllegalStateException("the peer JVM did not start within 60 s");
        }
        String[] f = ready.split(" ");
        echo = f[1];
        checker = f[2];
        sizer = f[3];
        incarnation = Long.parseLong(f[4]);
    }

    String line(String prefix, int seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            String l = lines.poll(100, TimeUnit.MILLISECONDS);
            if (l != null && l.startsWith(prefix)) {
                return l;
            }
            if (l == null && !process.isAlive()) {
                return null;
            }
        }
        return null;
    }

    long drops() throws IOException, InterruptedException {
        stdin.write("drops\n");
        stdin.flush();
        String l = line("DROPS", 30);
        return l == null ? -1 : Long.parseLong(l.substring(6));
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
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                kill();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
