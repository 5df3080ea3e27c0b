package io.weft.actors.loom.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;

/**
 * The continuation scheduler's watchdog (ContinuationScheduler's design block) walks the queue of a
 * carrier it finds stuck in one body only while bodies bound to that carrier have never run: with
 * every body started (a close of many parked bodies, all queued again by the stop), a walk would
 * move none, and walking a queue of hundreds of thousands every 5 ms took a fifth of such a close.
 * Runs in the suite's continuation execution only.
 */
class ContinuationWatchdogTest {

    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    @Test
    void aStuckCarrierWhoseBodiesHaveAllRunIsNotWalked() throws Exception {
        assumeTrue("continuations".equals(System.getProperty("weft.threadActors")), "continuation mode only");
        int parkedActors = 256;
        try (ActorSystem system = ActorSystem.builder().name("cont-watchdog").build()) {
            CountDownLatch started = new CountDownLatch(parkedActors);
            CountDownLatch received = new CountDownLatch(parkedActors);
            List<ActorRef<Object>> parked = new ArrayList<>();
            for (int i = 0; i < parkedActors; i++) {
                parked.add(system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
                    started.countDown();
                    self.receive(ANY);
                    received.countDown();
                    self.receive(ANY);
                }));
            }
            assertTrue(started.await(30, TimeUnit.SECONDS), "every parked actor started");
            // one body blocks its carrier outside receive; the wakes of the parked actors bound to
            // that carrier queue behind it, and all of them have run (no body there is unstarted)
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocked = new CountDownLatch(1);
            system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
                blocked.countDown();
                try {
                    release.await(60, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(blocked.await(30, TimeUnit.SECONDS), "the blocker started");
            long walks = ContinuationScheduler.QUEUE_WALKS.sum();
            long looks = ContinuationScheduler.STUCK_LOOKS.sum();
            for (ActorRef<Object> a : parked) {
                a.tell("wake");
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (ContinuationScheduler.STUCK_LOOKS.sum() - looks < 5 && System.nanoTime() - deadline < 0) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(5));
            }
            assertTrue(ContinuationScheduler.STUCK_LOOKS.sum() - looks >= 5, "the watchdog found a blocked carrier stuck");
            release.countDown();
            assertTrue(received.await(60, TimeUnit.SECONDS), "every parked actor received its message");
            assertEquals(0, ContinuationScheduler.QUEUE_WALKS.sum() - walks, "queues walked while every bound body had run");
        }
    }
}
