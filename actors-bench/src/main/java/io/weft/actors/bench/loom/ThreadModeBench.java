package io.weft.actors.bench.loom;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code thread-mode}: what a thread-based actor's selective {@code receive} and a change of mode
 * cost, on messages already queued (no hand-off between threads is measured).
 *
 * <ul>
 *   <li>selective receive: an actor receives N {@code Integer}s with a handler that matches only
 *       {@code Integer}, after K {@code String}s it keeps (never matched, so they stay in its
 *       stash and every later receive passes them first); K = 1,000 against K = 0. The first
 *       receive takes the K strings from the mailbox and keeps them; it is timed apart from the
 *       N - 1 receives after it, which each skip the K kept messages, so the report gives the
 *       cost of a receive that skips K kept messages, the cost of keeping one message, and the
 *       whole (N receives including the keeping);
 *   <li>mode switch: an actor receives N messages alternating {@code receive} (thread mode) and
 *       {@code react} (event mode): each message is one switch (a {@code react} on the thread
 *       detaches it, the react handler's {@code switchToThread} starts the next thread), against N
 *       messages received in thread mode alone; the difference over N is the cost of one switch.
 * </ul>
 * Each case runs in alternation with its baseline in one JVM; the report gives medians of the
 * measured rounds. The selective receive's first round (after a priming spawn that receives 100
 * messages and keeps none) runs the keeping path cold (interpreted or in C1 code) and is reported
 * apart; W warm-up rounds of the same receives (with the keeping) follow before the measured
 * rounds, so that those give the steady state. The steady-state ratio is the median of each
 * round's own ratio (its two cases run back to back, so a change of the machine's other load
 * between rounds falls out).
 */
public final class ThreadModeBench {

    private static final Receive<Object, Object> INTEGERS = Receive.<Object, Object>returning()
            .match(Integer.class, i -> i).build();
    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    private ThreadModeBench() {
    }

    /**
     * Messages received, none kept, before the cold round: the JVM's first thread-based spawn and
     * receive (class loading, the first interpreted receives) is not counted in the cold round.
     */
    private static final int COLD_PRIMING = 100;

    /** Mode-switch rounds run before the measured ones (each a few hundred ms at 20,000 messages). */
    private static final int SWITCH_WARMUP = 5;

    /**
     * @param args {@code [--n N] [--kept K] [-r|--runs R] [-w|--warmup W]}: W warm-up rounds of the
     *     selective receive (the same receives, with the keeping) after the cold round and
     *     before the R measured rounds
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int n = 20_000;
        int kept = 1_000;
        int runs = 7;
        int warmup = 500;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--n" -> n = Integer.parseInt(args[++i]);
                case "--kept" -> kept = Integer.parseInt(args[++i]);
                case "-r", "--runs" -> runs = Integer.parseInt(args[++i]);
                case "-w", "--warmup" -> warmup = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("thread-mode: unknown option \"" + args[i] + "\"");
            }
        }
        Selective cold;
        List<Selective> measured = new ArrayList<>();
        List<Double> plain = new ArrayList<>();
        List<Double> switching = new ArrayList<>();
        try (ActorSystem system = ActorSystem.builder().name("thread-mode").build()) {
            // the JVM's first spawn and receives, with nothing kept, apart from the cold round
            selective(system, COLD_PRIMING, 0);
            // the first round of the keeping path: it runs interpreted or in C1 code
            cold = Selective.of(system, n, kept);
            for (int round = 0; round < warmup; round++) {
                Selective.of(system, n, kept);
                if (round < SWITCH_WARMUP) {
                    receiveOnly(system, n);
                    switching(system, n);
                }
            }
            for (int round = 0; round < runs; round++) {
                measured.add(Selective.of(system, n, kept));
                plain.add(receiveOnly(system, n));
                switching.add(switching(system, n));
            }
        }
        double none = median(measured, Selective::noneAll);
        double skipped = median(measured, Selective::keptAll);
        double noneAfter = median(measured, Selective::noneAfter);
        double keptAfter = median(measured, Selective::keptAfter);
        double keepEach = median(measured, Selective::keepEach);
        double base = median(plain, x -> x);
        double sw = median(switching, x -> x);
        String k = String.format(Locale.ROOT, "%,d", kept);
        System.out.printf(Locale.ROOT, "%-52s %12s%n", "case (" + String.format(Locale.ROOT, "%,d", n) + " messages, median of " + runs
                + " rounds after " + warmup + " warm-up)", "ns/message");
        System.out.printf(Locale.ROOT, "%-52s %12.1f%n", "receive, skipping none", noneAfter);
        System.out.printf(Locale.ROOT, "%-52s %12.1f%n", "receive, skipping " + k + " kept", keptAfter);
        System.out.printf(Locale.ROOT, "%-52s %12.2f%n", "  ratio (skipping kept / skipping none)", keptAfter / noneAfter);
        System.out.printf(Locale.ROOT, "%-52s %12.1f%n", "keeping one message (first receive), per kept", keepEach);
        System.out.printf(Locale.ROOT, "%-52s %12.1f%n", "all N receives, skipping none", none);
        System.out.printf(Locale.ROOT, "%-52s %12.1f%n", "all N receives, keeping and skipping " + k, skipped);
        System.out.printf(Locale.ROOT, "%-52s %12.2f%n", "  ratio (with the keeping), steady state", median(measured, r -> r.keptAll() / r.noneAll()));
        System.out.printf(Locale.ROOT, "%-52s %12.1f%n", "cold round: keeping one message, per kept", cold.keepEach());
        System.out.printf(Locale.ROOT, "%-52s %12.1f%n", "cold round: all N receives, skipping none", cold.noneAll());
        System.out.printf(Locale.ROOT, "%-52s %12.1f%n", "cold round: all N, keeping and skipping " + k, cold.keptAll());
        System.out.printf(Locale.ROOT, "%-52s %12.2f%n", "  ratio (with the keeping), cold round", cold.keptAll() / cold.noneAll());
        System.out.printf(Locale.ROOT, "%-52s %12.0f%n", "receive only (thread mode)", base);
        System.out.printf(Locale.ROOT, "%-52s %12.0f%n", "receive -> react -> receive, one switch each", sw);
        System.out.printf(Locale.ROOT, "%-52s %12.0f%n", "  cost per switch (difference)", sw - base);
    }

    /**
     * One round of the selective receive: N integers behind no kept message, then behind K.
     *
     * @param none ns of the first receive and of the N - 1 after it, nothing kept
     * @param kept the same behind K kept strings (the first receive keeps them)
     * @param n N
     * @param k K
     */
    private record Selective(long[] none, long[] kept, int n, int k) {

