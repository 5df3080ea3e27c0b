package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Join;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** ActorSystem.stop(ref), onStop hooks, and joins bound to their actor's lifecycle. */
class StopTest {

    private ActorSystem system;
    private final List<DeadLetter> dead = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("stop").parallelism(2).build();
        system.deadLetters().subscribe(dead::add);
    }

    @AfterEach
    void close() {
        system.close();
    }

    private static void await(CountDownLatch latch) throws InterruptedException {
        assertTrue(latch.await(30, TimeUnit.SECONDS), "timed out");
    }

    @Test
    void stopFromOutsideFinishesTheHandlerThenDeadLettersTheRestAndRunsHooksOnce() throws Exception {
        CountDownLatch inHandler = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        List<String> trace = new CopyOnWriteArrayList<>();
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.STOPPED) {
                trace.add("STOPPED");
                stopped.countDown();
            }
        });
        ActorRef<Integer> ref = system.spawn(self -> {
            self.onStop(() -> trace.add("first registered"));
            self.onStop(() -> trace.add("second registered"));
            self.become(Receive.<Integer>handler().match(Integer.class, n -> {
                if (n == 0) {
                    inHandler.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    trace.add("handled 0");
                } else {
                    trace.add("handled " + n);
                }
            }).build());
        });
        ref.tell(0);
        await(inHandler);
        for (int i = 1; i <= 5; i++) {
            ref.tell(i);
        }
        system.stop(ref);
        system.stop(ref); // idempotent
        release.countDown();
        await(stopped);
        assertEquals(List.of("handled 0", "second registered", "first registered", "STOPPED"), trace);
        assertEquals(List.of(1, 2, 3, 4, 5), dead.stream().filter(d -> d.recipient().equals(ref)).map(DeadLetter::message).toList());
        assertTrue(ref.isTerminated());
    }

    @Test
    void hooksRunWhenTheActorFailsAndWhatTheySendToItselfIsADeadLetter() throws Exception {
        CountDownLatch stopped = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.STOPPED) {
                stopped.countDown();
            }
        });
        ActorRef<Object> ref = system.spawn(self -> {
            self.onStop(() -> self.self().tell("from the hook"));
            self.become(Receive.<Object>handler().matchAny(m -> {
                throw new IllegalStateException("boom");
            }).build());
        });
        ref.tell("fail");
        await(stopped);
        assertTrue(dead.stream().anyMatch(d -> d.message().equals("from the hook") && d.recipient().equals(ref)));
    }

    @Test
    void aJoinBuiltForItsActorReturnsHeldMessagesAsDeadLettersWhenTheActorStops() throws Exception {
        record Left(int v) { }
        record Right(int v) { }
        CountDownLatch stopped = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.STOPPED) {
                stopped.countDown();
            }
        });
        List<Integer> sums = new CopyOnWriteArrayList<>();
        CountDownLatch twoPairs = new CountDownLatch(2);
        ActorRef<Object> ref = system.spawn(self -> {
            Join<Object> join = Join.builder()
                    .join(Left.class, Right.class, (l, r) -> {
                        sums.add(l.v() + r.v());
                        twoPairs.countDown();
                    })
                    .build(self);
            self.become(join.handler());
        });
        ref.tell(new Left(1));
        ref.tell(new Right(2));
        ref.tell(new Left(10)); // held: no Right to pair with
        ref.tell(new Left(20)); // held
        ref.tell(new Right(0)); // pairs with the oldest held Left
        await(twoPairs);
        system.stop(ref);
        await(stopped);
        assertEquals(List.of(3, 10), sums);
        assertEquals(List.of(new Left(20)), dead.stream().filter(d -> d.recipient().equals(ref)).map(DeadLetter::message).toList());
    }

    @Test
    void stopRefusesRefsOfOtherSystems() {
        try (ActorSystem other = ActorSystem.builder().name("other").parallelism(1).build()) {
            ActorRef<Object> foreign = other.spawn(self -> self.become(Receive.<Object>handler().matchAny(m -> { }).build()));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> system.stop(foreign));
            assertTrue(e.getMessage().contains("not an actor of system"), e.getMessage());
        }
    }
}
