package io.weft.actors.bench.kit;

import java.util.Arrays;
import java.util.Locale;
import java.util.function.Supplier;

/** The implementations the benchmarks compare, with their command-line names. */
public enum Impl {
    /** Weft event-based actors ({@code system.spawn}, {@code loop}/{@code react}). */
    WEFT("weft", () -> WeftReactConfig.defaults().create()),
    /**
     * Weft event-based actors, every one (children too) on the system's fair scheduler
     * ({@code system.schedulers().fair()}, Prokopec 2016, §4 bounded delivery time): one thread by
     * design, so this shows what the fairness costs, not a throughput contender.
     */
    WEFT_FAIR("weft-fair", () -> WeftReactConfig.defaults().onFairScheduler().create()),
    /** Weft thread-based actors ({@code system.spawnThread}, blocking {@code receive}). */
    WEFT_THREAD("weft-thread", WeftThreadKit::new),
    /**
     * Weft thread-based actors run as continuations on shared carriers (the opt-in
     * {@code -Dweft.threadActors=continuations}); the JVM needs
     * {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}.
     */
    WEFT_CONT("weft-cont", () -> new WeftThreadKit(true)),
    /** fibry 3 ({@code eu.lucaventuri:fibry}): an actor library with one virtual thread per actor. */
    FIBRY("fibry", FibryKit::new),
    /** Apache Pekko 1.1 classic actors. */
    PEKKO("pekko", PekkoKit::new),
    /** One platform thread per actor taking from a {@code LinkedBlockingQueue}. */
    THREADS("threads", () -> new ThreadKit(false)),
    /** One virtual thread per actor taking from a {@code LinkedBlockingQueue}. */
    VTHREADS("vthreads", () -> new ThreadKit(true)),
    /** No actors: plain {@code ForkJoinPool} tasks, the baseline of the Fib/Integ speed-up of Haller and Odersky 2009, §7.2. */
    FJ("fj", FjKit::new),
    /**
     * The floor, not a contender: every actor on one event-loop thread, messages in one plain FIFO,
     * no atomic instruction ({@code LoopKit}).
     */
    LOOP("loop", LoopKit::new);

    private final String cliName;
    private final Supplier<Kit> factory;

    Impl(String cliName, Supplier<Kit> factory) {
        this.cliName = cliName;
        this.factory = factory;
    }

    /**
     * The name used on the command line and in tables.
     *
     * @return the name
     */
    public String cliName() {
        return cliName;
    }

    /**
     * Starts a fresh instance (an actor system, or nothing for threads).
     *
     * @return the kit; close it when done
     */
    public Kit create() {
        return factory.get();
    }

    /**
     * Parses a command-line name.
     *
     * @param name e.g. {@code weft-thread}
     * @return the implementation
     * @throws IllegalArgumentException naming the valid choices
     */
    public static Impl parse(String name) {
        String n = name.trim().toLowerCase(Locale.ROOT);
        for (Impl i : values()) {
            if (i.cliName.equals(n)) {
                return i;
            }
        }
        throw new IllegalArgumentException("--impl: unknown implementation \"" + name + "\"; choose from "
                + Arrays.stream(values()).map(Impl::cliName).toList());
    }
}
