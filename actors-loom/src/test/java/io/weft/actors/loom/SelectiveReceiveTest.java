package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.runtime.internal.system.WeftSystem;
import io.weft.actors.runtime.testing.Conditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Selective receive over a large stash (Erlang's semantics): a receive takes the oldest message its
 * handler matches, messages it skips are kept in arrival order, and every kept message is delivered
 * to a later receive that matches it, whether it arrived before the body started receiving or
 * while it was receiving. Runs on virtual threads and, in the second surefire execution, on
 * continuations.
 */
class SelectiveReceiveTest {

    private static final int KEPT = 1_000;

    private static final Receive<Object, Object> INTS = Receive.<Object, Object>returning().match(Integer.class, i -> i).build();
    private static final Receive<Object, Object> STRINGS = Receive.<Object, Object>returning().match(String.class, s -> s).build();
    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    @Test
    void aThousandKeptMessagesAreSkippedInOrderAndEachIsDeliveredLater() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("selective").build()) {
            CountDownLatch go = new CountDownLatch(1);
            CountDownLatch halfway = new CountDownLatch(1);
            CompletableFuture<List<List<Object>>> result = new CompletableFuture<>();
            ActorRef<Object> actor = system.spawnThread("selective", (ActorContext<Object> self) -> {
                try {
                    if (!go.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("not started");
                    }
                    List<Object> ints = new ArrayList<>();
                    for (int i = 0; i < 2 * KEPT / 10; i++) {
                        ints.add(self.receive(INTS)); // skips every kept string before it
                        if (i == KEPT / 10 - 1) {
                            halfway.countDown(); // the second half arrives while the stash is full
                        }
                    }
                    // a guarded handler searches the kept messages: the oldest string ending in 7
                    Object guarded = self.receive(Receive.<Object, Object>returning()
                            .match(String.class, s -> s.endsWith("7"), s -> s).build());
                    List<Object> strings = new ArrayList<>();
                    for (int i = 0; i < 2 * KEPT - 1; i++) {
                        strings.add(self.receive(STRINGS));
                    }
                    Object last = self.receiveWithin(Duration.ZERO, Receive.<Object, Object>returning()
                            .matchAny(m -> m).onTimeout(() -> "empty").build());
                    result.complete(List.of(ints, List.of(guarded), strings, List.of(last)));
                } catch (Throwable t) {
                    result.completeExceptionally(t);
                }
                self.receive(ANY);
            });
            // first half: queued before the body receives; second half: while it receives
            for (int i = 0; i < KEPT; i++) {
                actor.tell("s" + i);
                if (i % 10 == 9) {
                    actor.tell(i / 10);
                }
            }
            go.countDown();
            if (!halfway.await(30, TimeUnit.SECONDS)) {
                throw new AssertionError("the actor did not receive the first half of the integers");
            }
            for (int i = KEPT; i < 2 * KEPT; i++) {
                actor.tell("s" + i);
                if (i % 10 == 9) {
                    actor.tell(i / 10);
                }
            }
            List<List<Object>> got = result.get(30, TimeUnit.SECONDS);
            List<Object> ints = new ArrayList<>();
            for (int i = 0; i < 2 * KEPT / 10; i++) {
                ints.add(i);
            }
            assertEquals(ints, got.get(0), "the integers, in arrival order");
            assertEquals(List.of("s7"), got.get(1), "the oldest kept string the guard matches");
            List<Object> strings = new ArrayList<>();
            for (int i = 0; i < 2 * KEPT; i++) {
                if (i != 7) {
                    strings.add("s" + i);
                }
            }
            assertEquals(strings, got.get(2), "every kept string, in arrival order, once");
            assertEquals(List.of("empty"), got.get(3), "nothing left");
            actor.tell("end");
        }
    }

    @Test
    void theWarningAboutKeptMessagesIsLoggedOffTheReceivingThread() throws Exception {
        // the receive that keeps the threshold's message (a tenth of the bound) hands the warning
        // to another thread, which builds it and logs it (CellStash K4)
        try (ActorSystem system = ActorSystem.builder().name("selective-warning").build()) {
            List<String> warnings = new CopyOnWriteArrayList<>();
            List<Thread> loggedOn = new CopyOnWriteArrayList<>();
            ((WeftSystem) system).warningListener(w -> {
                loggedOn.add(Thread.currentThread());
                warnings.add(w);
            });
            CompletableFuture<Thread> receiving = new CompletableFuture<>();
            CountDownLatch go = new CountDownLatch(1);
            ActorRef<Object> actor = system.spawnThread(Props.defaults().withMaxKept(100), (ActorContext<Object> self) -> {
                receiving.complete(Thread.currentThread());
                try {
                    if (!go.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("not started");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                self.receive(INTS); // keeps the 10 strings before the integer
                self.receive(ANY);
            });
            for (int i = 0; i < 10; i++) {
                actor.tell("s" + i);
            }
            actor.tell(1);
            go.countDown();
            Thread receiver = receiving.get(30, TimeUnit.SECONDS);
            Conditions.await(Conditions.LONG, () -> !warnings.isEmpty(), "the kept warning");
            assertTrue(warnings.get(0).contains(actor.toString()) && warnings.get(0).contains("keeps 10 messages"), warnings.get(0));
            assertNotSame(receiver, loggedOn.get(0), "logged on the receiving thread: " + warnings.get(0));
            actor.tell("end");
        }
    }
}
