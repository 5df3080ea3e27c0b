package io.weft.actors.runtime.testing;

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

/**
 * A peer JVM of a multi-JVM test: a main class started with this JVM's {@code java}, class path and
 * module path (joined into one class path), its standard error written to
 * {@code target/peer-logs/<name>-<nanos>.log}, its standard output kept line by line, commands
 * written to its standard input. {@link #close()} closes its input (the peer's signal to exit),
 * waits a bounded time and kills it if it has not ended.
 */
public final class PeerProcess implements AutoCloseable {

    private final Process process;
    private final String name;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Semaphore arrived = new Semaphore(0);
    private final Writer stdin;
    private int consumed;

    /**
     * Starts the peer and waits for its first line starting with {@code readyPrefix}; kills it if
     * none comes within {@code readySeconds}.
     *
     * @param name the peer's name, for its log file and the failure
     * @param jvmOptions options before the class path ({@code -Xmx...}, {@code --add-exports ...})
     * @param main the main class
     * @param args the main class's arguments
     * @param readyPrefix the start of the line the peer prints when it is ready
     * @param readySeconds how long to wait for it
     * @throws IOException if the process cannot be started
     * @throws InterruptedException if interrupted while waiting
     * @throws IllegalStateException if the ready line does not come in time
     */
    public PeerProcess(String name, List<String> jvmOptions, Class<?> main, List<String> args, String readyPrefix, int readySeconds)
            throws IOException, InterruptedException {
        this.name = name;
        List<String> cp = new ArrayList<>();
        for (String p : new String[] {System.getProperty("jdk.module.path"), System.getProperty("java.class.path")}) {
            if (p != null && !p.isBlank()) {
                cp.add(p);
            }
        }
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        command.add("-cp");
        command.add(String.join(File.pathSeparator, cp));
        command.add(main.getName());
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        Path logs = Path.of("target", "peer-logs");
        Files.createDirectories(logs);
        pb.redirectError(logs.resolve(name + "-" + System.nanoTime() + ".log").toFile());
        process = pb.start();
        stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread.ofPlatform().daemon().name("peer-stdout-" + name).start(() -> {
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
        if (line(readyPrefix, readySeconds) == null) {
            process.destroyForcibly();
            throw new IllegalStateException("peer " + name + " did not print " + readyPrefix + " within " + readySeconds
                    + " s (see target/peer-logs)");
        }
    }

    /**
     * The peer's process.
     *
     * @return the process
     */
    public Process process() {
        return process;
    }

    /**
     * Waits for a line starting with the prefix among all the peer has printed so far; lines are
     * not consumed, so the order of calls does not matter.
     *
     * @param prefix the line's start
     * @param seconds how long to wait at most
     * @return the line, or null if none came in time or the process ended without it
     * @throws InterruptedException if interrupted while waiting
     */
    public String line(String prefix, int seconds) throws InterruptedException {
        return find(prefix, seconds, false);
    }

    /**
     * Waits for the next line starting with the prefix after the last one this method returned, for
     * replies to a command that is sent more than once.
     *
     * @param prefix the line's start
     * @param seconds how long to wait at most
     * @return the line, or null if none came in time or the process ended without it
     * @throws InterruptedException if interrupted while waiting
     */
    public String nextLine(String prefix, int seconds) throws InterruptedException {
        return find(prefix, seconds, true);
    }

    private String find(String prefix, int seconds, boolean consume) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (true) {
            boolean alive = process.isAlive();
            int n = lines.size();
            for (int i = consume ? consumed : 0; i < n; i++) {
                String l = lines.get(i);
                if (l.startsWith(prefix)) {
                    if (consume) {
                        consumed = i + 1;
                    }
                    return l;
                }
            }
            if (!alive || System.nanoTime() - deadline > 0) {
                return null;
            }
            arrived.tryAcquire(100, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Writes one command line to the peer's standard input.
     *
     * @param command the line, without its line end
     * @throws IOException if the peer's input is closed
     */
    public void send(String command) throws IOException {
        stdin.write(command + "\n");
        stdin.flush();
    }

    /**
     * Kills the peer at once and waits (at most 30 s) for it to end.
     *
     * @throws InterruptedException if interrupted while waiting
     */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(30, TimeUnit.SECONDS);
    }

    /** Closes the peer's input, waits at most 15 s for it to exit, then kills it. */
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

    @Override
    public String toString() {
        return "peer " + name + " (pid " + process.pid() + ")";
    }
}
