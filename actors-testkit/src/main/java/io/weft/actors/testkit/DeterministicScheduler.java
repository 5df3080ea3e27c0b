package io.weft.actors.testkit;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.AskTimeoutException;
import io.weft.actors.Channel;
import io.weft.actors.Props;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.OptionalLong;
import java.util.PrimitiveIterator;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.LongStream;

/**
 * A {@link Scheduler} for tests that runs every actor spawned on it on the test thread, one turn at
 * a time, choosing the next runnable actor with a {@link Random} seeded by the test. The same seed
 * and the same test code give the same order of handlers, so a failure found under one seed
 * replays exactly.
 *
 * <pre>{@code
 * DeterministicScheduler.exploreInterleavings(LongStream.range(0, 200), (scheduler, system) -> {
 *     ActorRef<Object> store = system.spawn(scheduler.props("store"), ...);
 *     ...
 *     scheduler.runUntilIdle();
 *     assertEquals(2, ...);
 * });
 * }</pre>
 *
 * <p>Only event-based ({@code react}) actors can run on it: it gives no actor a thread of its own.
 * A turn handles one message by default ({@link #withBatchSize(long, int)} changes that), so every
 * message delivery is a scheduling point. Time is a {@link ManualClock}: use
 * {@link #scheduleOnce(Duration, Channel, Object)} and {@link #ask(Channel, Object, Duration)}
 * instead of the system's timer-based versions, and {@link #advance(Duration)} to move it. Actor
 * {@link io.weft.actors.Timers} run on that clock when the system is built with
 * {@code .ticker(scheduler.clock())} (as the systems of {@link #replay(long, Interleaving)} and
 * {@link #explore(LongStream, Interleaving)} are): {@link #advance(Duration)} then fires them in
 * due order and runs the actors until idle.
 *
 * <p>Thread safety: {@code schedule} may be called from any thread (for example by a system that
 * is closing), but {@link #step()} and {@link #runUntilIdle()} must be called by one thread at a
 * time; messages sent to its actors from other threads make the order depend on those threads.
 */
public final class DeterministicScheduler implements Scheduler {

    /** The default bound on steps of {@link #runUntilIdle()}, to turn a livelock into a failure. */
    public static final int DEFAULT_MAX_STEPS = 1_000_000;

    private static final AtomicLong ASK_IDS = new AtomicLong();

    private final long seed;
    private final Random random;
    private final SchedulerState state;
    private final ManualClock clock = new ManualClock();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition scheduled = lock.newCondition();
    private final ArrayList<Frame> runnable = new ArrayList<>();
    private final List<String> trace = new ArrayList<>();
    private long steps;

    private DeterministicScheduler(long seed, int batchSize) {
        this.seed = seed;
        this.random = new Random(seed);
        this.state = SchedulerState.batches(batchSize);
    }

    /**
     * @param seed the seed of the order in which runnable actors are chosen
     * @return a scheduler whose turns handle one message each
     */
    public static DeterministicScheduler withSeed(long seed) {
        return new DeterministicScheduler(seed, 1);
    }

