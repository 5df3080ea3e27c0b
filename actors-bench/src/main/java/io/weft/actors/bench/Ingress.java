package io.weft.actors.bench;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.weft.actors.Actor;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.Props;

/**
 * {@code java -jar actors-bench.jar ingress [-n N] [-r ROUNDS] [-w WARMUP] [-k ACTORS] [-h HOPS] [--only PART,...] [--style S]
 * [--hop-histogram] [--hop-slow NS] [--hop-wait spin|park]}:
 * messages from threads that are not actors (issue 28). Parts, each Weft side by side with Pekko
 * classic in the same JVM, variants alternating round after round:
 * <ul>
 *   <li>{@code one}: a plain thread tells one actor N messages; Weft in each handler style
 *       ({@code loop(() -> react(...))}, {@code become}, an {@code Actor} subclass), Pekko's
 *       {@code AbstractActor}; ns per message, from the first tell until the actor has handled the
 *       last; the {@code loop} and {@code become} styles also with a bounded mailbox of 4096 whose
 *       overflow policy is {@code BLOCK} (flow control back to the sending thread);
 *       {@code --style loop|loop-one-handler|become|actor|loop-block|become-block|pekko} runs that one
 *       alone, so that the JVM sees one handler style, as a service with one actor class on this path does;</li>
 *   <li>{@code many}: 2, 4 and 8 producer threads into one actor, N messages in all;</li>
 *   <li>{@code fanout}: one producer into K actors, round-robin, N messages in all;</li>
 *   <li>{@code hop}: the latency of one tell from a non-actor thread to an idle actor (a pause of
 *       about 1 ms after each hop, so the pool's workers go idle): p50 and p99 over H hops, from
 *       the tell to the handler's start; {@code --hop-histogram} adds the hops per latency bucket
 *       of each peer, {@code --hop-wait park} makes the telling thread park until the handler has
 *       run instead of spinning (as a request thread of a service would), {@code --hop-slow NS} prints each hop slower than NS with the
 *       {@code System.nanoTime()} of its tell and each round's span (CLOCK_MONOTONIC on Linux, so
 *       that {@code perf record -k mono -e sched:sched_switch -e sched:sched_waking} shows what the
 *       machine did then; {@code scripts/hop-sched.py} does that).</li>
 * </ul>
 * The flooding parts also run a hand-written reference without any runtime ({@link IngressFloor}):
 * the same producers offering the same message object into JCTools MPSC queues, one per actor,
 * drained by spinning consumer threads (one for {@code one} and {@code many}, two for
 * {@code fanout}); {@code floor threads+mpsc linked} uses JCTools' linked queue (Weft's linked
 * mailbox, and the short form of its default {@code AdaptiveQueue}), {@code fanout}'s
 * {@code floor threads+mpsc array, 2 consumers} a chunked array queue (as the default mailbox's
 * form under a backlog). Its ratio
 * to Pekko's ({@code floor/pekko}) is the best any runtime's ingress can do here: where it is
 * above 0.5, Weft's goal of half Pekko's time is out of reach on this machine.
 *
 * <p>The report gives every round, the median of the rounds after the warm-up ones, and the ratio of
 * each Weft median to Pekko's ({@code weft/pekko}, below 1: Weft faster; {@code floor/pekko} for the
 * reference); for the flooding parts also the CPU time of
 * all the JVM's threads per message ({@code cpu}, with its ratio to Pekko's in parentheses).
 */
public final class Ingress {

    private Ingress() {
    }

    /** Pekko's settings: the compare workloads' (PekkoKit), one worker per core, throughput 50. */
    private static final String PEKKO_SETTINGS = """
            pekko {
              loglevel = "WARNING"
              stdout-loglevel = "WARNING"
              log-dead-letters = off
              log-dead-letters-during-shutdown = off
              jvm-shutdown-hooks = off
              coordinated-shutdown.run-by-jvm-shutdown-hook = off
              actor.default-dispatcher {
                executor = "fork-join-executor"
                fork-join-executor {
                  parallelism-min = %1$d
                  parallelism-factor = 1.0
                  parallelism-max = %1$d
                }
                throughput = 50
              }
            }
            """;

