package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorStoppedException;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.Test;

/**
 * {@code close()} and {@code stop(ref)} end a thread-based actor whose thread is blocked outside
 * {@code receive}: interrupted, then (if it does not return within the grace period) ended from
 * outside; its queued mail goes to dead letters.
 */
class CloseBlockedThreadTest {

    /** Longer than any passing close here; the unfixed close took about 40 s. */
    private static final Duration CLOSE_BOUND = Duration.ofSeconds(20);
    private static final int QUEUED = 10;

    /** Where the body blocks, outside receive. */
    enum Blocking {
        SLEEP, QUEUE_TAKE, INTERRUPTIBLE_LOCK, UNINTERRUPTIBLE_LOCK
    }

    private static Props onOwnThread(ActorSystem system, String name) {
        return Props.named(name).withScheduler(system.schedulers().dedicatedThread());
    }

    @ParameterizedTest(name = "blocked: {0}")
    @EnumSource(Blocking.class)
    void closeEndsAThreadActorBlockedOutsideReceiveAndDeadLettersItsMail(Blocking blocking) throws Exception {
        ActorSystem system = ActorSystem.builder().name("close-blocked-" + blocking).parallelism(2)
                .stopGracePeriod(Duration.ofMillis(300)).build();
        Probes.Dead dead = Probes.Dead.of(system);
        Probes.Lifecycle lifecycle = Probes.Lifecycle.of(system);
        ReentrantLock lock = new ReentrantLock();
        lock.lock(); // held by the test thread while the actor waits for it
        LinkedBlockingQueue<Object> never = new LinkedBlockingQueue<>();
        CountDownLatch blocked = new CountDownLatch(1);
        CompletableFuture<String> after = new CompletableFuture<>();
        try {
            ActorRef<Object> ref = system.spawnThread(onOwnThread(system, "blocked"), self -> {
                blocked.countDown();
                try {
                    switch (blocking) {
                        case SLEEP -> Thread.sleep(TimeUnit.MINUTES.toMillis(5));
                        case QUEUE_TAKE -> never.take();
                        case INTERRUPTIBLE_LOCK -> lock.lockInterruptibly();
                        case UNINTERRUPTIBLE_LOCK -> lock.lock(); // returns when the test unlocks
                    }
                    after.complete("unblocked");
                } catch (InterruptedException e) {
                    after.complete("interrupted");
                }
            });
            await(blocked);
            for (int i = 0; i < QUEUED; i++) {
                ref.tell("queued " + i);
            }
            assertTimeoutPreemptively(CLOSE_BOUND, system::close);
            assertTrue(ref.isTerminated(), ref + " terminated");
            assertEquals(0, system.actorCount());
            assertTrue(lifecycle.stopped(ref).isDone(), "STOPPED published before close returned");
            List<DeadLetter> mine = dead.letters.stream().filter(d -> d.recipient().equals(ref)).toList();
            assertEquals(QUEUED, mine.size(), "every queued message is a dead letter: " + mine);
            assertTrue(mine.stream().allMatch(d -> d.reason() == DeadLetter.Reason.SYSTEM_CLOSED), mine.toString());
            if (blocking != Blocking.UNINTERRUPTIBLE_LOCK) {
                assertEquals("interrupted", await(after));
            }
        } finally {
            lock.unlock();
            system.close();
        }
    }

