package io.weft.actors.bench.semantics;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.MessagePolicy;
import io.weft.actors.Receive;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The cost of each {@link MessagePolicy} (Karmani et al. 2009, Fig. 9 measured this for ActorFoundry) on a
 * Threading-like ring (a token passed around a ring of actors, a new message per hop) and a
 * Counting-like workload (one sender, one counter). Runs are interleaved policy by policy in each
 * round, so drift of a shared machine hits all policies alike; the median of the rounds is reported.
 *
 * <p>Usage: {@code policies [rounds] [ringHops] [countMessages]}.
 */
public final class Policies {

    private Policies() {
    }

    /** The ring's message: a record of immutable parts, as VERIFY_IMMUTABLE wants. */
    record Token(int remaining, String tag, List<Integer> data) implements Serializable {
    }

    /** The ring's message with a mutable part: what COPY must really copy. */
    record MutableToken(int remaining, String tag, ArrayList<Integer> data) implements Serializable {
    }

    /** The counter's message. */
    record Increment(int amount, String tag) implements Serializable {
    }

    private static final int RING_SIZE = 100;
    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();
    /** CPU time of the counting sender's loop: the policy's own cost, little disturbed by other load. */
    private static final Map<MessagePolicy, List<Long>> senderCpu = new EnumMap<>(MessagePolicy.class);
    private static final List<Integer> DATA = List.of(1, 2, 3, 4);

    /**
     * @param args rounds, ring hops, count messages
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        int hops = args.length > 1 ? Integer.parseInt(args[1]) : 200_000;
        int count = args.length > 2 ? Integer.parseInt(args[2]) : 200_000;
        Map<MessagePolicy, ActorSystem> systems = new EnumMap<>(MessagePolicy.class);
        for (MessagePolicy p : MessagePolicy.values()) {
            systems.put(p, ActorSystem.builder().name("policies-" + p.name().toLowerCase()).messagePolicy(p).build());
        }
        Map<MessagePolicy, List<Long>> ring = new EnumMap<>(MessagePolicy.class);
        Map<MessagePolicy, List<Long>> counting = new EnumMap<>(MessagePolicy.class);
        List<Long> copyMutable = new ArrayList<>();
        try {
            // warm-up round, not recorded
            for (MessagePolicy p : MessagePolicy.values()) {
                ring(systems.get(p), hops / 4);
                counting(systems.get(p), count / 4);
            }
            senderCpu.clear();
            for (int r = 0; r < rounds; r++) {
                for (MessagePolicy p : MessagePolicy.values()) {
                    ring.computeIfAbsent(p, k -> new ArrayList<>()).add(ring(systems.get(p), hops));
                    counting.computeIfAbsent(p, k -> new ArrayList<>()).add(counting(systems.get(p), count));
                }
                copyMutable.add(ring(systems.get(MessagePolicy.COPY), mutableHops(hops), true));
            }
        } finally {
            systems.values().forEach(ActorSystem::close);
        }
        System.out.printf("policies: %d rounds (interleaved), ring of %d actors x %d hops, counting %d messages; %d CPUs%n",
                rounds, RING_SIZE, hops, count, Runtime.getRuntime().availableProcessors());
        System.out.printf("%-17s %14s %8s %14s %8s %14s %8s%n", "policy", "ring ns/msg", "ratio", "count ns/msg", "ratio",
                "send cpu ns", "ratio");
        double ringBase = median(ring.get(MessagePolicy.BY_REFERENCE)) / (double) hops;
        double countBase = median(counting.get(MessagePolicy.BY_REFERENCE)) / (double) count;
        for (MessagePolicy p : MessagePolicy.values()) {
            double rn = median(ring.get(p)) / (double) hops;
            double cn = median(counting.get(p)) / (double) count;
            double sn = median(senderCpu.get(p)) / (double) count;
            double sb = median(senderCpu.get(MessagePolicy.BY_REFERENCE)) / (double) count;
            System.out.printf("%-17s %14.1f %8.2f %14.1f %8.2f %14.1f %8.2f%n", p, rn, rn / ringBase, cn, cn / countBase, sn, sn / sb);
        }
        double mn = median(copyMutable) / (double) mutableHops(hops);
        System.out.printf("%-17s %14.1f %8.2f %14s %8s%n", "COPY, mutable msg", mn, mn / ringBase, "-", "-");
        System.out.println("(immutable messages: COPY passes what VERIFY_IMMUTABLE accepts by reference;"
                + " the last row copies a record holding an ArrayList on every hop, " + mutableHops(hops) + " hops)");
    }

    /** Copying by serialization is slow: the mutable-message ring runs fewer hops. */
    private static int mutableHops(int hops) {
        return Math.max(1, hops / 50);
    }