    private static final AtomicInteger IDS = new AtomicInteger();
    /** The message every producer sends (one boxed object, as in {@link IngressFloor}). */
    static final Integer MSG = 7;

    /** One measurement: a value (ns per message, or ns of a hop quantile). */
    @FunctionalInterface
    interface Run {
        double once() throws Exception;
    }

    /**
     * @param args see the class comment
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        long n = 5_000_000;
        int rounds = 7;
        int warmup = 2;
        int actors = 100;
        int hops = 2_000;
        List<String> only = List.of("one", "many", "fanout", "hop");
        String style = null;
        boolean histogram = false;
        boolean parkForHop = false;
        long slowNanos = 0;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "-n" -> n = Long.parseLong(args[++i]);
                case "-r" -> rounds = Integer.parseInt(args[++i]);
                case "-w" -> warmup = Integer.parseInt(args[++i]);
                case "-k" -> actors = Integer.parseInt(args[++i]);
                case "-h" -> hops = Integer.parseInt(args[++i]);
                case "--only" -> only = Arrays.asList(args[++i].split(","));
                case "--style" -> style = args[++i];
                case "--hop-histogram" -> histogram = true;
                case "--hop-slow" -> slowNanos = Long.parseLong(args[++i]);
                case "--hop-wait" -> parkForHop = switch (args[++i]) {
                    case "spin" -> false;
                    case "park" -> true;
                    default -> throw new IllegalArgumentException("--hop-wait: spin or park, was " + args[i]);
                };
                default -> throw new IllegalArgumentException("ingress: unknown option " + args[i]
                        + "; options: -n N -r ROUNDS -w WARMUP -k ACTORS -h HOPS --only one,many,fanout,hop"
                        + " --style loop|loop-one-handler|become|actor|loop-block|become-block|pekko --hop-histogram --hop-slow NS --hop-wait spin|park");
            }
        }
        int cores = Runtime.getRuntime().availableProcessors();
        System.out.printf(Locale.ROOT, "ingress: n=%d rounds=%d (of which warm-up %d) fanout actors=%d hops=%d cores=%d java=%s%n",
                n, rounds, warmup, actors, hops, cores, System.getProperty("java.version"));
        Config config = ConfigFactory.parseString(PEKKO_SETTINGS.formatted(cores)).withFallback(ConfigFactory.load());
        org.apache.pekko.actor.ActorSystem pekko = org.apache.pekko.actor.ActorSystem.create("ingress", config);
        try (ActorSystem weft = ActorSystem.builder().name("ingress").build()) {
            long size = n;
            int k = actors;
            if (only.contains("one")) {
                Map<String, Run> v = new LinkedHashMap<>();
                v.put("weft loop/react", () -> oneProducer(weft, Style.LOOP, size));
                v.put("weft loop/react, one handler", () -> oneProducer(weft, Style.LOOP_SHARED, size));
                v.put("weft become", () -> oneProducer(weft, Style.BECOME, size));
                v.put("weft Actor", () -> oneProducer(weft, Style.ACTOR, size));
                v.put("weft loop/react, BLOCK mailbox", () -> oneProducer(weft, Style.LOOP_BLOCK, size));
                v.put("weft become, BLOCK mailbox", () -> oneProducer(weft, Style.BECOME_BLOCK, size));
                v.put("pekko", () -> producers(pekko, 1, size));
                v.put(FLOOR_LINKED, () -> IngressFloor.run(IngressFloor.Kind.LINKED, 1, 1, 1, size));
                if (style != null) {
                    // one style alone in this JVM: its call sites stay monomorphic, as in a service
                    String key = switch (style) {
                        case "loop" -> "weft loop/react";
                        case "loop-one-handler" -> "weft loop/react, one handler";
                        case "become" -> "weft become";
                        case "actor" -> "weft Actor";
                        case "loop-block" -> "weft loop/react, BLOCK mailbox";
                        case "become-block" -> "weft become, BLOCK mailbox";
                        case "pekko" -> "pekko";
                        default -> throw new IllegalArgumentException("--style: loop, loop-one-handler, become, actor,"
                                + " loop-block, become-block or pekko, was " + style);
                    };
                    v.keySet().retainAll(List.of(key));
                }
                report("one producer thread -> one actor, ns/message", v, rounds, warmup, size);
            }
            if (only.contains("many")) {
                for (int p : new int[] {2, 4, 8}) {
                    int threads = p;
                    Map<String, Run> v = new LinkedHashMap<>();
                    v.put("weft loop/react", () -> producers(weft, Style.LOOP, threads, size));
                    v.put("weft become", () -> producers(weft, Style.BECOME, threads, size));
                    v.put("pekko", () -> producers(pekko, threads, size));
                    v.put(FLOOR_LINKED, () -> IngressFloor.run(IngressFloor.Kind.LINKED, threads, 1, 1, size));
                    report(p + " producer threads -> one actor, ns/message", v, rounds, warmup, size);
                }
            }
            if (only.contains("fanout")) {
                Map<String, Run> v = new LinkedHashMap<>();
                v.put("weft loop/react", () -> fanOut(weft, Style.LOOP, k, size));
                v.put("weft become", () -> fanOut(weft, Style.BECOME, k, size));
                v.put("pekko", () -> fanOut(pekko, k, size));
                v.put(FLOOR_LINKED + ", 2 consumers", () -> IngressFloor.run(IngressFloor.Kind.LINKED, 1, k, Math.min(2, k), size));
                v.put("floor threads+mpsc array, 2 consumers", () -> IngressFloor.run(IngressFloor.Kind.ARRAY, 1, k, Math.min(2, k), size));
                report("one producer thread -> " + k + " actors round-robin, ns/message", v, rounds, warmup, size);
            }
            if (only.contains("hop")) {
                int h = hops;
                boolean park = parkForHop;
                if (slowNanos > 0) {
                    System.out.println("hop pid " + ProcessHandle.current().pid());
                }
                Map<String, Run> v = new LinkedHashMap<>();
                HopLog[] last = new HopLog[2];
                HopHistogram[] histograms = {new HopHistogram("weft", warmup, slowNanos), new HopHistogram("pekko", warmup, slowNanos)};
                v.put("weft p50", () -> quantile((last[0] = histograms[0].add(hops(weft, h, park))).ns, 0.50));
                v.put("weft p99", () -> quantile(last[0].ns, 0.99));
                v.put("pekko p50", () -> quantile((last[1] = histograms[1].add(hops(pekko, h, park))).ns, 0.50));
                v.put("pekko p99", () -> quantile(last[1].ns, 0.99));
                report("one tell from a non-actor thread to an idle actor, ns (tell to handler)", v, rounds, warmup, 0);
                if (histogram) {
                    System.out.println("== idle hop latency histogram, hops per bucket (rounds after the warm-up ones, summed)");
                    System.out.println(HopHistogram.header());
                    System.out.println(histograms[0].line());
                    System.out.println(histograms[1].line());
                }
            }
        } finally {
            pekko.terminate();
            pekko.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        }
    }

    /** The row of the hand-written reference on JCTools' linked queue ({@link IngressFloor}). */
    static final String FLOOR_LINKED = "floor threads+mpsc linked";