    @Test
    void aBodyThatSwallowsInterruptsIsEndedFromOutsideAfterTheGracePeriod() throws Exception {
        ActorSystem system = ActorSystem.builder().name("close-runaway").parallelism(2)
                .stopGracePeriod(Duration.ofMillis(200)).build();
        Probes.Dead dead = Probes.Dead.of(system);
        Probes.Lifecycle lifecycle = Probes.Lifecycle.of(system);
        AtomicBoolean release = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch lateWork = new CountDownLatch(1);
        CompletableFuture<Throwable> lateReceive = new CompletableFuture<>();
        CompletableFuture<Integer> interrupts = new CompletableFuture<>();
        Thread[] own = new Thread[1];
        try {
            ActorRef<Object> ref = system.spawnThread(onOwnThread(system, "runaway"), self -> {
                own[0] = Thread.currentThread();
                running.countDown();
                int swallowed = 0;
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // bounded even if the test fails
                while (!release.get() && System.nanoTime() < end) {
                    try {
                        Thread.sleep(5); // under test: a body that waits interruptibly and swallows the interrupt
                    } catch (InterruptedException e) {
                        swallowed++; // swallowed: the body goes on
                    }
                }
                interrupts.complete(swallowed);
                Probes.await(lateWork);
                self.self().tell("late, to itself");
                try {
                    self.receive(Receive.<Object, Object>returning().matchAny(m -> m).build());
                    lateReceive.complete(null);
                } catch (Throwable t) {
                    lateReceive.complete(t);
                }
            });
            await(running);
            for (int i = 0; i < QUEUED; i++) {
                ref.tell("queued " + i);
            }
            assertTimeoutPreemptively(CLOSE_BOUND, system::close);
            assertTrue(ref.isTerminated());
            assertEquals(0, system.actorCount());
            assertTrue(lifecycle.stopped(ref).isDone(), "STOPPED published before close returned");
            assertEquals(QUEUED, dead.messagesTo(ref).size(), "queued mail is dead-lettered: " + dead.letters);
            assertTrue(dead.letters.stream().filter(d -> d.recipient().equals(ref))
                    .allMatch(d -> d.reason() == DeadLetter.Reason.SYSTEM_CLOSED), dead.letters.toString());
            // the runaway thread goes on; what it does later breaks nothing
            release.set(true);
            assertTrue(await(interrupts) >= 1, "the body was interrupted");
            lateWork.countDown();
            assertTrue(await(lateReceive) instanceof ActorStoppedException, "receive after the take-over throws");
            Probes.join(own[0]);
            assertTrue(dead.messagesTo(ref).contains("late, to itself"), dead.letters.toString());
        } finally {
            release.set(true);
            lateWork.countDown();
        }
    }

    @Test
    void stopInterruptsABlockedThreadActorAndWatchersGetTerminated() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("stop-blocked").parallelism(2)
                .stopGracePeriod(Duration.ofMillis(200)).build()) {
            Probes.Dead dead = Probes.Dead.of(system);
            Probes.Lifecycle lifecycle = Probes.Lifecycle.of(system);
            AtomicBoolean release = new AtomicBoolean();
            CountDownLatch running = new CountDownLatch(2);
            CompletableFuture<Terminated> seen = new CompletableFuture<>();
            ActorRef<Object> sleeper = system.spawnThread(onOwnThread(system, "sleeper"), self -> {
                running.countDown();
                Thread.sleep(TimeUnit.MINUTES.toMillis(5)); // under test: blocked in sleep when stopped
            });
            ActorRef<Object> runaway = system.spawnThread(onOwnThread(system, "swallower"), self -> {
                running.countDown();
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!release.get() && System.nanoTime() < end) {
                    try {
                        Thread.sleep(5); // under test: a body that waits interruptibly and swallows the interrupt
                    } catch (InterruptedException e) {
                        // swallowed
                    }
                }
            });
            CountDownLatch watching = new CountDownLatch(1);
            system.spawn("watcher", self -> {
                self.watch(runaway);
                watching.countDown();
                self.loop(() -> self.react(Receive.<Object>handler()
                        .match(Terminated.class, seen::complete)
                        .build()));
            });
            await(running);
            await(watching);
            for (int i = 0; i < QUEUED; i++) {
                sleeper.tell("to sleeper " + i);
                runaway.tell("to swallower " + i);
            }
            try {
                system.stop(sleeper);
                system.stop(runaway);
                await(lifecycle.stopped(sleeper));
                assertEquals(runaway, await(seen).actor());
                assertTrue(runaway.isTerminated());
                assertEquals(QUEUED, dead.messagesTo(sleeper).size(), dead.letters.toString());
                assertEquals(QUEUED, dead.messagesTo(runaway).size(), dead.letters.toString());
                assertTrue(dead.letters.stream().allMatch(d -> d.reason() == DeadLetter.Reason.RECIPIENT_STOPPED), dead.letters.toString());
            } finally {
                release.set(true);
            }
        }
    }
}