    /**
     * @param seed the seed of the order in which runnable actors are chosen
     * @param batchSize messages per turn, at least 1
     * @return a scheduler
     * @throws IllegalArgumentException naming {@code batchSize} if it is less than 1
     */
    public static DeterministicScheduler withBatchSize(long seed, int batchSize) {
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize: must be at least 1, was " + batchSize);
        }
        return new DeterministicScheduler(seed, batchSize);
    }

    /** @return the seed */
    public long seed() {
        return seed;
    }

    /** @return the clock of scheduled messages and ask timeouts */
    public ManualClock clock() {
        return clock;
    }

    /**
     * @param name the actor's name
     * @return props that put an actor on this scheduler
     */
    public Props props(String name) {
        return Props.named(name).withScheduler(this);
    }

    /** @return props with a generated name that put an actor on this scheduler */
    public Props props() {
        return Props.defaults().withScheduler(this);
    }

    // ------------------------------------------------------------------ Scheduler SPI

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(state);
    }

    @Override
    public void schedule(Frame frame) {
        lock.lock();
        try {
            runnable.add(frame);
            scheduled.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public String name() {
        return "deterministic(seed=" + seed + ")";
    }

    // ------------------------------------------------------------------ driving

    /**
     * Runs one turn of one runnable actor, chosen by the seeded random source.
     *
     * @return false if no actor was runnable
     */
    public boolean step() {
        Frame next;
        lock.lock();
        try {
            if (runnable.isEmpty()) {
                return false;
            }
            next = runnable.remove(random.nextInt(runnable.size()));
        } finally {
            lock.unlock();
        }
        steps++;
        trace.add(next.ref().name());
        next.execute();
        return true;
    }

    /**
     * Runs turns until no actor is runnable.
     *
     * @return how many turns ran
     * @throws IllegalStateException if actors are still runnable after {@link #DEFAULT_MAX_STEPS}
     *     turns (a livelock, or a protocol that never goes quiet)
     */
    public int runUntilIdle() {
        return runUntilIdle(DEFAULT_MAX_STEPS);
    }

    /**
     * Runs turns until no actor is runnable, at most {@code maxSteps}.
     *
     * @param maxSteps the bound, at least 1
     * @return how many turns ran
     * @throws IllegalStateException if actors are still runnable after {@code maxSteps} turns
     */
    public int runUntilIdle(int maxSteps) {
        if (maxSteps < 1) {
            throw new IllegalArgumentException("maxSteps: must be at least 1, was " + maxSteps);
        }
        int n = 0;
        while (step()) {
            if (++n >= maxSteps && runnableCount() > 0) {
                throw new IllegalStateException("actors still runnable after " + maxSteps + " steps under seed " + seed
                        + "; the protocol never goes quiet");
            }
        }
        return n;
    }

    /**
     * Moves the clock forward, running timers that fall due, then runs until idle.
     *
     * @param by not negative
     * @return how many timers ran
     */
    public int advance(Duration by) {
        int ran = clock.advance(by);
        runUntilIdle();
        return ran;
    }

    /** @return how many actors wait to run */
    public int runnableCount() {
        lock.lock();
        try {
            return runnable.size();
        } finally {
            lock.unlock();
        }
    }

    /** @return turns run so far */
    public long steps() {
        return steps;
    }

    /** @return the names of the actors in the order their turns ran; equal for equal seeds */
    public List<String> trace() {
        return List.copyOf(trace);
    }

    // ------------------------------------------------------------------ time

    /**
     * Sends {@code message} to {@code target} when the {@linkplain #clock() clock} has advanced by
     * {@code delay}.
     *
     * @param delay not negative
     * @param target the recipient
     * @param message the message
     * @param <T> the message type
     * @return the timer, to cancel it
     */
    public <T> ManualClock.Timer scheduleOnce(Duration delay, Channel<T> target, T message) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(message, "message");
        return clock.schedule(delay, () -> target.tell(message));
    }

    /**
     * Like {@link ActorSystem#ask(Channel, Object, Duration)}, with the timeout on the
     * {@linkplain #clock() manual clock}: the future fails with {@link AskTimeoutException} only when
     * the clock is advanced past {@code timeout} without a reply.
     *
     * @param target the recipient
     * @param message the request
     * @param timeout positive
     * @param <T> the target's message type
     * @param <R> the reply type
     * @return the reply future
     */
    public <T, R> CompletableFuture<R> ask(Channel<T> target, T message, Duration timeout) {
        Objects.requireNonNull(target, "target");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(timeout, "timeout");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout: must be positive, was " + timeout);
        }
        FutureRef<R> reply = new FutureRef<>(ASK_IDS.incrementAndGet());
        ManualClock.Timer timer = clock.schedule(timeout, () -> reply.future.completeExceptionally(new AskTimeoutException(
                "ask to " + target + " timed out after " + timeout.toMillis() + " ms of manual time")));
        reply.future.whenComplete((r, e) -> timer.cancel());
        target.tell(message, reply);
        return reply.future;
    }

    /** The reply destination of {@link #ask}: its first message completes the future. */
    private static final class FutureRef<R> implements ActorRef<Object> {
        final CompletableFuture<R> future = new CompletableFuture<>();
        private final long id;

        FutureRef(long id) {
            this.id = id;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void tell(Object message) {
            future.complete((R) Objects.requireNonNull(message, "message"));
        }

        @Override
        public void tell(Object message, ActorRef<?> replyTo) {
            tell(message);
        }

        @Override
        public long id() {
            return -id;
        }

        @Override
        public String name() {
            return "$testkit-ask" + id;
        }

        @Override
        public String address() {
            return "weft://testkit/" + name() + "#" + (-id);
        }

        @Override
        public boolean isTerminated() {
            return future.isDone();
        }

        @Override
        public String toString() {
            return "TestkitAsk[" + id + "]";
        }
    }

    // ------------------------------------------------------------------ closing

    /**
     * Closes {@code system}, running on this thread the turns its actors need to stop (a system
     * waits for its actors, and actors on this scheduler run only when someone steps it).
     *
     * @param system the system to close
     * @throws IllegalStateException if the system does not finish closing within 60 s
     */
    public void close(ActorSystem system) {
        Objects.requireNonNull(system, "system");
        Thread closer = Thread.ofPlatform().daemon(true).name("weft-testkit-closer").start(system::close);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (closer.isAlive()) {
            if (step()) {
                continue;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("actor system " + system.name() + " did not close within 60 s");
            }
            lock.lock();
            try {
                if (runnable.isEmpty()) {
                    scheduled.await(1, TimeUnit.MILLISECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while closing " + system.name(), e);
            } finally {
                lock.unlock();
            }
        }
        while (step()) {
            // turns scheduled by the last stops
        }
    }

    // ------------------------------------------------------------------ exploring interleavings

    /**
     * A test body run under one schedule: it spawns its actors with {@link #props(String)} on
     * {@code system}, drives them with {@link #runUntilIdle()}, and asserts.
     */
    @FunctionalInterface
    public interface Interleaving {
        /**
         * @param scheduler the scheduler of this run, seeded
         * @param system a fresh system for this run, closed after it
         * @throws Exception to fail the run
         */
        void run(DeterministicScheduler scheduler, ActorSystem system) throws Exception;
    }

    /**
     * The outcome of {@link #explore(LongStream, Interleaving)}.
     *
     * @param runs how many seeds were tried
     * @param failingSeed the first seed under which the test failed, if any
     * @param failure what that run threw, or null
     */
    public record Exploration(int runs, OptionalLong failingSeed, Throwable failure) {
        /** @return whether some seed failed */
        public boolean failed() {
            return failingSeed.isPresent();
        }
    }

    /**
     * Runs {@code test} once under {@code seed}, with a fresh system, and closes the system.
     *
     * @param seed the seed
     * @param test the body
     * @throws Exception whatever the body threw
     */
    public static void replay(long seed, Interleaving test) throws Exception {
        Objects.requireNonNull(test, "test");
        DeterministicScheduler scheduler = withSeed(seed);
        ActorSystem system = ActorSystem.builder().name("deterministic-" + seed).parallelism(1).ticker(scheduler.clock()).build();
        try {
            test.run(scheduler, system);
        } finally {
            scheduler.close(system);
        }
    }

    /**
     * Runs {@code test} under each seed until one fails.
     *
     * @param seeds the seeds to try, in order
     * @param test the body
     * @return how many runs, and the first failing seed with its failure
     */
    public static Exploration explore(LongStream seeds, Interleaving test) {
        Objects.requireNonNull(seeds, "seeds");
        Objects.requireNonNull(test, "test");
        int runs = 0;
        for (PrimitiveIterator.OfLong it = seeds.iterator(); it.hasNext(); ) {
            long seed = it.nextLong();
            runs++;
            try {
                replay(seed, test);
            } catch (Throwable t) {
                if (t instanceof InterruptedException) {
                    Thread.currentThread().interrupt();
                }
                return new Exploration(runs, OptionalLong.of(seed), t);
            }
        }
        return new Exploration(runs, OptionalLong.empty(), null);
    }

    /**
     * Runs {@code test} under each seed and fails on the first seed under which it fails, naming
     * the seed so that {@link #replay(long, Interleaving)} reproduces it.
     *
     * @param seeds the seeds to try
     * @param test the body
     * @throws AssertionError naming the failing seed, with the run's failure as its cause
     */
    public static void exploreInterleavings(LongStream seeds, Interleaving test) {
        Exploration e = explore(seeds, test);
        if (e.failed()) {
            throw new AssertionError("failed under seed " + e.failingSeed().getAsLong() + " (run " + e.runs()
                    + "); replay it with DeterministicScheduler.replay(" + e.failingSeed().getAsLong() + "L, test): "
                    + e.failure(), e.failure());
        }
    }
}
