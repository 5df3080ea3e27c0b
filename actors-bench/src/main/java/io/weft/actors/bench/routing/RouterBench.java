package io.weft.actors.bench.routing;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.Routers;
import io.weft.actors.bench.kit.Kit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.Props;
import org.apache.pekko.routing.RoundRobinPool;

/**
 * A round-robin pool of 4 routees on Weft ({@code Routers.pool(4, ...)}) against Pekko classic's
 * {@code RoundRobinPool(4)}, on the same work: one sender actor (or {@code --senders S}, each an
 * equal share) tells the pool {@code N} integers;
 * each routee runs 20 rounds of a 64-bit LCG on each (a small computation whose result is kept)
 * and, after its {@code N / 4}-th message, counts down a latch; a round is timed from the sender's
 * start to the fourth count-down. Both systems live in one JVM for the whole run and the rounds
 * alternate (Weft, Pekko, Weft, ...), so machine noise falls on both; the result is the ratio of the
 * medians. Dispatcher settings as the compare kits: Pekko's fork-join executor with parallelism =
 * {@link Kit#parallelism()} and throughput 50 (Weft's batch size).
 *
 * <p>Both round-robin pools pick the routee on the sender's thread with an atomic counter, with no
 * router mailbox on the message's path: Pekko's classic {@code RoutedActorRef} and Weft's
 * {@code RoutedRef}. The balancing pool ({@code weft-balancing}) routes in its router actor.
 */
public final class RouterBench {

    private static final int ROUTEES = 4;
    private static final int LCG_ROUNDS = 20;

    private RouterBench() {
    }