    /** How a Weft actor is written. */
    enum Style {
        /** {@code loop(() -> react(handler))}, a new handler per message, as in the README. */
        LOOP,
        /** {@code loop(() -> react(handler))} with one handler built before the loop. */
        LOOP_SHARED,
        /** {@code become(handler)}, one handler for every message. */
        BECOME,
        /** An {@link Actor} subclass whose {@code act()} is {@code loop(() -> react(...))}. */
        ACTOR,
        /** {@link #LOOP} with a bounded mailbox whose overflow policy is {@code BLOCK}: flow control to the sender. */
        LOOP_BLOCK,
        /** {@link #BECOME} with a bounded mailbox whose overflow policy is {@code BLOCK}. */
        BECOME_BLOCK
    }

    /** The capacity of the {@code BLOCK} mailboxes. */
    static final int BLOCK_CAPACITY = 4096;

    /** Counts messages; the last one opens {@code done}. */
    static final class Counter {
        final long expected;
        final CountDownLatch done;
        long seen;

        Counter(long expected, CountDownLatch done) {
            this.expected = expected;
            this.done = done;
        }

        void one() {
            if (++seen == expected) {
                done.countDown();
            }
        }
    }

    /** The {@link Style#ACTOR} consumer. */
    static final class CountingActor extends Actor<Integer> {
        private final Counter counter;

