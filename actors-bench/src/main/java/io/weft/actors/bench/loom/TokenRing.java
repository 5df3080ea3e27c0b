package io.weft.actors.bench.loom;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The token ring of Haller and Odersky 2009, §7.1: {@code n} thread-based processes in a ring, each neighbouring
 * pair joined by a queue actor (event-based), {@code k} tokens. Each process loops: take a token
 * from the queue on its right (blocking {@code receive} on its virtual thread), put it into the
 * queue on its left. So the ring has {@code 2n} actors. Each token makes {@code hops} passes and is
 * then retired; the run checks that every token arrived and that the pass count is exact.
 *
 * <p>{@code ring memory [count]} instead measures heap bytes per idle actor: {@code count} thread-
 * based actors parked in {@code receive}, then {@code count} react actors waiting in {@code react}
 * (heap used after GC, minus the baseline, divided by the count).
 */
public final class TokenRing {

    private TokenRing() {
    }

    /** A token with the passes it still has to make. */
    record Token(int id, int hopsLeft) {
    }

    /** Asks a queue for its next item; the item is sent to {@code taker}. */
    record Take(ActorRef<Object> taker) {
    }

    /** Puts a token into a queue. */
    record Put(Token token) {
    }

    /** The queue between two processes: a react actor holding tokens until its taker asks. */
    static void queue(ActorContext<Object> self) {
        ArrayDeque<Token> items = new ArrayDeque<>(1);
        ActorRef<Object>[] taker = newTakerSlot();
        self.loop(() -> self.react(Receive.<Object>handler()
                .match(Put.class, p -> {
                    if (taker[0] != null) {
                        taker[0].tell(p.token());
                        taker[0] = null;
                    } else {
                        items.addLast(p.token());
                    }
                })
                .match(Take.class, t -> {
                    Token first = items.pollFirst();
                    if (first != null) {
                        t.taker().tell(first);
                    } else {
                        taker[0] = t.taker();
                    }
                })
                .build()));
    }

    @SuppressWarnings("unchecked")
    private static ActorRef<Object>[] newTakerSlot() {
        return (ActorRef<Object>[]) new ActorRef<?>[1];
    }

    /** The result of one ring run. */
    record Result(long passes, long retired, long nanos) {
    }

