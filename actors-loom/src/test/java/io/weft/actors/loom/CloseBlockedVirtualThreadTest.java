package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorStoppedException;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** close() ends virtual-thread actors and adopted threads that are busy outside receive. */
class CloseBlockedVirtualThreadTest {

    /** Longer than any passing close here; the unfixed close took about 40 s. */
    private static final Duration CLOSE_BOUND = Duration.ofSeconds(20);
    private static final int QUEUED = 10;

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(30, TimeUnit.SECONDS), "latch not released within 30 s");
    }

    @Test
    void closeInterruptsASleepingVirtualThreadActorAndDeadLettersItsMail() throws Exception {
        ActorSystem system = ActorSystem.builder().name("close-vthread").parallelism(2).build();
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        system.deadLetters().subscribe(dead::add);
        CountDownLatch sleeping = new CountDownLatch(1);
        CompletableFuture<String> woke = new CompletableFuture<>();
        ActorRef<Object> ref = system.spawnThread("sleeper", self -> {
            sleeping.countDown();
            try {
                Thread.sleep(TimeUnit.MINUTES.toMillis(5)); // under test: the actor is blocked in sleep when the system closes
                woke.complete("slept");
            } catch (InterruptedException e) {
                woke.complete("interrupted");
            }
        });
        await(sleeping);
        for (int i = 0; i < QUEUED; i++) {
            ref.tell(i);
        }
        assertTimeoutPreemptively(CLOSE_BOUND, system::close);
        assertTrue(ref.isTerminated());
        assertEquals(0, system.actorCount());
        if (!ContinuationModeTest.continuations()) {
            // a body run as a continuation is not interrupted (its carrier runs other bodies): it is
            // ended from outside after the grace period, which the assertions above check
            assertEquals("interrupted", woke.get(30, TimeUnit.SECONDS));
        }
        List<DeadLetter> mine = dead.stream().filter(d -> d.recipient().equals(ref)).toList();
        assertEquals(QUEUED, mine.size(), mine.toString());
        assertTrue(mine.stream().allMatch(d -> d.reason() == DeadLetter.Reason.SYSTEM_CLOSED), mine.toString());
    }

    @Test
    void closeEndsTheActorOfAnAdoptedThreadThatIsBusyOutsideReceive() throws Exception {
        ActorSystem system = ActorSystem.builder().name("close-adopted").parallelism(2).build();
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        system.deadLetters().subscribe(dead::add);
        CountDownLatch adopted = new CountDownLatch(1);
        CountDownLatch goOn = new CountDownLatch(1);
        CompletableFuture<ActorRef<?>> self = new CompletableFuture<>();
        CompletableFuture<Throwable> laterReceive = new CompletableFuture<>();
        Thread busy = Thread.ofPlatform().name("adopted-busy").start(() -> {
            ActorContext<Object> ctx = Actors.self(system);
            self.complete(ctx.self());
            adopted.countDown();
            try {
                goOn.await(60, TimeUnit.SECONDS); // busy with its own work, not in receive
                ctx.receive(Receive.<Object, Object>returning().matchAny(m -> m).build());
                laterReceive.complete(null);
            } catch (Throwable t) {
                laterReceive.complete(t);
            }
        });
        try {
            await(adopted);
            ActorRef<?> ref = self.get(30, TimeUnit.SECONDS);
            @SuppressWarnings("unchecked")
            ActorRef<Object> to = (ActorRef<Object>) ref;
            for (int i = 0; i < QUEUED; i++) {
                to.tell(i);
            }
            assertTimeoutPreemptively(CLOSE_BOUND, system::close);
            assertTrue(ref.isTerminated());
            assertEquals(0, system.actorCount());
            List<DeadLetter> mine = dead.stream().filter(d -> d.recipient().equals(ref)).toList();
            assertEquals(QUEUED, mine.size(), mine.toString());
            assertTrue(mine.stream().allMatch(d -> d.reason() == DeadLetter.Reason.SYSTEM_CLOSED), mine.toString());
            goOn.countDown();
            assertTrue(laterReceive.get(30, TimeUnit.SECONDS) instanceof ActorStoppedException);
        } finally {
            goOn.countDown();
            busy.join(TimeUnit.SECONDS.toMillis(30));
        }
    }
}
