package com.example.trio;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Starts three {@link Node}s, each in its own JVM on 127.0.0.1, and checks that they form a
 * cluster, that the ledger singleton runs on the oldest and answers every member, that the
 * registry and the topic "news" reach all three, and that when the oldest leaves the other two
 * keep answering (the ledger starts again on the next oldest). Everything is bounded: the whole
 * run fails after 28 s, and the nodes are stopped whatever happens.
 */
public final class Trio {

    private static final long DEADLINE = System.nanoTime() + TimeUnit.SECONDS.toNanos(28);

    private Trio() {
    }

    /** A node's process and the lines it printed. */
    private static final class Proc {
        final String name;
        final Process process;
        final List<String> lines = new CopyOnWriteArrayList<>();
        final Semaphore arrived = new Semaphore(0);
        final Writer stdin;

        Proc(String name, int port, String seeds) throws IOException {
            this.name = name;
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Files.createDirectories(Path.of("target"));
            process = new ProcessBuilder(java, "-Xmx128m", "-XX:TieredStopAtLevel=1", "-Djava.net.preferIPv4Stack=true",
                    "-cp", System.getProperty("java.class.path"), Node.class.getName(), name, Integer.toString(port), seeds)
                    .redirectError(Path.of("target", "trio-" + name + ".log").toFile())
                    .start();
            stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            Thread.ofPlatform().daemon().name("trio-" + name).start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                    String l;
                    while ((l = r.readLine()) != null) {
                        lines.add(l);
                        arrived.release();
                    }
                } catch (IOException e) {
                    // the process ended
                }
            });
        }

        void send(String command) throws IOException {
            stdin.write(command + "\n");
            stdin.flush();
        }

        /** The first line from index {@code from} on that matches, waiting at most {@code seconds} (and never past the deadline). */
        int await(int from, Predicate<String> wanted, long seconds, String what) throws InterruptedException {
            int i = find(from, wanted, seconds);
            if (i < 0) {
                throw new IllegalStateException(name + ": no " + what + " (lines: " + lines + "; its log is target/trio-" + name + ".log)");
            }
            return i;
        }

        int find(int from, Predicate<String> wanted, long seconds) throws InterruptedException {
            long until = Math.min(DEADLINE, System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds));
            while (true) {
                for (int i = from; i < lines.size(); i++) {
                    if (wanted.test(lines.get(i))) {
                        return i;
                    }
                }
                if (System.nanoTime() > until || !process.isAlive() && arrived.availablePermits() == 0) {
                    return -1;
                }
                arrived.tryAcquire(50, TimeUnit.MILLISECONDS);
            }
        }

        String line(int i) {
            return lines.get(i);
        }

        /** Closes its input (the node then leaves and exits) and waits for it, killing it after 5 s. */
        void stop() throws InterruptedException {
            try {
                stdin.close();
            } catch (IOException e) {
                // already gone
            }
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(5, TimeUnit.SECONDS);
            }
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /** Sends a command and waits for the answer starting with {@code prefix}; returns the answer. */
    private static String ask(Proc p, String command, String prefix) throws Exception {
        int from = p.lines.size();
        p.send(command);
        return p.line(p.await(from, l -> l.startsWith(prefix), 28, prefix + " after " + command));
    }

    /** Repeats "who" until the answer lists {@code names} (the registry is eventually consistent). */
    private static void who(Proc p, String names) throws Exception {
        String got = null;
        for (int i = 0; i < 50 && System.nanoTime() < DEADLINE; i++) {
            got = ask(p, "who", "WHO ");
            if (got.equals("WHO " + names)) {
                System.out.println(p.name + " who -> " + got);
                return;
            }
            TimeUnit.MILLISECONDS.sleep(200); // between retries of a demo, not a wait for a state
        }
        throw new IllegalStateException(p.name + ": who answered " + got + ", wanted " + names);
    }

    private static void expect(String got, String wanted, Proc p, String command) {
        System.out.println(p.name + " " + command + " -> " + got);
        if (!got.equals(wanted)) {
            throw new IllegalStateException(p.name + ": " + command + " answered \"" + got + "\", wanted \"" + wanted + "\"");
        }
    }

    /**
     * Runs the three nodes.
     *
     * @param args unused
     * @throws Exception if a check fails (the exit status is then not 0)
     */
    public static void main(String[] args) throws Exception {
        int[] ports = {freePort(), freePort(), freePort()};
        String seeds = ports[0] + "," + ports[1] + "," + ports[2];
        List<Proc> procs = new ArrayList<>();
        try {
            // one after the other, so the view (oldest first) is n1, n2, n3: n1 hosts the ledger, then n2
            Proc n1 = new Proc("n1", ports[0], seeds);
            procs.add(n1);
            n1.await(0, l -> l.startsWith("READY "), 15, "READY");
            Proc n2 = new Proc("n2", ports[1], seeds);
            procs.add(n2);
            n2.await(0, l -> l.startsWith("READY "), 10, "READY");
            Proc n3 = new Proc("n3", ports[2], seeds);
            procs.add(n3);
            for (Proc p : procs) {
                p.await(0, l -> l.equals("MEMBERS 3"), 15, "cluster of three");
            }
            System.out.println("three members up");

            expect(ask(n3, "count", "COUNTED "), "COUNTED n1 1", n3, "count");
            expect(ask(n2, "count", "COUNTED "), "COUNTED n1 2", n2, "count");
            who(n3, "n1,n2,n3");

            // the topic: published on n3, read on n1 and n2 (repeated while n3 has not yet
            // received the others' subscriptions: they replicate like the registry)
            boolean heard = false;
            for (int i = 0; i < 50 && !heard && System.nanoTime() < DEADLINE; i++) {
                String text = "NEWS hello " + i;
                n3.send("publish hello " + i);
                heard = n1.find(0, text::equals, 1) >= 0 && n2.find(0, text::equals, 1) >= 0;
            }
            if (!heard) {
                throw new IllegalStateException("a message published on n3 did not reach n1 and n2");
            }
            System.out.println("n3 published, n1 and n2 read it");

            // the oldest leaves; n2 and n3 keep answering, the ledger starts again on n2
            int from2 = n2.lines.size();
            int from3 = n3.lines.size();
            ask(n1, "leave", "LEFT");
            n1.stop();
            n2.await(from2, l -> l.equals("MEMBERS 2"), 10, "n1 gone");
            n3.await(from3, l -> l.equals("MEMBERS 2"), 10, "n1 gone");
            System.out.println("n1 left");
            expect(ask(n3, "count", "COUNTED "), "COUNTED n2 1", n3, "count");
            expect(ask(n2, "count", "COUNTED "), "COUNTED n2 2", n2, "count");
            who(n3, "n2,n3");
            System.out.println("TRIO OK");
        } finally {
            for (Proc p : procs) {
                p.stop();
            }
        }
    }
}