    /**
     * Builds the ring in {@code system}, runs it until all tokens are retired, and returns the counts.
     *
     * @param system the actor system
     * @param n processes (and queues)
     * @param k tokens
     * @param hops passes per token
     * @return passes made, tokens retired, and the time from the first token to the last
     * @throws InterruptedException if interrupted while waiting
     */
    public static Result run(ActorSystem system, int n, int k, int hops) throws InterruptedException {
        @SuppressWarnings("unchecked")
        ActorRef<Object>[] queues = (ActorRef<Object>[]) new ActorRef<?>[n];
        for (int i = 0; i < n; i++) {
            queues[i] = system.spawn(Props.defaults(), TokenRing::queue);
        }
        LongAdder passes = new LongAdder();
        CountDownLatch retired = new CountDownLatch(k);
        Receive<Object, Token> takeToken = Receive.<Object, Token>returning().match(Token.class, t -> t).build();
        for (int i = 0; i < n; i++) {
            ActorRef<Object> right = queues[i];
            ActorRef<Object> left = queues[(i + 1) % n];
            system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
                while (true) { // until the system closes: receive then throws ActorStoppedException
                    right.tell(new Take(self.self()));
                    Token t = self.receive(takeToken);
                    if (t.hopsLeft() == 0) {
                        retired.countDown();
                    } else {
                        passes.increment();
                        left.tell(new Put(new Token(t.id(), t.hopsLeft() - 1)));
                    }
                }
            });
        }
        long start = System.nanoTime();
        for (int t = 0; t < k; t++) {
            queues[(int) ((long) t * n / k)].tell(new Put(new Token(t, hops)));
        }
        if (!retired.await(30, TimeUnit.MINUTES)) {
            throw new IllegalStateException("ring: only " + (k - retired.getCount()) + " of " + k + " tokens retired");
        }
        long nanos = System.nanoTime() - start;
        long made = passes.sum();
        system.close();
        return new Result(made, k - retired.getCount(), nanos);
    }

    /**
     * {@code ring [n] [k] [hops]} (defaults 600000, 10, 100000) or {@code ring memory [count]}.
     *
     * @param args the options
     * @throws Exception if the run fails
     */
    public static void main(String[] args) throws Exception {
        if (args.length > 0 && args[0].equals("memory")) {
            memory(args.length > 1 ? Integer.parseInt(args[1]) : 200_000);
            return;
        }
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 600_000;
        int k = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        int hops = args.length > 2 ? Integer.parseInt(args[2]) : 100_000;
        long t0 = System.nanoTime();
        ActorSystem system = ActorSystem.create("ring");
        Result r = run(system, n, k, hops);
        long total = System.nanoTime() - t0;
        long expected = (long) k * hops;
        System.out.printf(Locale.ROOT, "ring: %,d thread-based processes + %,d queue actors = %,d actors, %d tokens x %,d hops%n",
                n, n, 2L * n, k, hops);
        System.out.printf(Locale.ROOT, "ring: %,d passes (expected %,d), %d tokens retired, %.2f s passing, %.0f passes/s, %.2f s total"
                + " (spawn + run + close)%n", r.passes(), expected, r.retired(), r.nanos() / 1e9, r.passes() / (r.nanos() / 1e9), total / 1e9);
        if (r.passes() != expected || r.retired() != k) {
            System.out.println("ring: WRONG RESULT");
            System.exit(1);
        }
    }

    private static long usedAfterGc() throws InterruptedException {
        MemoryMXBean mem = ManagementFactory.getMemoryMXBean();
        long used = Long.MAX_VALUE;
        for (int i = 0; i < 5; i++) {
            System.gc();
            Thread.sleep(100);
            used = Math.min(used, mem.getHeapMemoryUsage().getUsed());
        }
        return used;
    }

    private static void memory(int count) throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("memory").build()) {
            // warm up the paths so that class metadata and pools are not counted
            idleThreadActors(system, 1000);
            idleReactActors(system, 1000);
            long base = usedAfterGc();
            CountDownLatch parked = idleThreadActors(system, count);
            parked.await();
            long threads = usedAfterGc();
            CountDownLatch started = idleReactActors(system, count);
            started.await();
            long reacts = usedAfterGc();
            System.out.printf(Locale.ROOT, "memory: %,d idle thread-based actors (parked in receive on virtual threads): %,d bytes each%n",
                    count, (threads - base) / count);
            System.out.printf(Locale.ROOT, "memory: %,d idle react actors (waiting in react): %,d bytes each%n",
                    count, (reacts - threads) / count);
            System.out.printf(Locale.ROOT, "memory: actors alive: %,d%n", system.actorCount());
        }
    }

    private static CountDownLatch idleThreadActors(ActorSystem system, int count) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(count);
        Receive<Object, Object> any = Receive.<Object, Object>returning().matchAny(m -> m).build();
        for (int i = 0; i < count; i++) {
            system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
                ready.countDown();
                self.receive(any);
            });
        }
        ready.await();
        return ready;
    }

    private static CountDownLatch idleReactActors(ActorSystem system, int count) throws InterruptedException {
        CountDownLatch ready = new CountDownLatch(count);
        Receive<Object, Void> any = Receive.<Object>handler().matchAny(m -> { }).build();
        for (int i = 0; i < count; i++) {
            system.spawn(Props.defaults(), (ActorContext<Object> self) -> {
                ready.countDown();
                self.react(any);
            });
        }
        ready.await();
        return ready;
    }
}
