package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorStoppedException;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Thread-based actors beside react actors: asks across modes, stop while blocked, adopted threads ending, misuse. */
class ThreadActorTest {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private static Receive<Object, Object> any() {
        return Receive.<Object, Object>returning().matchAny(m -> m).build();
    }

    private record Answer(Object value) {
    }

    @Test
    void reactActorAsksAThreadActorThroughTheFutureAndPipesTheAnswerToItself() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("react-asks").parallelism(2).build()) {
            ActorRef<Object> server = system.spawnThread("server", self -> {
                while (true) {
                    self.receive(Receive.<Object>handler().match(Integer.class, i -> self.reply(i + 1)).build());
                }
            });
            CompletableFuture<List<Object>> result = new CompletableFuture<>();
            system.spawn("client", (ActorContext<Object> self) -> {
                List<Object> answers = new ArrayList<>();
                self.loopWhile(() -> answers.size() < 10, () -> {
                    CompletableFuture<Integer> f = self.ask(server, answers.size() * 10, WAIT);
                    f.thenAccept(r -> self.self().tell(new Answer(r)));
                    self.react(Receive.<Object>handler().match(Answer.class, a -> {
                        answers.add(a.value());
                        if (answers.size() == 10) {
                            result.complete(answers);
                        }
                    }).build());
                });
            });
            assertEquals(List.of(1, 11, 21, 31, 41, 51, 61, 71, 81, 91), result.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void afterReceiveReturnsSenderAndReplyReferToTheMessageJustReceived() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("reply-after").parallelism(2).build()) {
            // the README's greeter: sequential code that replies after receive has returned
            ActorRef<Object> greeter = system.spawnThread("greeter", self -> {
                while (true) {
                    String name = self.receive(Receive.<Object, String>returning().match(String.class, s -> s).build());
                    self.reply("hello, " + name);
                }
            });
            assertEquals("hello, weft", system.<Object, String>ask(greeter, "weft", WAIT).get(30, TimeUnit.SECONDS));
            assertEquals("hello, loom", system.<Object, String>ask(greeter, "loom", WAIT).get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void threadActorsAskingBlockOnlyTheirOwnThreads() throws Exception {
        // One pool worker: if a blocked ask held it, the gatherer could never run and answer.
        try (ActorSystem system = ActorSystem.builder().name("ask-blocks-self").parallelism(1).build()) {
            int askers = 50;
            ActorRef<Object> gatherer = system.spawn("gatherer", (ActorContext<Object> self) -> {
                List<ActorRef<?>> waiting = new ArrayList<>();
                self.loop(() -> self.react(Receive.<Object>handler().match(String.class, q -> {
                    waiting.add(self.sender());
                    if (waiting.size() == askers) { // answer only when every asker is blocked
                        for (ActorRef<?> r : waiting) {
                            @SuppressWarnings("unchecked")
                            ActorRef<Object> to = (ActorRef<Object>) r;
                            to.tell("all " + askers + " here");
                        }
                    }
                }).build()));
            });
            List<CompletableFuture<Object>> answers = new ArrayList<>();
            for (int i = 0; i < askers; i++) {
                CompletableFuture<Object> answer = new CompletableFuture<>();
                answers.add(answer);
                system.spawnThread("asker-" + i, self -> {
                    CompletableFuture<Object> f = self.ask(gatherer, "q", WAIT);
                    answer.complete(f.join());
                });
            }
            for (CompletableFuture<Object> a : answers) {
                assertEquals("all 50 here", a.get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void receiveInsideAReactHandlerIsRefusedWithAClearMessage() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("refuse").parallelism(2).build()) {
            CompletableFuture<String> inStart = new CompletableFuture<>();
            CompletableFuture<String> inHandler = new CompletableFuture<>();
            ActorRef<Object> a = system.spawn("reactor", (ActorContext<Object> self) -> {
                try {
                    self.receive(any());
                    inStart.complete("receive returned");
                } catch (IllegalStateException e) {
                    inStart.complete(e.getMessage());
                }
                self.react(Receive.<Object>handler().matchAny(m -> {
                    try {
                        self.receiveWithin(Duration.ZERO, any());
                        inHandler.complete("receive returned");
                    } catch (IllegalStateException e) {
                        inHandler.complete(e.getMessage());
                    }
                }).build());
            });
            a.tell("go");
            for (String m : List.of(inStart.get(30, TimeUnit.SECONDS), inHandler.get(30, TimeUnit.SECONDS))) {
                assertTrue(m.contains("inside a react handler"), m);
                assertTrue(m.contains("react(handler)") && m.contains("switchToThread"), m);
            }
            // and a pool worker may not adopt itself as an actor either
            CompletableFuture<String> adopt = new CompletableFuture<>();
            system.spawn("adopter", (ActorContext<Object> self) -> {
                try {
                    Actors.self(system);
                    adopt.complete("adopted");
                } catch (IllegalStateException e) {
                    adopt.complete(e.getMessage());
                }
            });
            assertTrue(adopt.get(30, TimeUnit.SECONDS).contains("inside a react handler"));
        }
    }

    @Test
    void stoppingABlockedThreadActorWakesItRunsItsCleanupAndDeadLettersItsMail() throws Exception {
        ActorSystem system = ActorSystem.builder().name("stop-blocked").parallelism(2).build();
        List<DeadLetter> dead = Collections.synchronizedList(new ArrayList<>());
        system.deadLetters().subscribe(dead::add);
        CountDownLatch blocking = new CountDownLatch(1);
        CompletableFuture<String> woke = new CompletableFuture<>();
        CountDownLatch cleanedUp = new CountDownLatch(1);
        ActorRef<Object> blocked = system.spawnThread("blocked", self -> {
            self.self().tell(1);
            self.self().tell(2);
            try {
                blocking.countDown();
                self.receive(Receive.<Object, Object>returning().match(String.class, "never"::equals, s -> s).build());
                woke.complete("received");
            } catch (ActorStoppedException e) {
                woke.complete(e.getMessage());
                throw e;
            } finally {
                cleanedUp.countDown();
            }
        });
        assertTrue(blocking.await(30, TimeUnit.SECONDS));
        blocked.tell("a");
        blocked.tell("b");
        system.close();
        assertTrue(woke.get(30, TimeUnit.SECONDS).contains("stopped while in receive"));
        assertTrue(cleanedUp.await(30, TimeUnit.SECONDS));
        assertTrue(blocked.isTerminated());
        List<Object> mail = new ArrayList<>();
        synchronized (dead) {
            for (DeadLetter d : dead) {
                if (d.recipient().equals(blocked)) {
                    mail.add(d.message());
                    assertEquals(DeadLetter.Reason.SYSTEM_CLOSED, d.reason());
                }
            }
        }
        // every message exactly once; not in one order: a message that receive was trying when the
        // stop came is declined while stopping and goes to dead letters before the stash and queue
        // are drained (CellLifecycle design block)
        assertEquals(4, mail.size(), mail::toString);
        assertEquals(java.util.Set.of(1, 2, "a", "b"), new java.util.HashSet<>(mail));
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void anAdoptedThreadsActorIsCreatedLazilyAndReleasedWhenTheThreadEnds(boolean virtual) throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("adopted-ends").parallelism(2).build()) {
            List<DeadLetter> dead = Collections.synchronizedList(new ArrayList<>());
            system.deadLetters().subscribe(dead::add);
            AtomicReference<ActorRef<Object>> ref = new AtomicReference<>();
            CountDownLatch stopped = new CountDownLatch(1);
            system.lifecycle().subscribe(e -> {
                if (e.kind() == LifecycleEvent.Kind.STOPPED && e.actor().equals(ref.get())) {
                    stopped.countDown();
                }
            });
            long before = system.actorCount();
            CountDownLatch adopted = new CountDownLatch(1);
            CountDownLatch mayEnd = new CountDownLatch(1);
            Runnable body = () -> {
                ActorContext<Object> self = Actors.self(system);
                assertTrue(self == Actors.self(system), "one actor per thread");
                ref.set(self.self());
                self.self().tell("one");
                self.self().tell("two");
                assertEquals("one", self.receive(any()));
                adopted.countDown();
                try {
                    mayEnd.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                // ends without Actors.release(): "two" is left in the mailbox
            };
            Thread t = virtual ? Thread.ofVirtual().start(body) : Thread.ofPlatform().start(body);
            assertTrue(adopted.await(30, TimeUnit.SECONDS));
            assertEquals(before + 1, system.actorCount(), "the mailbox exists while the thread lives");
            ref.get().tell("three");
            mayEnd.countDown();
            t.join(30_000);
            assertTrue(stopped.await(30, TimeUnit.SECONDS), "the actor of an ended thread is finished");
            assertTrue(ref.get().isTerminated());
            // STOPPED is published just before the table slot is freed
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (system.actorCount() != before && System.nanoTime() < deadline) {
                Thread.yield();
            }
            assertEquals(before, system.actorCount());
            ref.get().tell("four");
            List<Object> mail = new ArrayList<>();
            synchronized (dead) {
                for (DeadLetter d : dead) {
                    if (d.recipient().equals(ref.get())) {
                        mail.add(d.message());
                    }
                }
            }
            assertEquals(List.of("two", "three", "four"), mail);
        }
    }

    @Test
    void closingTheSystemReleasesTheCallersOwnActor() throws Exception {
        ActorSystem system = ActorSystem.builder().name("close-self").parallelism(2).build();
        List<DeadLetter> dead = Collections.synchronizedList(new ArrayList<>());
        system.deadLetters().subscribe(dead::add);
        ActorContext<Object> self = Actors.self(system);
        self.self().tell("left");
        system.close();
        assertTrue(self.self().isTerminated());
        assertEquals(0, system.actorCount());
        synchronized (dead) {
            assertEquals(1, dead.size());
            assertEquals("left", dead.get(0).message());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> Actors.self(system));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        Actors.release();
    }
}
