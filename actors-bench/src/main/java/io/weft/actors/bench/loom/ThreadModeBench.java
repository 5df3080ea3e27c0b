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
 * Each case runs in alternation with its baseline in one JVM; the report gives medians.
 */
public final class ThreadModeBench {

    private static final Receive<Object, Object> INTEGERS = Receive.<Object, Object>returning()
            .match(Integer.class, i -> i).build();
    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    private ThreadModeBench() {
    }

    /**
     * @param args {@code [--n N] [--kept K] [--runs R] [--warmup W]}
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int n = 20_000;
        int kept = 1_000;
        int runs = 7;
        int warmup = 5;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--n" -> n = Integer.parseInt(args[++i]);
                case "--kept" -> kept = Integer.parseInt(args[++i]);
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("thread-mode: unknown option \"" + args[i] + "\"");
            }
        }
        List<Double> skipNone = new ArrayList<>();
        List<Double> skipKept = new ArrayList<>();
        List<Double> skipNoneAfterFirst = new ArrayList<>();
        List<Double> skipKeptAfterFirst = new ArrayList<>();
        List<Double> keeping = new ArrayList<>();
        List<Double> plain = new ArrayList<>();
        List<Double> switching = new ArrayList<>();
        try (ActorSystem system = ActorSystem.builder().name("thread-mode").build()) {
            for (int round = 0; round < warmup + runs; round++) {
                long[] a0 = selective(system, n, 0);
                long[] b0 = selective(system, n, kept);
                double a = (double) (a0[0] + a0[1]) / n;
                double b = (double) (b0[0] + b0[1]) / n;
                double c = receiveOnly(system, n);
                double d = switching(system, n);
                if (round >= warmup) {
                    skipNone.add(a);
                    skipKept.add(b);
                    skipNoneAfterFirst.add((double) a0[1] / (n - 1));
                    skipKeptAfterFirst.add((double) b0[1] / (n - 1));
                    keeping.add(kept == 0 ? 0 : (double) (b0[0] - a0[0]) / kept);
                    plain.add(c);
                    switching.add(d);
                }
            }
        }
        double none = median(skipNone);
        double skipped = median(skipKept);
        double noneAfter = median(skipNoneAfterFirst);
        double keptAfter = median(skipKeptAfterFirst);
        double keepEach = median(keeping);
        double base = median(plain);
        double sw = median(switching);
        System.out.printf(Locale.ROOT, "%-46s %12s%n", "case (" + String.format(Locale.ROOT, "%,d", n) + " messages, median of " + runs + ")",
                "ns/message");
        String k = String.format(Locale.ROOT, "%,d", kept);
        System.out.printf(Locale.ROOT, "%-46s %12.1f%n", "receive, skipping none", noneAfter);
        System.out.printf(Locale.ROOT, "%-46s %12.1f%n", "receive, skipping " + k + " kept", keptAfter);
        System.out.printf(Locale.ROOT, "%-46s %12.2f%n", "  ratio (skipping kept / skipping none)", keptAfter / noneAfter);
        System.out.printf(Locale.ROOT, "%-46s %12.1f%n", "keeping one message (first receive), per kept", keepEach);
        System.out.printf(Locale.ROOT, "%-46s %12.1f%n", "  best round (least disturbed by other load)", Collections.min(keeping));
        System.out.printf(Locale.ROOT, "%-46s %12.1f%n", "all N receives, skipping none", none);
        System.out.printf(Locale.ROOT, "%-46s %12.1f%n", "all N receives, keeping and skipping " + k, skipped);
        System.out.printf(Locale.ROOT, "%-46s %12.2f%n", "  ratio (with the keeping)", skipped / none);
        System.out.printf(Locale.ROOT, "%-46s %12.2f%n", "  ratio of the best rounds", Collections.min(skipKept) / Collections.min(skipNone));
        System.out.printf(Locale.ROOT, "%-46s %12.0f%n", "receive only (thread mode)", base);
        System.out.printf(Locale.ROOT, "%-46s %12.0f%n", "receive -> react -> receive, one switch each", sw);
        System.out.printf(Locale.ROOT, "%-46s %12.0f%n", "  cost per switch (difference)", sw - base);
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

    private static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        Collections.sort(s);
        int m = s.size();
        return m % 2 == 1 ? s.get(m / 2) : (s.get(m / 2 - 1) + s.get(m / 2)) / 2;
    }
}