        CountingActor(Counter counter) {
            this.counter = counter;
        }

        @Override
        protected void act() {
            loop(() -> react(Receive.<Integer>handler().match(Integer.class, x -> counter.one()).build()));
        }
    }

    static ActorRef<Integer> spawn(ActorSystem system, Style style, Counter c) {
        String name = "consumer-" + IDS.incrementAndGet();
        return switch (style) {
            case LOOP -> system.spawn(name, self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, x -> c.one()).build())));
            case LOOP_SHARED -> system.spawn(name, self -> {
                Receive<Integer, Void> handler = Receive.<Integer>handler().match(Integer.class, x -> c.one()).build();
                self.loop(() -> self.react(handler));
            });
            case BECOME -> system.spawn(name, self -> self.become(Receive.<Integer>handler()
                    .match(Integer.class, x -> c.one()).build()));
            case ACTOR -> system.spawn(name, new CountingActor(c));
            case LOOP_BLOCK -> system.spawn(blocking(name), (io.weft.actors.Behavior<Integer>) self -> self.loop(() -> self.react(
                    Receive.<Integer>handler().match(Integer.class, x -> c.one()).build())));
            case BECOME_BLOCK -> system.spawn(blocking(name), (io.weft.actors.Behavior<Integer>) self -> self.become(
                    Receive.<Integer>handler().match(Integer.class, x -> c.one()).build()));
        };
    }

    private static io.weft.actors.Props blocking(String name) {
        return io.weft.actors.Props.named(name).withMailbox(io.weft.actors.Mailbox.bounded(BLOCK_CAPACITY,
                io.weft.actors.Mailbox.Overflow.BLOCK));
    }

    /** The Pekko consumer. */
    static final class PekkoCounter extends AbstractActor {
        private final Counter counter;

        PekkoCounter(Counter counter) {
            this.counter = counter;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Integer.class, x -> counter.one()).build();
        }
    }

    static double oneProducer(ActorSystem system, Style style, long n) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        ActorRef<Integer> c = spawn(system, style, new Counter(n, done));
        long t0 = System.nanoTime();
        for (long i = 0; i < n; i++) {
            c.tell(MSG);
        }
        await(done);
        double ns = (System.nanoTime() - t0) / (double) n;
        system.stop(c);
        return ns;
    }

    /** Weft: {@code threads} producers, each sending its share of {@code n}, into one actor. */
    static double producers(ActorSystem system, Style style, int threads, long n) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        long each = n / threads;
        ActorRef<Integer> c = spawn(system, style, new Counter(each * threads, done));
        double ns = flood(threads, each, () -> c.tell(MSG), done);
        system.stop(c);
        return ns;
    }

    /** Pekko: the same. */
    static double producers(org.apache.pekko.actor.ActorSystem system, int threads, long n) throws Exception {
        CountDownLatch done = new CountDownLatch(1);
        long each = n / threads;
        Counter counter = new Counter(each * threads, done);
        org.apache.pekko.actor.ActorRef c = system.actorOf(Props.create(PekkoCounter.class, () -> new PekkoCounter(counter)));
        double ns = flood(threads, each, () -> c.tell(MSG, org.apache.pekko.actor.ActorRef.noSender()), done);
        system.stop(c);
        return ns;
    }

    /** Starts {@code threads} platform threads that each run {@code send} {@code each} times. */
    private static double flood(int threads, long each, Runnable send, CountDownLatch done) throws Exception {
        if (threads == 1) {
            long t0 = System.nanoTime();
            for (long i = 0; i < each; i++) {
                send.run();
            }
            await(done);
            return (System.nanoTime() - t0) / (double) each;
        }
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            started.add(Thread.ofPlatform().name("producer-" + t).start(counted(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (long i = 0; i < each; i++) {
                    send.run();
                }
            })));
        }
        long t0 = System.nanoTime();
        go.countDown();
        await(done);
        double ns = (System.nanoTime() - t0) / (double) (each * threads);
        for (Thread t : started) {
            t.join();
        }
        return ns;
    }

    static double fanOut(ActorSystem system, Style style, int k, long n) throws Exception {
        long each = n / k;
        CountDownLatch done = new CountDownLatch(k);
        List<ActorRef<Integer>> refs = new ArrayList<>();
        for (int i = 0; i < k; i++) {
            refs.add(spawn(system, style, new Counter(each, done)));
        }
        long t0 = System.nanoTime();
        for (long i = 0; i < each; i++) {
            for (int j = 0; j < k; j++) {
                refs.get(j).tell(MSG);
            }
        }
        await(done);
        double ns = (System.nanoTime() - t0) / (double) (each * k);
        refs.forEach(system::stop);
        return ns;
    }

    static double fanOut(org.apache.pekko.actor.ActorSystem system, int k, long n) throws Exception {
        long each = n / k;
        CountDownLatch done = new CountDownLatch(k);
        org.apache.pekko.actor.ActorRef[] a = new org.apache.pekko.actor.ActorRef[k];
        for (int i = 0; i < k; i++) {
            Counter counter = new Counter(each, done);
            a[i] = system.actorOf(Props.create(PekkoCounter.class, () -> new PekkoCounter(counter)));
        }
        long t0 = System.nanoTime();
        for (long i = 0; i < each; i++) {
            for (org.apache.pekko.actor.ActorRef r : a) {
                r.tell(MSG, org.apache.pekko.actor.ActorRef.noSender());
            }
        }
        await(done);
        double ns = (System.nanoTime() - t0) / (double) (each * k);
        for (org.apache.pekko.actor.ActorRef r : a) {
            system.stop(r);
        }
        return ns;
    }

    /** Records, per hop, the time from the tell to the handler's start, and when the tell was made. */
    static final class HopLog {
        final long[] ns;
        final long[] sentAt;
        final AtomicLong handled = new AtomicLong();
        /** The telling thread, unparked after each record when it parks for the hop; else null. */
        final Thread waiter;

        /** @param park true if the calling thread, which tells, parks until each hop is recorded */
        HopLog(int hops, boolean park) {
            ns = new long[hops];
            sentAt = new long[hops];
            waiter = park ? Thread.currentThread() : null;
        }

        void record(Long sentAt) {
            long now = System.nanoTime();
            int i = (int) handled.get();
            ns[i] = now - sentAt;
            this.sentAt[i] = sentAt;
            handled.set(i + 1); // publishes ns[i] to the waiting thread
            if (waiter != null) {
                LockSupport.unpark(waiter);
            }
        }
    }

    /** The Pekko side of a hop. */
    static final class PekkoHop extends AbstractActor {
        private final HopLog log;

        PekkoHop(HopLog log) {
            this.log = log;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Long.class, log::record).build();
        }
    }

    static HopLog hops(ActorSystem system, int hops, boolean park) throws Exception {
        HopLog log = new HopLog(hops, park);
        ActorRef<Long> a = system.spawn("hop-" + IDS.incrementAndGet(), self -> self.become(Receive.<Long>handler()
                .match(Long.class, log::record).build()));
        runHops(log, hops, () -> a.tell(System.nanoTime()));
        system.stop(a);
        return log;
    }

    static HopLog hops(org.apache.pekko.actor.ActorSystem system, int hops, boolean park) throws Exception {
        HopLog log = new HopLog(hops, park);
        org.apache.pekko.actor.ActorRef a = system.actorOf(Props.create(PekkoHop.class, () -> new PekkoHop(log)));
        runHops(log, hops, () -> a.tell(System.nanoTime(), org.apache.pekko.actor.ActorRef.noSender()));
        system.stop(a);
        return log;
    }

    /**
     * One tell at a time, each after a pause of about 1 ms (the workers go idle), each awaited by
     * spinning or, with {@code --hop-wait park}, parked until the handler unparks this thread (after
     * it has recorded the hop, so the wake-up of this thread is not part of it).
     */
    private static void runHops(HopLog log, int hops, Runnable tell) {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(5);
        for (int i = 0; i < hops; i++) {
            LockSupport.parkNanos(1_000_000);
            tell.run();
            while (log.handled.get() == i) {
                if (System.nanoTime() - deadline > 0) {
                    throw new IllegalStateException("hop " + i + " not handled within 5 minutes");
                }
                if (log.waiter != null) {
                    LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
                } else {
                    Thread.onSpinWait();
                }
            }
        }
    }

    /**
     * Hop latencies of one peer in buckets, summed over the rounds after the warm-up ones
     * ({@code --hop-histogram}); with {@code --hop-slow NS}, every hop slower than NS is printed
     * with its tell's {@code System.nanoTime()} (CLOCK_MONOTONIC on Linux, the clock of
     * {@code perf sched}), to find what the machine did at that moment.
     */
    static final class HopHistogram {
        /** Upper bounds of the buckets, ns; the last bucket has none. */
        static final long[] BOUNDS = {10_000, 20_000, 50_000, 100_000, 200_000, 500_000, 750_000, 1_000_000, 2_000_000, 5_000_000};
        private final String peer;
        private final int warmup;
        private final long slowNanos;
        private final long[] counts = new long[BOUNDS.length + 1];
        private int round;

        HopHistogram(String peer, int warmup, long slowNanos) {
            this.peer = peer;
            this.warmup = warmup;
            this.slowNanos = slowNanos;
        }

        HopLog add(HopLog log) {
            round++;
            if (slowNanos > 0) {
                int last = log.ns.length - 1;
                System.out.printf(Locale.ROOT, "hop round %s %d from %d to %d%n", peer, round, log.sentAt[0], log.sentAt[last] + log.ns[last]);
            }
            for (int i = 0; i < log.ns.length; i++) {
                long ns = log.ns[i];
                if (round > warmup) {
                    int b = 0;
                    while (b < BOUNDS.length && ns >= BOUNDS[b]) {
                        b++;
                    }
                    counts[b]++;
                }
                if (slowNanos > 0 && ns > slowNanos) {
                    System.out.printf(Locale.ROOT, "slow hop %s round %d hop %d sent %d ns %d%n", peer, round, i, log.sentAt[i], ns);
                }
            }
            return log;
        }

        static String header() {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  %-6s", "us"));
            for (long bound : BOUNDS) {
                b.append(String.format(Locale.ROOT, " %7s", "<" + bound / 1000));
            }
            return b.append(String.format(Locale.ROOT, " %7s", ">=" + BOUNDS[BOUNDS.length - 1] / 1000)).toString();
        }

        String line() {
            StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "  %-6s", peer));
            for (long c : counts) {
                b.append(String.format(Locale.ROOT, " %7d", c));
            }
            return b.toString();
        }
    }

    static double quantile(long[] values, double q) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[Math.min(sorted.length - 1, (int) Math.floor(q * sorted.length))];
    }

    private static void await(CountDownLatch done) throws InterruptedException {
        if (!done.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("consumer did not handle every message within 10 minutes");
        }
    }

    /** CPU time of the benchmark's own threads that have ended (producers, the floor's threads), in ns. */
    private static final java.util.concurrent.atomic.LongAdder ENDED_CPU = new java.util.concurrent.atomic.LongAdder();

    /**
     * Wraps a benchmark thread's body so that the thread adds its own CPU time to
     * {@link #cpuNanos()} when it ends: an ended thread's {@code schedstat} is gone, so a reading
     * taken after its join would otherwise leave out what it used.
     *
     * @param body the thread's body
     * @return the body, then the thread's CPU time added to the ended threads' total
     */
    static Runnable counted(Runnable body) {
        return () -> {
            try {
                body.run();
            } finally {
                ENDED_CPU.add(ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime());
            }
        };
    }

    /**
     * CPU time used so far by this JVM's threads, in ns: the sum of {@code /proc/self/task/<id>/schedstat}'s
     * run time (ns resolution, Linux) of the live threads, plus what the benchmark's own ended threads
     * used ({@link #counted}); else the process CPU time of the operating system bean (10 ms ticks).
     */
    static long cpuNanos() {
        Path tasks = Path.of("/proc/self/task");
        if (Files.isDirectory(tasks)) {
            long sum = 0;
            try (DirectoryStream<Path> ds = Files.newDirectoryStream(tasks)) {
                for (Path t : ds) {
                    try {
                        String st = Files.readString(t.resolve("schedstat"));
                        sum += Long.parseLong(st.substring(0, st.indexOf(' ')));
                    } catch (IOException | RuntimeException ended) {
                        // the thread ended meanwhile
                    }
                }
                return sum + ENDED_CPU.sum();
            } catch (IOException e) {
                // fall through
            }
        }
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /**
     * Runs the variants round after round and prints each one's median after the warm-up rounds,
     * its ratio to Pekko's, and (if {@code messages} is not 0) the CPU time of all the JVM's threads
     * (producers, workers, collector, compiler) per message: on a shared machine the wall time of a
     * round depends on what else runs, the CPU time much less.
     */
    private static void report(String title, Map<String, Run> variants, int rounds, int warmup, long messages) throws Exception {
        Map<String, List<Double>> results = new LinkedHashMap<>();
        Map<String, List<Double>> cpu = new LinkedHashMap<>();
        variants.keySet().forEach(k -> {
            results.put(k, new ArrayList<>());
            cpu.put(k, new ArrayList<>());
        });
        for (int r = 0; r < rounds; r++) {
            for (Map.Entry<String, Run> e : variants.entrySet()) {
                long c0 = messages == 0 ? 0 : cpuNanos();
                results.get(e.getKey()).add(e.getValue().once());
                if (messages != 0) {
                    cpu.get(e.getKey()).add((cpuNanos() - c0) / (double) messages);
                }
            }
        }
        System.out.println("== " + title);
        Map<String, Double> medians = new LinkedHashMap<>();
        Map<String, Double> cpuMedians = new LinkedHashMap<>();
        for (Map.Entry<String, List<Double>> e : results.entrySet()) {
            List<Double> all = e.getValue();
            medians.put(e.getKey(), Stats.median(all.subList(Math.min(warmup, all.size() - 1), all.size())));
            List<Double> c = cpu.get(e.getKey());
            if (!c.isEmpty()) {
                cpuMedians.put(e.getKey(), Stats.median(c.subList(Math.min(warmup, c.size() - 1), c.size())));
            }
        }
        for (Map.Entry<String, List<Double>> e : results.entrySet()) {
            String name = e.getKey();
            double m = medians.get(name);
            // a Weft row's and a floor row's ratio to Pekko's: its own peer ("pekko p50"), else "pekko"
            String side = name.startsWith("weft ") ? "weft" : name.startsWith("floor ") ? "floor" : null;
            String peer = side == null ? null : "pekko " + name.substring(side.length() + 1);
            Double pm = peer == null ? null : medians.getOrDefault(peer, medians.get("pekko"));
            Double pc = peer == null ? null : cpuMedians.getOrDefault(peer, cpuMedians.get("pekko"));
            StringBuilder runs = new StringBuilder();
            for (double d : e.getValue()) {
                runs.append(String.format(Locale.ROOT, " %.4g", d));
            }
            Double c = cpuMedians.get(name);
            String cpuColumn = c == null ? "" : String.format(Locale.ROOT, "  cpu %.4g%s", c,
                    pc == null ? "" : String.format(Locale.ROOT, " (%.3f)", c / pc));
            System.out.printf(Locale.ROOT, "  %-30s median %8.4g%s%s  rounds:%s%n", name, m,
                    pm == null ? "" : String.format(Locale.ROOT, "  %s/pekko %.3f", side, m / pm), cpuColumn, runs);
        }
    }
}
