package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.runtime.internal.system.WeftSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Closing many thread-based actors whose bodies ignore the stop logs one warning that counts them
 * exactly and names a few, not a warning with a stack per actor.
 */
class CloseOverrunWarningTest {

    @Test
    void closeReportsActorsThatDidNotStopInOneCountedWarning() throws InterruptedException {
        // a body blocked outside receive keeps its carrier in the continuation mode, so there each
        // actor has a dedicated platform thread, and fewer of them
        boolean continuations = ContinuationModeTest.continuations();
        int actors = continuations ? 200 : 2_000;
        ActorSystem system = ActorSystem.builder().name("close-overruns").parallelism(2)
                .stopGracePeriod(Duration.ofMillis(200)).build();
        List<String> warnings = new CopyOnWriteArrayList<>();
        ((WeftSystem) system).warningListener(warnings::add);
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        system.deadLetters().subscribe(dead::add);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch running = new CountDownLatch(actors);
        List<ActorRef<Object>> refs = new ArrayList<>();
        Props props = continuations ? Props.defaults().withScheduler(system.schedulers().dedicatedThread()) : Props.defaults();
        try {
            for (int i = 0; i < actors; i++) {
                refs.add(system.spawnThread(props.withName("stubborn-" + i), self -> {
                    running.countDown();
                    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(60); // bounded even if the test fails
                    while (release.getCount() > 0 && System.nanoTime() < end) {
                        try {
                            release.await(end - System.nanoTime(), TimeUnit.NANOSECONDS);
                        } catch (InterruptedException e) {
                            // under test: a body that swallows the stop's interrupt and goes on waiting
                        }
                    }
                }));
            }
            assertTrue(running.await(30, TimeUnit.SECONDS), "actors not running within 30 s");
            for (ActorRef<Object> ref : refs) {
                ref.tell("queued");
            }
            assertTimeoutPreemptively(Duration.ofSeconds(60), system::close);
            assertEquals(0, system.actorCount());
            assertTrue(refs.stream().allMatch(ActorRef::isTerminated), "every actor ended");
            assertEquals(actors, dead.stream().filter(d -> d.reason() == DeadLetter.Reason.SYSTEM_CLOSED).count(),
                    "each actor's queued message is a dead letter");

            List<String> overruns = warnings.stream().filter(w -> w.contains("did not stop within the stop grace period")).toList();
            assertEquals(1, overruns.size(), "one warning for the close, not one per actor: " + warnings.size() + " warnings");
            String w = overruns.get(0);
            assertTrue(w.startsWith(actors + " actors of system close-overruns did not stop"), w);
            assertTrue(w.contains("stubborn-"), "names examples: " + w);
            assertTrue(w.contains("the other " + (actors - 3) + " are logged at DEBUG"), w);
            assertTrue(w.length() < 4_000, "one stack at most: " + w.length() + " chars");
            assertTrue(warnings.size() <= 2, "warnings bounded: " + warnings.size());
        } finally {
            release.countDown();
            system.close();
        }
    }
}