    private static long median(List<Long> xs) {
        long[] a = xs.stream().mapToLong(Long::longValue).toArray();
        Arrays.sort(a);
        return a[a.length / 2];
    }

    /** @return nanoseconds for {@code hops} hops around the ring */
    private static long ring(ActorSystem system, int hops) throws Exception {
        return ring(system, hops, false);
    }

    private static long ring(ActorSystem system, int hops, boolean mutable) throws Exception {
        CompletableFuture<Void> done = new CompletableFuture<>();
        List<ActorRef<Object>> actors = new ArrayList<>(RING_SIZE);
        @SuppressWarnings({"unchecked", "rawtypes"})
        ActorRef<Object>[] next = new ActorRef[RING_SIZE];
        for (int i = 0; i < RING_SIZE; i++) {
            int me = i;
            actors.add(system.spawn(self -> self.loop(() -> self.react(Receive.<Object>handler()
                    .match(Token.class, t -> {
                        if (t.remaining() == 0) {
                            done.complete(null);
                        } else {
                            next[me].tell(new Token(t.remaining() - 1, t.tag(), t.data()));
                        }
                    })
                    .match(MutableToken.class, t -> {
                        if (t.remaining() == 0) {
                            done.complete(null);
                        } else {
                            next[me].tell(new MutableToken(t.remaining() - 1, t.tag(), t.data()));
                        }
                    })
                    .match(String.class, s -> self.stop())
                    .build()))));
        }
        for (int i = 0; i < RING_SIZE; i++) {
            next[i] = actors.get((i + 1) % RING_SIZE);
        }
        long start = System.nanoTime();
        actors.get(0).tell(mutable ? new MutableToken(hops, "token", new ArrayList<>(DATA)) : new Token(hops, "token", DATA));
        done.get(10, TimeUnit.MINUTES);
        long elapsed = System.nanoTime() - start;
        actors.forEach(a -> a.tell("stop"));
        return elapsed;
    }

    /** @return nanoseconds to send {@code count} increments and get the total back */
    private static long counting(ActorSystem system, int count) throws Exception {
        ActorRef<Object> counter = system.spawn(self -> {
            long[] total = {0};
            self.loop(() -> self.react(Receive.<Object>handler()
                    .match(Increment.class, i -> total[0] += i.amount())
                    .match(String.class, "get"::equals, s -> self.reply(total[0]))
                    .match(String.class, s -> self.stop())
                    .build()));
        });
        long start = System.nanoTime();
        long cpu = THREADS.getCurrentThreadCpuTime();
        for (int i = 0; i < count; i++) {
            counter.tell(new Increment(1, "inc"));
        }
        senderCpu.computeIfAbsent(system.settings().messagePolicy(), k -> new ArrayList<>()).add(THREADS.getCurrentThreadCpuTime() - cpu);
        Long total = system.<Object, Long>ask(counter, "get", Duration.ofMinutes(10)).get(10, TimeUnit.MINUTES);
        long elapsed = System.nanoTime() - start;
        if (total != count) {
            throw new IllegalStateException("counted " + total + ", expected " + count);
        }
        counter.tell("stop");
        return elapsed;
    }
}
