package io.weft.actors.bench.semantics;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code unhandled}: the cost of a matching message when the actor keeps a backlog of messages no
 * handler matched (selective receive). Two actors of one system handle Integers; one keeps
 * {@code --kept} Strings it does not match, the other none. Each round tells each actor
 * {@code --messages} Integers from the main thread and times until the last is handled; the order
 * of the two alternates by round, and the median time per message of the rounds is reported for
 * each, with their ratio. Two handler shapes: one {@code become} handler, and a
 * {@code loop(() -> react(...))} that builds a new handler object per message (seed style).
 *
 * <p>Usage: {@code unhandled [--kept N] [--messages M] [--rounds R]}.
 */
public final class UnhandledBacklog {

    private UnhandledBacklog() {
    }

    /** How the actor waits. */
    enum Shape {
        BECOME, REACT_LOOP
    }

    /**
     * @param args {@code [--kept N] [--messages M] [--rounds R]}
     * @return the exit status
     * @throws Exception on failure
     */
    public static int run(String[] args) throws Exception {
        int kept = 10_000;
        int messages = 200_000;
        int rounds = 11;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--kept" -> kept = positive(args, ++i, "--kept", 0);
                case "--messages" -> messages = positive(args, ++i, "--messages", 1);
                case "--rounds" -> rounds = positive(args, ++i, "--rounds", 1);
                default -> throw new IllegalArgumentException("unhandled: unknown option \"" + args[i]
                        + "\"; usage: unhandled [--kept N] [--messages M] [--rounds R]");
            }
        }
        System.out.printf(Locale.ROOT, "unhandled backlog: %,d kept messages, %,d matching messages per round, %d rounds (median)%n",
                kept, messages, rounds);
        System.out.printf(Locale.ROOT, "%-12s %14s %14s %8s%n", "handler", "0 kept ns/msg", kept + " kept ns/msg", "ratio");
        try (ActorSystem system = ActorSystem.builder().name("unhandled-bench").logDeadLetters(false).build()) {
            for (Shape shape : Shape.values()) {
                Counter empty = spawn(system, shape);
                Counter backlog = spawn(system, shape);
                for (int i = 0; i < kept; i++) {
                    backlog.ref.tell("unmatched-" + i);
                }
                backlog.sync();
                empty.sync();
                int depth = system.metrics().mailboxDepth(backlog.ref);
                if (depth != kept) {
                    throw new IllegalStateException("the backlog actor keeps " + depth + " messages, expected " + kept);
                }
                List<Double> a = new ArrayList<>();
                List<Double> b = new ArrayList<>();
                for (int warm = 0; warm < 3; warm++) {
                    empty.time(messages);
                    backlog.time(messages);
                }
                for (int r = 0; r < rounds; r++) {
                    if (r % 2 == 0) {
                        a.add(empty.time(messages));
                        b.add(backlog.time(messages));
                    } else {
                        b.add(backlog.time(messages));
                        a.add(empty.time(messages));
                    }
                }
                double ma = median(a);
                double mb = median(b);
                System.out.printf(Locale.ROOT, "%-12s %14.1f %14.1f %8.2f%n", shape.name().toLowerCase(Locale.ROOT), ma, mb, mb / ma);
                System.out.printf(Locale.ROOT, "  raw 0 kept:    %s%n  raw %d kept: %s%n", format(a), kept, format(b));
            }
        }
        return 0;
    }

    /** An actor that handles Integers (counting them) and keeps anything else. */
    static final class Counter {
        final ActorRef<Object> ref;
        final ActorSystem system;
        volatile CompletableFuture<Void> done;
        volatile int target;

        Counter(ActorSystem system, Shape shape) {
            this.system = system;
            int[] count = {0};
            this.ref = system.spawn((ActorContext<Object> self) -> {
                java.util.function.Supplier<Receive<Object, Void>> handler = () -> Receive.handler().match(Integer.class, i -> {
                    if (i < 0) {
                        self.reply(i); // a sync request
                        return;
                    }
                    if (++count[0] == target) {
                        count[0] = 0;
                        done.complete(null);
                    }
                }).build();
                if (shape == Shape.BECOME) {
                    self.become(handler.get());
                } else {
                    self.loop(() -> self.react(handler.get()));
                }
            });
        }

        void sync() throws Exception {
            system.<Object, Integer>ask(ref, -1, Duration.ofMinutes(5)).get(5, TimeUnit.MINUTES);
        }

        /** @return nanoseconds per message for {@code n} Integers told from this thread */
        double time(int n) throws Exception {
            target = n;
            done = new CompletableFuture<>();
            long start = System.nanoTime();
            for (int i = 0; i < n; i++) {
                ref.tell(i);
            }
            done.get(10, TimeUnit.MINUTES);
            return (System.nanoTime() - start) / (double) n;
        }
    }

    static Counter spawn(ActorSystem system, Shape shape) {
        return new Counter(system, shape);
    }

    static double median(List<Double> xs) {
        List<Double> s = new ArrayList<>(xs);
        s.sort(null);
        int n = s.size();
        return n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }

    static String format(List<Double> xs) {
        StringBuilder sb = new StringBuilder();
        for (double x : xs) {
            sb.append(String.format(Locale.ROOT, "%.1f ", x));
        }
        return sb.toString().trim();
    }

    static int positive(String[] args, int i, String name, int min) {
        if (i >= args.length) {
            throw new IllegalArgumentException(name + ": needs a value");
        }
        int v = Integer.parseInt(args[i]);
        if (v < min) {
            throw new IllegalArgumentException(name + ": must be at least " + min + ", was " + v);
        }
        return v;
    }
}
