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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import java.util.function.Predicate;

/**
 * Starts three {@link Node}s, each in its own JVM on 127.0.0.1, and checks that they form a
 * cluster, that the ledger singleton runs on the oldest and answers every member, that the
 * registry and the topic "news" reach all three, that 30 sharded "counter" entities spread over
 * the three and each is one entity whichever member asks, and that when the oldest leaves the
 * other two keep answering: the ledger starts again on the next oldest, the counters that lived on
 * the oldest answer from the other two with their count started again, and the others keep their
 * count. Everything is bounded: the whole run fails after 40 s, and the nodes are stopped whatever
 * happens.
 */
public final class Trio {

    private static final long START = System.nanoTime();
    private static final long DEADLINE = START + TimeUnit.SECONDS.toNanos(40);

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

    /**
     * Sends {@code add} for {@code ids} to {@code p} and returns each id's answer, "host:count".
     */
    private static Map<String, String> add(Proc p, List<String> ids) throws Exception {
        String line = ask(p, "add " + String.join(",", ids), "TALLIES ");
        Map<String, String> out = new LinkedHashMap<>();
        for (String t : line.substring("TALLIES ".length()).split(" ")) {
            String[] kv = t.split("=");
            out.put(kv[0], kv[1]);
        }
        if (!out.keySet().equals(new LinkedHashSet<>(ids))) {
            throw new IllegalStateException(p.name + ": add " + ids + " answered " + line);
        }
        return out;
    }

    /**
     * Asks every counter in {@code home} once, id number i from {@code askers.get(i % size)}, and
     * checks each answer against {@code wanted(id, host before)}; returns the hosts now.
     */
    private static Map<String, String> addAll(List<Proc> askers, Map<String, String> home,
            BiFunction<String, String, Predicate<String>> wanted) throws Exception {
        List<List<String>> byAsker = new ArrayList<>();
        for (int k = 0; k < askers.size(); k++) {
            byAsker.add(new ArrayList<>());
        }
        for (String id : home.keySet()) {
            byAsker.get(Integer.parseInt(id.substring(1)) % askers.size()).add(id);
        }
        Map<String, String> now = new TreeMap<>();
        for (int k = 0; k < askers.size(); k++) {
            for (Map.Entry<String, String> e : add(askers.get(k), byAsker.get(k)).entrySet()) {
                String id = e.getKey();
                if (!wanted.apply(id, home.get(id)).test(e.getValue())) {
                    throw new IllegalStateException(askers.get(k).name + ": counter " + id + " (on " + home.get(id)
                            + " before) answered " + e.getValue());
                }
                now.put(id, e.getValue().split(":")[0]);
            }
        }
        return now;
    }

    /** "10 on n1, 9 on n2, 11 on n3": how many of the counters each member hosts. */
    private static String spread(Map<String, String> hosts) {
        Map<String, Integer> n = new TreeMap<>();
        hosts.values().forEach(h -> n.merge(h, 1, Integer::sum));
        List<String> parts = new ArrayList<>();
        n.forEach((h, c) -> parts.add(c + " on " + h));
        return String.join(", ", parts);
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
                p.await(0, l -> l.startsWith("READY "), 15, "READY");
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

            // sharded counters c0..c29, counter number i asked from n(i % 3 + 1): each starts on
            // the member that owns its shard and counts 1 (in the rare case that one member owns
            // none of their shards, 30 more ids are added, at most twice, so all three host some)
            Map<String, String> home = new TreeMap<>();
            for (int batch = 0; batch < 3 && (batch == 0 || new TreeSet<>(home.values()).size() < 3); batch++) {
                Map<String, String> fresh = new TreeMap<>();
                for (int i = batch * 30; i < batch * 30 + 30; i++) {
                    fresh.put("c" + i, "");
                }
                home.putAll(addAll(procs, fresh, (id, before) -> got -> got.matches("n[123]:1")));
            }
            if (new TreeSet<>(home.values()).size() < 3) {
                throw new IllegalStateException("the counters' shards are not on all three members: " + spread(home));
            }
            System.out.println(home.size() + " counters started, each counted 1: " + spread(home));
            // asked again, counter i from the next member: the same entity answers, with count 2
            addAll(List.of(n2, n3, n1), home, (id, before) -> got -> got.equals(before + ":2"));
            System.out.println("asked again from another member: the same " + home.size() + " entities counted 2");

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

            // every counter answers from n2 or n3: the ones that lived on n1 moved and their
            // count started again (1: entity state is not persisted), the others counted 3
            Map<String, String> after = addAll(List.of(n2, n3), home, (id, before) -> before.equals("n1")
                    ? got -> got.equals("n2:1") || got.equals("n3:1")
                    : got -> got.equals(before + ":3"));
            Map<String, String> moved = new TreeMap<>();
            home.forEach((id, before) -> {
                if (before.equals("n1")) {
                    moved.put(id, after.get(id));
                }
            });
            System.out.println("after n1 left: the " + moved.size() + " counters from n1 moved (" + spread(moved)
                    + ") and counted 1, started again; the other " + (home.size() - moved.size()) + " stayed and counted 3");
            System.out.printf("TRIO OK in %.1f s%n", (System.nanoTime() - START) / 1e9);
        } finally {
            for (Proc p : procs) {
                p.stop();
            }
        }
    }
}