        static Selective of(ActorSystem system, int n, int k) throws Exception {
            long[] a = selective(system, n, 0);
            return new Selective(a, selective(system, n, k), n, k);
        }

        /** @return ns per message of all N receives, nothing kept */
        double noneAll() {
            return (double) (none[0] + none[1]) / n;
        }

        /** @return ns per message of all N receives behind K kept, the keeping included */
        double keptAll() {
            return (double) (kept[0] + kept[1]) / n;
        }

        double noneAfter() {
            return (double) none[1] / (n - 1);
        }

        double keptAfter() {
            return (double) kept[1] / (n - 1);
        }

        /** @return ns per kept message of the first receive, beyond the first receive with nothing kept */
        double keepEach() {
            return k == 0 ? 0 : (double) (kept[0] - none[0]) / k;
        }
    }

    /**
     * N integers received behind K kept strings.
     *
     * @return ns of the first receive (which keeps the K strings) and ns of the N - 1 after it
     */
    static long[] selective(ActorSystem system, int n, int kept) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        CompletableFuture<long[]> done = new CompletableFuture<>();
        ActorRef<Object> actor = system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
            await(go);
            long t0 = System.nanoTime();
            long sum = (Integer) self.receive(INTEGERS);
            long t1 = System.nanoTime();
            for (int i = 1; i < n; i++) {
                sum += (Integer) self.receive(INTEGERS);
            }
            long t2 = System.nanoTime();
            done.complete(sum == (long) n * (n - 1) / 2 ? new long[] {t1 - t0, t2 - t1} : null);
            self.stop();
        });
        for (int i = 0; i < kept; i++) {
            actor.tell("kept " + i);
        }
        for (int i = 0; i < n; i++) {
            actor.tell(i);
        }
        go.countDown();
        long[] t = done.get(5, TimeUnit.MINUTES);
        if (t == null) {
            throw new IllegalStateException("thread-mode: wrong sum of the received messages");
        }
        return t;
    }

    /** ns per message: N messages received in thread mode. */
    static double receiveOnly(ActorSystem system, int n) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        CompletableFuture<Long> done = new CompletableFuture<>();
        long[] t0 = new long[1];
        ActorRef<Object> actor = system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
            await(go);
            t0[0] = System.nanoTime();
            for (int i = 0; i < n; i++) {
                if ((Integer) self.receive(ANY) == n - 1) {
                    done.complete(System.nanoTime() - t0[0]);
                }
            }
        });
        for (int i = 0; i < n; i++) {
            actor.tell(i);
        }
        go.countDown();
        return perMessage(done, n);
    }

    /** ns per message: N messages, alternately received in thread mode and in a react handler. */
    static double switching(ActorSystem system, int n) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        CompletableFuture<Long> done = new CompletableFuture<>();
        long[] t0 = new long[1];
        ActorRef<Object> actor = system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
            Runnable[] threadStep = new Runnable[1];
            Receive<Object, Void> onEvent = Receive.handler().matchAny(m -> {
                if ((Integer) m == n - 1) {
                    done.complete(System.nanoTime() - t0[0]);
                } else {
                    self.switchToThread(threadStep[0]);
                }
            }).build();
            threadStep[0] = () -> {
                if ((Integer) self.receive(ANY) == n - 1) {
                    done.complete(System.nanoTime() - t0[0]);
                } else {
                    self.react(onEvent);
                }
            };
            await(go);
            t0[0] = System.nanoTime();
            threadStep[0].run();
        });
        for (int i = 0; i < n; i++) {
            actor.tell(i);
        }
        go.countDown();
        double ns = perMessage(done, n);
        actor.tell("stop");
        return ns;
    }

    private static double perMessage(CompletableFuture<Long> done, int n) throws Exception {
        long t = done.get(5, TimeUnit.MINUTES);
        if (t < 0) {
            throw new IllegalStateException("thread-mode: wrong sum of the received messages");
        }
        return (double) t / n;
    }

    private static void await(CountDownLatch go) {
        try {
            if (!go.await(1, TimeUnit.MINUTES)) {
                throw new IllegalStateException("thread-mode: not started within a minute");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static <T> double median(List<T> rounds, java.util.function.ToDoubleFunction<T> f) {
        List<Double> s = new ArrayList<>();
        for (T r : rounds) {
            s.add(f.applyAsDouble(r));
        }
        Collections.sort(s);
        int m = s.size();
        return m % 2 == 1 ? s.get(m / 2) : (s.get(m / 2 - 1) + s.get(m / 2)) / 2;
    }
}
