package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Thread-based bodies as continuations (-Dweft.threadActors=continuations): the suite's second
 * surefire execution runs every test of this module that way; these tests check what is particular
 * to it (and, in the default execution, that the fallback keeps virtual threads).
 */
class ContinuationModeTest {

    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    /** @return whether this JVM runs thread-based bodies as continuations (the second surefire execution) */
    static boolean continuations() {
        return "continuations".equals(System.getProperty("weft.threadActors"));
    }

    @Test
    void theOptInChoosesTheContinuationSchedulerAndOtherwiseVirtualThreads() {
        try (ActorSystem system = ActorSystem.builder().name("cont-mode").build()) {
            assertEquals(continuations() ? "continuation" : "virtual-thread", system.schedulers().virtualThread().name());
        }
    }

    @Test
    void aBodyThatHoldsAMonitorAcrossReceiveFailsNamingTheActorAndTheFixWhereTheJdkPinsIt() throws Exception {
        assumeTrue(continuations());
        try (ActorSystem system = ActorSystem.builder().name("cont-pinned").build()) {
            CompletableFuture<Object> outcome = new CompletableFuture<>();
            Object lock = new Object();
            ActorRef<Object> ref = system.spawnThread("pinned", self -> {
                try {
                    synchronized (lock) {
                        outcome.complete(self.receive(ANY));
                    }
                } catch (RuntimeException e) {
                    outcome.complete(e);
                    throw e;
                }
            });
            ref.tell("hello");
            Object o = outcome.get(30, TimeUnit.SECONDS);
            if (Runtime.version().feature() < 24) {
                // JDK 21-23 cannot freeze a continuation that holds a monitor: receive says so
                assertInstanceOf(IllegalStateException.class, o);
                String message = ((Throwable) o).getMessage();
                assertTrue(message.contains(ref.toString()), message);
                assertTrue(message.contains("synchronized"), message);
            } else {
                // JDK 24 and later freeze the monitor with the continuation (JEP 491's machinery)
                assertEquals("hello", o);
            }
        }
    }

    @Test
    void bodiesBlockedOutsideReceiveOnEveryCarrierDoNotStarveTheOthers() throws Exception {
        int blockers = Runtime.getRuntime().availableProcessors() + 2;
        try (ActorSystem system = ActorSystem.builder().name("cont-blocked").build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocked = new CountDownLatch(blockers);
            CountDownLatch done = new CountDownLatch(blockers);
            for (int i = 0; i < blockers; i++) {
                ActorRef<Object> blocker = system.spawnThread("blocker-" + i, self -> {
                    blocked.countDown();
                    try {
                        if (release.await(60, TimeUnit.SECONDS)) {
                            done.countDown();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
                assertTrue(blocker != null);
            }
            assertTrue(blocked.await(30, TimeUnit.SECONDS), "every blocker started");
            // every carrier may hold a blocked body now: the releaser runs only on a carrier the watchdog adds
            ActorRef<Object> releaser = system.spawnThread("releaser", self -> {
                self.receive(ANY);
                release.countDown();
            });
            releaser.tell("go");
            assertTrue(done.await(60, TimeUnit.SECONDS), "the releaser ran while the others blocked");
        }
    }

    @Test
    void aTimedReceiveTimesOutAndAStopWakesABodyWaitingInReceive() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("cont-timed").build()) {
            CompletableFuture<Object> timedOut = new CompletableFuture<>();
            CountDownLatch waiting = new CountDownLatch(1);
            CountDownLatch stopped = new CountDownLatch(1);
            ActorRef<Object> ref = system.spawnThread("timed", self -> {
                timedOut.complete(self.receiveWithin(Duration.ofMillis(20),
                        Receive.<Object, Object>returning().match(String.class, s -> s).onTimeout(() -> "timeout").build()));
                waiting.countDown();
                self.receive(ANY);
            });
            system.lifecycle().subscribe(e -> {
                if (e.actor().equals(ref) && e.kind() == LifecycleEvent.Kind.STOPPED) {
                    stopped.countDown();
                }
            });
            assertEquals("timeout", timedOut.get(30, TimeUnit.SECONDS));
            assertTrue(waiting.await(30, TimeUnit.SECONDS));
            system.stop(ref);
            assertTrue(stopped.await(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void manyActorsPassATokenAroundARingWithoutLosingAWakeUp() throws Exception {
        int n = 200;
        int hops = 100_000;
        try (ActorSystem system = ActorSystem.builder().name("cont-ring").build()) {
            CountDownLatch finished = new CountDownLatch(1);
            AtomicInteger last = new AtomicInteger();
            @SuppressWarnings({"unchecked", "rawtypes"})
            ActorRef<Object>[] ring = new ActorRef[n];
            for (int i = n - 1; i >= 0; i--) {
                int index = i;
                ring[i] = system.spawnThread("ring-" + i, self -> {
                    for (;;) {
                        int left = (Integer) self.receive(ANY);
                        if (left == 0) {
                            last.set(index);
                            finished.countDown();
                            return;
                        }
                        ring[(index + 1) % n].tell(left - 1);
                    }
                });
            }
            ring[0].tell(hops);
            assertTrue(finished.await(60, TimeUnit.SECONDS));
            assertEquals(hops % n, last.get());
        }
    }

    @Test
    void bodiesSpawnedFromOutsideTheCarriersShareACarrierPerRunOfSpawnsAndRunsTakeTheCarriersInTurn() throws Exception {
        assumeTrue(continuations());
        assumeTrue(Runtime.getRuntime().availableProcessors() > 1, "one carrier per core: a single core has one carrier");
        int run = Integer.getInteger("weft.continuationSpawnRun", 32);
        int n = 2 * run;
        String[] carriers = new String[n];
        CountDownLatch named = new CountDownLatch(n);
        try (ActorSystem system = ActorSystem.builder().name("cont-place").build()) {
            for (int i = 0; i < n; i++) {
                int index = i;
                system.spawnThread("placed-" + i, self -> {
                    carriers[index] = Thread.currentThread().getName();
                    named.countDown();
                    self.receive(ANY);
                });
            }
            assertTrue(named.await(30, TimeUnit.SECONDS));
        }
        for (int i = 0; i < n; i++) {
            assertEquals(carriers[i / run * run], carriers[i], "body " + i + " is not on its run's carrier");
        }
        assertTrue(!carriers[0].equals(carriers[run]), "two runs of spawns on one carrier: " + carriers[0]);
    }
}
