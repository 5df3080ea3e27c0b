package io.weft.actors.bench;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Receive;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import io.weft.actors.bench.workload.Workload;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code memory}: bytes per idle actor, as the growth of the heap (after {@code System.gc()})
 * when N actors that each handled one message sit waiting for the next. Measured for a bare Weft
 * react actor (shared handler, as an application would write it), the benchmark kit's Weft react
 * and thread-based actors, a Pekko classic actor, and a bare virtual thread parked on a
 * {@code LinkedBlockingQueue}.
 *
 * <p>Before each measurement 20,000 actors of the same kind each handle 20 messages and stop,
 * so that the receive and park path is compiled when the measured actors park (a thread-based
 * actor's parked stack is several times larger when its frames froze while interpreted). With {@code --repeat R}, each kind is measured R times (a fresh kit each time) and
 * the median is reported.
 *
 * <p>With {@code --burst B} only the bare react actor is measured, each measured actor first
 * handling B messages sent by two threads at once (B/2 each, both going over the actors in the
 * same order): concurrent producers and a backlog switch the default mailbox to its chunked form,
 * so this measures what an actor left idle after a burst keeps.
 */
public final class Memory {

    private static final MemoryMXBean HEAP = ManagementFactory.getMemoryMXBean();

    private Memory() {
    }

    /**
     * @param args {@code [--actors N] [--repeat R] [--csv FILE] [--only KIND,...] [--burst B]} (a
     *     kind: {@code bare} or an implementation's name, e.g. {@code weft-thread}; R measurements
     *     per kind, median reported; B: the bare actor only, idle after B messages from two threads)
     * @return the exit status
     * @throws Exception on failure
     */
    public static int run(String[] args) throws Exception {
        int n = 100_000;
        int repeat = 1;
        Path csv = null;
        List<String> only = null;
        int burst = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--actors" -> n = Integer.parseInt(args[++i]);
                case "--repeat" -> repeat = Integer.parseInt(args[++i]);
                case "--csv" -> csv = Path.of(args[++i]);
                case "--only" -> only = List.of(args[++i].split(","));
                case "--burst" -> burst = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("memory: unknown option \"" + args[i] + "\"");
            }
        }
        if (n < 1) {
            throw new IllegalArgumentException("--actors: must be at least 1, was " + n);
        }
        if (repeat < 1) {
            throw new IllegalArgumentException("--repeat: must be at least 1, was " + repeat);
        }
        if (burst < 0 || burst % 2 != 0) {
            throw new IllegalArgumentException("--burst: must be an even number of messages (two senders), was " + burst);
        }
        Map<String, Double> result;
        if (burst > 0) {
            if (only != null && !only.equals(List.of("bare"))) {
                throw new IllegalArgumentException("--burst: measures the bare react actor only; drop --only " + only);
            }
            int b = burst;
            result = new LinkedHashMap<>();
            int actors = n;
            result.put("weft react (bare) burst " + b, median(repeat, System.err, () -> bareWeftAfterBurst(actors, b)));
        } else {
            result = measureAll(n, System.err, only, repeat);
        }
        System.out.printf("%-28s %12s%n", "actor kind (" + String.format("%,d", n) + " idle)", "bytes/actor");
        result.forEach((k, v) -> System.out.printf(Locale.ROOT, "%-28s %12.0f%n", k, v));
        if (csv != null) {
            writeCsv(result, n, csv);
        }
        return 0;
    }

    /**
     * Measures every kind, one after the other in this JVM.
     *
     * @param n actors per kind
     * @param progress where to report progress
     * @return bytes per idle actor by kind, in a stable order
     * @throws Exception on failure
     */
    public static Map<String, Double> measureAll(int n, java.io.PrintStream progress) throws Exception {
        return measureAll(n, progress, null);
    }

    /**
     * Measures the given kinds, one after the other in this JVM.
     *
     * @param n actors per kind
     * @param progress where to report progress
     * @param only the kinds to measure ({@code bare} or implementation names), or null for all
     * @return bytes per idle actor by kind, in a stable order
     * @throws Exception on failure
     */
    public static Map<String, Double> measureAll(int n, java.io.PrintStream progress, List<String> only) throws Exception {
        return measureAll(n, progress, only, 1);
    }

    /**
     * Measures the given kinds, one after the other in this JVM, each {@code repeat} times.
     *
     * @param n actors per kind
     * @param progress where to report progress (and each run's number)
     * @param only the kinds to measure ({@code bare} or implementation names), or null for all
     * @param repeat measurements per kind; the median is returned
     * @return bytes per idle actor by kind (median of the runs), in a stable order
     * @throws Exception on failure
     */
    public static Map<String, Double> measureAll(int n, java.io.PrintStream progress, List<String> only, int repeat) throws Exception {
        Map<String, Double> result = new LinkedHashMap<>();
        if (only == null || only.contains("bare")) {
            progress.println("memory: weft react (bare) ...");
            result.put("weft react (bare)", median(repeat, progress, () -> bareWeft(n)));
        }
        for (Impl impl : List.of(Impl.WEFT, Impl.WEFT_THREAD, Impl.WEFT_CONT, Impl.FIBRY, Impl.PEKKO, Impl.VTHREADS)) {
            if (only != null && !only.contains(impl.cliName())) {
                continue;
            }
            if (impl == Impl.WEFT_CONT && only == null) {
                continue; // only when named: it needs --add-exports java.base/jdk.internal.vm=ALL-UNNAMED
            }
            progress.println("memory: " + impl.cliName() + " ...");
            result.put(label(impl), median(repeat, progress, () -> viaKit(impl, n)));
        }
        return result;
    }

    /** One measurement of one kind. */
    private interface Measurement {
        double bytesPerActor() throws Exception;
    }

    private static double median(int repeat, java.io.PrintStream progress, Measurement m) throws Exception {
        double[] runs = new double[repeat];
        for (int i = 0; i < repeat; i++) {
            runs[i] = m.bytesPerActor();
            progress.printf(Locale.ROOT, "memory:   run %d: %.0f B/actor%n", i + 1, runs[i]);
        }
        java.util.Arrays.sort(runs);
        return repeat % 2 == 1 ? runs[repeat / 2] : (runs[repeat / 2 - 1] + runs[repeat / 2]) / 2;
    }

    /** Actors of the warm-up, and messages each handles, before a measurement (class Javadoc). */
    private static final int WARM_ACTORS = 20_000;
    private static final int WARM_MESSAGES = 20;

    /**
     * Compiles the path a measured actor parks on: {@code actors} actors (at most
     * {@link #WARM_ACTORS}, and no more than are measured) each handle {@link #WARM_MESSAGES}
     * messages, then stop.
     */
    private static void warm(Kit kit, String what, int actors) throws InterruptedException {
        CountDownLatch handled = new CountDownLatch(actors * WARM_MESSAGES);
        CountDownLatch stopped = new CountDownLatch(actors);
        Handler h = (m, c) -> {
            if (m == Workload.STOP) {
                stopped.countDown();
                c.stop();
            } else {
                handled.countDown();
            }
        };
        List<Ref> refs = new ArrayList<>(actors);
        for (int i = 0; i < actors; i++) {
            refs.add(kit.spawn(h));
        }
        for (int round = 0; round < WARM_MESSAGES; round++) {
            for (Ref r : refs) {
                r.tell(Workload.START);
            }
        }
        for (Ref r : refs) {
            r.tell(Workload.STOP);
        }
        if (!handled.await(5, TimeUnit.MINUTES) || !stopped.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException(what + ": the warm-up actors did not finish within 5 minutes");
        }
        TimeUnit.MILLISECONDS.sleep(500); // their threads end after the handler returns: let them go before the baseline
    }

    private static String label(Impl impl) {
        return switch (impl) {
            case WEFT -> "weft react (bench kit)";
            case WEFT_THREAD -> "weft thread-based";
            case WEFT_CONT -> "weft thread-based (continuations)";
            case FIBRY -> "fibry";
            case PEKKO -> "pekko classic";
            case VTHREADS -> "virtual thread + queue";
            default -> impl.cliName();
        };
    }

    static long usedAfterGc() throws InterruptedException {
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 4; i++) {
            System.gc();
            TimeUnit.MILLISECONDS.sleep(50);
            used = Math.min(used, HEAP.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static double viaKit(Impl impl, int n) throws Exception {
        try (Kit kit = impl.create()) {
            CountDownLatch started = new CountDownLatch(n);
            Handler shared = (m, c) -> {
                if (m == Workload.STOP) {
                    c.stop();
                } else {
                    started.countDown();
                }
            };
            warm(kit, impl.cliName(), Math.min(WARM_ACTORS, n));
            // one warm-up actor so that lazily created runtime parts are not counted
            Ref warm = kit.spawn(shared);
            warm.tell(Workload.START);
            long before = usedAfterGc();
            List<Ref> refs = new ArrayList<>(n); // after the baseline: the list slot below
            for (int i = 0; i < n; i++) {
                Ref r = kit.spawn(shared);
                r.tell(Workload.START);
                refs.add(r);
            }
            if (!started.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException(impl.cliName() + ": actors did not start within 5 minutes");
            }
            long after = usedAfterGc();
            double perActor = (after - before - 16.0 * n) / n; // minus the list slot and the Ref wrapper (~16 B)
            for (Ref r : refs) {
                r.tell(Workload.STOP);
            }
            warm.tell(Workload.STOP);
            return perActor;
        }
    }

    private static double bareWeft(int n) throws Exception {
        CountDownLatch started = new CountDownLatch(n + 1);
        Receive<Object, Void> receive = Receive.<Object>handler().matchAny(m -> started.countDown()).build();
        Behavior<Object> behavior = self -> self.become(receive);
        try (ActorSystem system = ActorSystem.builder().name("memory").build()) {
            system.spawn(behavior).tell("hello");
            long before = usedAfterGc();
            List<Object> refs = new ArrayList<>(n); // after the baseline: the list slot below
            for (int i = 0; i < n; i++) {
                var r = system.spawn(behavior);
                r.tell("hello");
                refs.add(r);
            }
            if (!started.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("weft: actors did not start within 5 minutes");
            }
            long after = usedAfterGc();
            return (after - before - 4.0 * n) / n; // minus the list slot
        }
    }

    /**
     * The bare react actor idle after a burst of {@code burst} messages, half from each of two
     * threads that go over the actors in the same order.
     */
    private static double bareWeftAfterBurst(int n, int burst) throws Exception {
        CountDownLatch handled = new CountDownLatch(1);
        AtomicLong left = new AtomicLong((long) n * burst + 1);
        Receive<Object, Void> receive = Receive.<Object>handler().matchAny(m -> {
            if (left.decrementAndGet() == 0) {
                handled.countDown();
            }
        }).build();
        Behavior<Object> behavior = self -> self.become(receive);
        try (ActorSystem system = ActorSystem.builder().name("memory").build()) {
            system.spawn(behavior).tell("hello");
            long before = usedAfterGc();
            List<ActorRef<Object>> refs = new ArrayList<>(n); // after the baseline: the list slot below
            for (int i = 0; i < n; i++) {
                refs.add(system.spawn(behavior));
            }
            Thread[] senders = new Thread[2];
            for (int s = 0; s < senders.length; s++) {
                String message = "burst " + s;
                senders[s] = Thread.ofPlatform().name("burst-" + s).start(() -> {
                    for (var r : refs) {
                        for (int k = 0; k < burst / 2; k++) {
                            r.tell(message);
                        }
                    }
                });
            }
            for (Thread t : senders) {
                t.join();
            }
            if (!handled.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("weft: the bursts were not handled within 5 minutes (" + left.get() + " left)");
            }
            long after = usedAfterGc();
            return (after - before - 4.0 * n) / n; // minus the list slot
        }
    }

    static void writeCsv(Map<String, Double> result, int n, Path file) throws IOException {
        StringBuilder b = new StringBuilder("kind,actors,bytes_per_actor\n");
        result.forEach((k, v) -> b.append(String.format(Locale.ROOT, "%s,%d,%.0f%n", k, n, v)));
        Files.writeString(file, b);
    }
}
