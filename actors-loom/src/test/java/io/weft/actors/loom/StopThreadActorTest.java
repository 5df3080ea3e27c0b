package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorStoppedException;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** ActorSystem.stop(ref) on a thread-based actor blocked in receive. */
class StopThreadActorTest {

    @Test
    void aBlockedThreadActorStoppedFromOutsideWakesRunsItsCleanupAndItsMailIsDeadLettered() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("stop-thread").parallelism(2).build()) {
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            system.deadLetters().subscribe(dead::add);
            record Wanted() { }
            CountDownLatch waiting = new CountDownLatch(1);
            CountDownLatch cleanedUp = new CountDownLatch(1);
            CountDownLatch stopped = new CountDownLatch(1);
            List<String> trace = new CopyOnWriteArrayList<>();
            ActorRef<Object> ref = system.spawnThread("blocked", self -> {
                self.onStop(() -> trace.add("onStop"));
                try {
                    waiting.countDown();
                    self.receive(Receive.<Object, Object>returning().match(Wanted.class, w -> w).build());
                    trace.add("received");
                } catch (ActorStoppedException e) {
                    trace.add("woke: stopped");
                    throw e;
                } finally {
                    trace.add("finally");
                    cleanedUp.countDown();
                }
            });
            system.lifecycle().subscribe(e -> {
                if (e.actor().equals(ref) && e.kind() == LifecycleEvent.Kind.STOPPED) {
                    stopped.countDown();
                }
            });
            assertTrue(waiting.await(30, TimeUnit.SECONDS));
            ref.tell("not wanted 1"); // stays in the mailbox: receive waits for Wanted
            ref.tell("not wanted 2");
            system.stop(ref);
            assertTrue(cleanedUp.await(30, TimeUnit.SECONDS));
            assertTrue(stopped.await(30, TimeUnit.SECONDS));
            assertEquals(List.of("woke: stopped", "finally", "onStop"), trace);
            assertEquals(List.of("not wanted 1", "not wanted 2"),
                    dead.stream().filter(d -> d.recipient().equals(ref)).map(DeadLetter::message).toList());
        }
    }
}
