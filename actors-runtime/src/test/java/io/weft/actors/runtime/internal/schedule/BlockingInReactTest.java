package io.weft.actors.runtime.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.SchedulerTuning;
import io.weft.actors.runtime.Awaits;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;
import io.weft.actors.runtime.internal.system.WeftSystem;

/**
 * Seed 000 §3.3: react handlers that block must not stop other actors. With parallelism 2, actors
 * that block workers make the watchdog add spare workers, so other actors still run while they are
 * blocked, however many waves of blocked spares it takes.
 */
class BlockingInReactTest {

    @Test
    void twoBlockedHandlersDoNotStopAPingPong() throws Exception {
        SchedulerTuning tuning = SchedulerTuning.defaults().withBlockingThreshold(Duration.ofMillis(200));
        try (ActorSystem system = ActorSystem.builder().name("blocking").parallelism(2).schedulerTuning(tuning).build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocked = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                ActorRef<String> blocker = system.spawn("blocker-" + i, self -> self.react(Receive.<String>handler()
                        .match(String.class, s -> {
                            blocked.countDown();
                            try {
                                release.await(); // blocks a pool worker, as a lock or socket read would
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }).build()));
                blocker.tell("block");
            }
            assertTrue(blocked.await(30, TimeUnit.SECONDS));
            int rounds = 1_000;
            CountDownLatch finished = new CountDownLatch(1);
            ActorRef<Integer> pong = system.spawn("pong", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, n -> self.reply(n)).build())));
            ActorRef<Integer> ping = system.spawn("ping", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, n -> {
                        if (n == rounds) {
                            finished.countDown();
                        } else {
                            pong.tell(n + 1, self.self());
                        }
                    }).build())));
            pong.tell(0, ping);
            try {
                assertTrue(finished.await(60, TimeUnit.SECONDS), "ping-pong stalled behind blocked handlers");
                WeftSystem weft = (WeftSystem) system;
                assertTrue(((ForkJoinScheduler) weft.defaultScheduler()).blockedTurnsDetected() >= 1,
                        "the watchdog did not report the blocked handlers");
            } finally {
                release.countDown();
            }
        }
    }

    /**
     * Three waves: the two workers block; the spares the watchdog adds for them take the next two
     * blockers and block too; the spares for those take the last two and block; only the third
     * wave's spares are left for an ask. Every wave must start its spares, although every worker
     * is blocked and the pool's submission queues are not empty.
     */
    @Test
    void everyWaveOfBlockedSparesGetsSparesOfItsOwn() throws Exception {
        int parallelism = 2;
        int waves = 3;
        SchedulerTuning tuning = SchedulerTuning.defaults().withBlockingThreshold(Duration.ofMillis(100));
        CountDownLatch release = new CountDownLatch(1);
        try (ActorSystem system = ActorSystem.builder().name("waves").parallelism(parallelism).schedulerTuning(tuning).build()) {
            ForkJoinScheduler scheduler = (ForkJoinScheduler) ((WeftSystem) system).defaultScheduler();
            ForkJoinPool pool = scheduler.pool();
            List<String> poolSizes = new ArrayList<>();
            try {
                int blockers = 0;
                for (int wave = 0; wave < waves; wave++) {
                    // wave 0 blocks the pool's own workers; wave w > 0 needs the spares of wave w - 1
                    CountDownLatch blocked = new CountDownLatch(parallelism);
                    for (int i = 0; i < parallelism; i++, blockers++) {
                        ActorRef<String> blocker = system.spawn("blocker-" + blockers, self -> self.react(Receive.<String>handler()
                                .match(String.class, s -> {
                                    blocked.countDown();
                                    try {
                                        release.await(); // blocks a pool worker, as a lock or socket read would
                                    } catch (InterruptedException e) {
                                        Thread.currentThread().interrupt();
                                    }
                                }).build()));
                        blocker.tell("block");
                    }
                    assertTrue(blocked.await(30, TimeUnit.SECONDS),
                            "wave " + wave + ": " + blocked.getCount() + " of " + parallelism + " blockers never started; "
                                    + "pool sizes after the earlier waves " + poolSizes + ", now " + pool);
                    poolSizes.add("wave " + wave + ": " + pool.getPoolSize() + " workers");
                }
                ActorRef<String> echo = system.spawn("echo", self -> self.loop(() -> self.react(Receive.<String>handler()
                        .match(String.class, s -> self.reply(s)).build())));
                CompletableFuture<String> answer = system.ask(echo, "hello", Duration.ofSeconds(60));
                assertEquals("hello", Awaits.getOrDumpThreads(answer, 30,
                        "the echo did not answer while " + blockers + " handlers were blocked; pool sizes after each wave "
                                + poolSizes + ", now " + pool));
                // one spare per stuck worker in the parallelism (the last wave's two may be
                // detected in two ticks, and the first spare may answer before the second is
                // detected); the workers: the stuck ones, at least one that answered, none beyond
                int stuck = waves * parallelism;
                awaitTrue(() -> scheduler.blockedTurnsDetected() == stuck && pool.getParallelism() == parallelism + stuck,
                        () -> scheduler.blockedTurnsDetected() + " blocked turns detected of " + stuck + ": " + pool);
                int size = pool.getPoolSize();
                assertTrue(size > stuck && size <= parallelism + stuck, "workers: " + pool);
            } finally {
                release.countDown();
            }
        }
    }

    /**
     * The pool starts a worker only when a push from outside lands in a queue that looked empty.
     * With every worker blocked and the calling thread's own submission queue already holding
     * tasks, a plain push starts nobody; signalWorker empties the queues first, so its push does.
     */
    @Test
    void signalWorkerStartsAWorkerWhenEveryWorkerIsBlockedAndItsQueueIsNotEmpty() throws Exception {
        int parallelism = 2;
        SchedulerTuning tuning = SchedulerTuning.defaults().withBlockingThreshold(Duration.ZERO); // no watchdog
        CountDownLatch release = new CountDownLatch(1);
        try (ActorSystem system = ActorSystem.builder().name("signal").parallelism(parallelism).schedulerTuning(tuning).build()) {
            ForkJoinScheduler.Pool pool = ((ForkJoinScheduler) ((WeftSystem) system).defaultScheduler()).pool();
            try {
                CountDownLatch blocked = new CountDownLatch(parallelism);
                for (int i = 0; i < parallelism; i++) {
                    ActorRef<String> blocker = system.spawn("blocker-" + i, self -> self.react(Receive.<String>handler()
                            .match(String.class, s -> {
                                blocked.countDown();
                                try {
                                    release.await();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }).build()));
                    blocker.tell("block");
                }
                assertTrue(blocked.await(30, TimeUnit.SECONDS), "the workers were not blocked");
                // this thread's submission queue: a frame (a tell) and plain tasks, nobody to run them
                int tasks = 10;
                CountDownLatch ran = new CountDownLatch(tasks + 1);
                ActorRef<String> counter = system.spawn("counter", self -> self.loop(() -> self.react(Receive.<String>handler()
                        .match(String.class, s -> ran.countDown()).build())));
                counter.tell("count");
                for (int i = 0; i < tasks; i++) {
                    pool.execute(ran::countDown);
                }
                pool.setParallelism(parallelism + 1);
                assertEquals(parallelism, pool.getPoolSize(), "a worker started before the signal: " + pool);
                pool.signalWorker();
                assertTrue(ran.await(30, TimeUnit.SECONDS), ran.getCount() + " of " + (tasks + 1)
                        + " queued tasks did not run while the workers were blocked: " + pool);
                assertEquals(parallelism + 1, pool.getPoolSize(), "workers: " + pool);
            } finally {
                release.countDown();
            }
        }
    }

    /**
     * signalWorker takes queued frames out and pushes them back while other threads push and a
     * spare worker takes: every message is still handled exactly once, one turn of an actor at a
     * time.
     */
    @Test
    void framesTakenOutAndPushedBackRunExactlyOnce() throws Exception {
        int parallelism = 2;
        SchedulerTuning tuning = SchedulerTuning.defaults().withBlockingThreshold(Duration.ZERO); // no watchdog
        CountDownLatch release = new CountDownLatch(1);
        try (ActorSystem system = ActorSystem.builder().name("resubmit").parallelism(parallelism).schedulerTuning(tuning).build()) {
            ForkJoinScheduler.Pool pool = ((ForkJoinScheduler) ((WeftSystem) system).defaultScheduler()).pool();
            try {
                CountDownLatch blocked = new CountDownLatch(parallelism);
                for (int i = 0; i < parallelism; i++) {
                    ActorRef<String> blocker = system.spawn("blocker-" + i, self -> self.react(Receive.<String>handler()
                            .match(String.class, s -> {
                                blocked.countDown();
                                try {
                                    release.await();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                }
                            }).build()));
                    blocker.tell("block");
                }
                assertTrue(blocked.await(30, TimeUnit.SECONDS), "the workers were not blocked");
                pool.setParallelism(parallelism + 2); // room for two spares, which signalWorker starts
                int actors = 6;
                int senders = 3;
                int perSender = 3_000;
                AtomicInteger overlaps = new AtomicInteger();
                List<AtomicInteger> counts = new ArrayList<>();
                List<ActorRef<Integer>> targets = new ArrayList<>();
                CountDownLatch handled = new CountDownLatch(senders * perSender);
                for (int a = 0; a < actors; a++) {
                    AtomicInteger count = new AtomicInteger();
                    AtomicInteger inside = new AtomicInteger();
                    counts.add(count);
                    targets.add(system.spawn("counter-" + a, self -> self.loop(() -> self.react(Receive.<Integer>handler()
                            .match(Integer.class, n -> {
                                if (inside.incrementAndGet() != 1) {
                                    overlaps.incrementAndGet();
                                }
                                count.incrementAndGet();
                                inside.decrementAndGet();
                                handled.countDown();
                            }).build()))));
                }
                List<Thread> threads = new ArrayList<>();
                for (int t = 0; t < senders; t++) {
                    Thread sender = new Thread(() -> {
                        for (int i = 0; i < perSender; i++) {
                            targets.get(i % actors).tell(i);
                        }
                    }, "sender-" + t);
                    threads.add(sender);
                    sender.start();
                }
                for (int i = 0; i < 200; i++) {
                    pool.signalWorker();
                }
                for (Thread sender : threads) {
                    sender.join(TimeUnit.SECONDS.toMillis(30));
                    assertFalse(sender.isAlive(), sender.getName() + " did not finish sending");
                }
                pool.signalWorker(); // a spare for what the last pushes queued, if none was started
                assertTrue(handled.await(30, TimeUnit.SECONDS), handled.getCount() + " messages not handled: " + pool);
                assertEquals(0, overlaps.get(), "turns of one actor overlapped");
                for (AtomicInteger count : counts) {
                    assertEquals(senders * perSender / actors, count.get(), "messages handled by one actor");
                }
            } finally {
                release.countDown();
            }
        }
    }

    /** Waits until {@code condition} holds: looks every 10 ms, 30 s at most. */
    private static void awaitTrue(BooleanSupplier condition, Supplier<String> failure) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int looks = 0; looks < 3_000 && !condition.getAsBoolean() && System.nanoTime() - deadline < 0; looks++) {
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
        assertTrue(condition.getAsBoolean(), failure);
    }
}