    static long work(long x) {
        for (int k = 0; k < LCG_ROUNDS; k++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    /** Results sink, so the JIT keeps the work. */
    static volatile long sink;

    /**
     * @param args {@code [--messages N] [--rounds R] [--warmup W] [--senders S]}
     * @return the exit status
     * @throws Exception if a round fails
     */
    public static int run(String[] args) throws Exception {
        int n = 1_000_000;
        int rounds = 10;
        int warmup = 3;
        int senders = 1;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--messages" -> n = Integer.parseInt(args[i + 1]);
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--warmup" -> warmup = Integer.parseInt(args[i + 1]);
                case "--senders" -> senders = Integer.parseInt(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i] + "; use --messages, --rounds, --warmup, --senders");
            }
        }
        if (senders < 1 || n % (ROUTEES * senders) != 0) {
            throw new IllegalArgumentException("--messages must be a multiple of " + ROUTEES + " x --senders (" + senders + "), was " + n
                    + "; each sender tells an equal share, a multiple of the routee count");
        }
        int p = Kit.parallelism();
        System.out.printf("router-roundrobin: %d routees, %d messages from %d sender actor(s), %d LCG rounds each; parallelism %d; "
                + "%d warm-up + %d measured rounds, alternating%n", ROUTEES, n, senders, LCG_ROUNDS, p, warmup, rounds);
        System.out.println("java " + System.getProperty("java.version") + ", " + Runtime.getRuntime().availableProcessors() + " CPUs");
        List<Double> weft = new ArrayList<>();
        List<Double> pekko = new ArrayList<>();
        List<Double> direct = new ArrayList<>();
        List<Double> balancing = new ArrayList<>();
        try (ActorSystem ws = ActorSystem.builder().name("router-bench").parallelism(p).build()) {
            org.apache.pekko.actor.ActorSystem ps = pekkoSystem(p);
            try {
                for (int r = 0; r < warmup + rounds; r++) {
                    double w = weftRound(ws, n, senders);
                    double k = pekkoRound(ps, n, senders);
                    double d = directRound(ws, n, senders);
                    double b = balancingRound(ws, n, senders);
                    String tag = r < warmup ? "warmup" : "round";
                    System.out.printf("%s %d: weft %.1f ms, pekko %.1f ms, weft-direct %.1f ms, weft-balancing %.1f ms%n", tag,
                            r < warmup ? r + 1 : r - warmup + 1, w, k, d, b);
                    if (r >= warmup) {
                        weft.add(w);
                        pekko.add(k);
                        direct.add(d);
                        balancing.add(b);
                    }
                }
            } finally {
                ps.terminate();
                ps.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
            }
        }
        double mw = median(weft);
        double mp = median(pekko);
        double md = median(direct);
        double mb = median(balancing);
        System.out.printf("median: weft %.1f ms (%.2f M msg/s), pekko %.1f ms (%.2f M msg/s); weft/pekko time ratio %.2f%n",
                mw, n / mw / 1000, mp, n / mp / 1000, mw / mp);
        System.out.printf("median: weft-direct (no router) %.1f ms, ratio to pekko %.2f; weft-balancing %.1f ms, ratio to weft round-robin %.2f%n",
                md, md / mp, mb, mb / mw);
        return 0;
    }

    private static double median(List<Double> xs) {
        double[] a = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    // ---- Weft
    // Each round spells out its own sender loop (spawn, tell, await, stop) instead of sharing one
    // with a per-message callback: a shared loop's tell call site would see every round's ref class
    // (RoutedRef, LocalRef, the balancing pool's) and turn megamorphic, a cost of the benchmark, not
    // of the router being measured.

    private static double weftRound(ActorSystem system, int n, int senders) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(ROUTEES);
        int each = n / ROUTEES;
        ActorRef<Integer> pool = system.spawn(Routers.<Integer>pool(ROUTEES, () -> self -> {
            long[] state = {0, 0};
            self.become(Receive.<Integer>handler().match(Integer.class, i -> {
                state[0] ^= work(i);
                if (++state[1] == each) {
                    sink = state[0];
                    done.countDown();
                }
            }).build());
        }));
        List<ActorRef<String>> sending = new ArrayList<>();
        int share = n / senders;
        for (int s = 0; s < senders; s++) {
            int from = s * share;
            sending.add(system.spawn(self -> self.become(Receive.<String>handler().match(String.class, go -> {
                for (int i = from; i < from + share; i++) {
                    pool.tell(i);
                }
            }).build())));
        }
        long t0 = System.nanoTime();
        sending.forEach(x -> x.tell("go"));
        await(done, "weft");
        double ms = (System.nanoTime() - t0) / 1e6;
        system.stop(pool);
        sending.forEach(system::stop);
        return ms;
    }

    /** The same work with no router: the sender itself tells the 4 routees in turn. */
    private static double directRound(ActorSystem system, int n, int senders) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(ROUTEES);
        int each = n / ROUTEES;
        List<ActorRef<Integer>> routees = new ArrayList<>();
        for (int r = 0; r < ROUTEES; r++) {
            routees.add(system.spawn(self -> {
                long[] state = {0, 0};
                self.become(Receive.<Integer>handler().match(Integer.class, i -> {
                    state[0] ^= work(i);
                    if (++state[1] == each) {
                        sink = state[0];
                        done.countDown();
                    }
                }).build());
            }));
        }
        List<ActorRef<String>> sending = new ArrayList<>();
        int share = n / senders;
        for (int s = 0; s < senders; s++) {
            int from = s * share;
            sending.add(system.spawn(self -> self.become(Receive.<String>handler().match(String.class, go -> {
                for (int i = from; i < from + share; i++) {
                    routees.get(i & (ROUTEES - 1)).tell(i);
                }
            }).build())));
        }
        long t0 = System.nanoTime();
        sending.forEach(x -> x.tell("go"));
        await(done, "weft-direct");
        double ms = (System.nanoTime() - t0) / 1e6;
        routees.forEach(system::stop);
        sending.forEach(system::stop);
        return ms;
    }

    /**
     * A balancing pool on the same work; its routees get uneven shares, so completion is one shared
     * countdown of all messages (one atomic decrement per message, not in the other columns).
     */
    private static double balancingRound(ActorSystem system, int n, int senders) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicInteger remaining = new java.util.concurrent.atomic.AtomicInteger(n);
        ActorRef<Integer> pool = system.spawn(Routers.<Integer>pool(ROUTEES, () -> self -> {
            long[] state = {0};
            self.become(Receive.<Integer>handler().match(Integer.class, i -> {
                state[0] ^= work(i);
                if (remaining.decrementAndGet() == 0) {
                    sink = state[0];
                    done.countDown();
                }
            }).build());
        }).withBalancing());
        List<ActorRef<String>> sending = new ArrayList<>();
        int share = n / senders;
        for (int s = 0; s < senders; s++) {
            int from = s * share;
            sending.add(system.spawn(self -> self.become(Receive.<String>handler().match(String.class, go -> {
                for (int i = from; i < from + share; i++) {
                    pool.tell(i);
                }
            }).build())));
        }
        long t0 = System.nanoTime();
        sending.forEach(x -> x.tell("go"));
        await(done, "weft-balancing");
        double ms = (System.nanoTime() - t0) / 1e6;
        system.stop(pool);
        sending.forEach(system::stop);
        return ms;
    }

    // ---- Pekko

    private static org.apache.pekko.actor.ActorSystem pekkoSystem(int parallelism) {
        String settings = """
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
                """.formatted(parallelism);
        Config config = ConfigFactory.parseString(settings).withFallback(ConfigFactory.load());
        return org.apache.pekko.actor.ActorSystem.create("router-bench", config);
    }

    /** A Pekko routee: the same work and count as Weft's. */
    static final class PekkoRoutee extends AbstractActor {
        private final CountDownLatch done;
        private final int each;
        private long acc;
        private long count;

        PekkoRoutee(CountDownLatch done, int each) {
            this.done = done;
            this.each = each;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().match(Integer.class, i -> {
                acc ^= work(i);
                if (++count == each) {
                    sink = acc;
                    done.countDown();
                }
            }).build();
        }
    }

    /** The Pekko sender: on "go", tells the pool the integers from {@code from} (inclusive) to {@code to} (exclusive). */
    static final class PekkoSender extends AbstractActor {
        private final org.apache.pekko.actor.ActorRef pool;
        private final int from;
        private final int to;

        PekkoSender(org.apache.pekko.actor.ActorRef pool, int from, int to) {
            this.pool = pool;
            this.from = from;
            this.to = to;
        }

        @Override
        public Receive createReceive() {
            return receiveBuilder().matchEquals("go", go -> {
                for (int i = from; i < to; i++) {
                    pool.tell(i, getSelf());
                }
            }).build();
        }
    }

    private static double pekkoRound(org.apache.pekko.actor.ActorSystem system, int n, int senders) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(ROUTEES);
        int each = n / ROUTEES;
        org.apache.pekko.actor.ActorRef pool = system.actorOf(
                new RoundRobinPool(ROUTEES).props(Props.create(PekkoRoutee.class, () -> new PekkoRoutee(done, each))));
        List<org.apache.pekko.actor.ActorRef> sending = new ArrayList<>();
        int share = n / senders;
        for (int s = 0; s < senders; s++) {
            int from = s * share;
            sending.add(system.actorOf(Props.create(PekkoSender.class, () -> new PekkoSender(pool, from, from + share))));
        }
        long t0 = System.nanoTime();
        sending.forEach(x -> x.tell("go", org.apache.pekko.actor.ActorRef.noSender()));
        await(done, "pekko");
        double ms = (System.nanoTime() - t0) / 1e6;
        system.stop(pool);
        sending.forEach(system::stop);
        return ms;
    }

    private static void await(CountDownLatch done, String who) throws InterruptedException {
        if (!done.await(120, TimeUnit.SECONDS)) {
            throw new IllegalStateException(who + ": routees did not finish within 120 s; " + done.getCount() + " left");
        }
    }
}
