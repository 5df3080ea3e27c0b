package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.runtime.testing.Conditions;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;

/**
 * A thread-based actor counts its receives in batches (CellThreadMode's design block): the
 * system's handled count is complete once the actor parks, once its body ends, and once an adopted
 * thread is released.
 */
class ThreadActorCountsTest {

    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    /** Waits (bounded, 30 s) until the count reaches {@code expected}; returns the count then. */
    private static long awaitCount(LongSupplier count, long expected) {
        long[] seen = {count.getAsLong()};
        Conditions.await(Conditions.LONG, () -> (seen[0] = count.getAsLong()) >= expected,
                () -> "the count reaches " + expected + "; last seen " + seen[0]);
        return seen[0];
    }

    @Test
    void aParkedThreadActorHasCountedEveryMessageItReceived() throws Exception {
        int n = 100; // more than one batch, and not a multiple of it
        try (ActorSystem system = ActorSystem.builder().name("counts-parked").build()) {
            CountDownLatch received = new CountDownLatch(n);
            ActorRef<Object> actor = system.spawnThread("receiver", (ActorContext<Object> self) -> {
                for (;;) {
                    self.receive(ANY);
                    received.countDown();
                }
            });
            for (int i = 0; i < n; i++) {
                actor.tell(i);
            }
            assertTrue(received.await(30, TimeUnit.SECONDS));
            // the actor now parks in its next receive, which adds what it has counted
            assertEquals(n, awaitCount(() -> system.metrics().messagesHandled(), n));
        }
    }

    @Test
    void aThreadActorWhoseBodyEndsHasCountedEveryMessageItReceived() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("counts-ended").build()) {
            CountDownLatch go = new CountDownLatch(1);
            ActorRef<Object> actor = system.spawnThread("three", (ActorContext<Object> self) -> {
                go.await();
                for (int i = 0; i < 3; i++) {
                    self.receive(ANY); // all three are queued: no park in between
                }
            });
            for (int i = 0; i < 3; i++) {
                actor.tell(i);
            }
            go.countDown();
            assertEquals(3, awaitCount(() -> system.metrics().messagesHandled(), 3));
        }
    }

    @Test
    void anAdoptedThreadHasCountedEveryMessageItReceivedOnceReleased() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("counts-adopted").build()) {
            ActorContext<Object> self = Actors.self(system);
            for (int i = 0; i < 5; i++) {
                self.self().tell(i);
            }
            for (int i = 0; i < 5; i++) {
                self.receive(ANY); // all queued: this thread never parks
            }
            Actors.release();
            assertEquals(5, system.metrics().messagesHandled());
        }
    }
}
