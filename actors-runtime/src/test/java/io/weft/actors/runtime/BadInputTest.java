package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Channel;
import io.weft.actors.DeadLetter;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

/** Wrong arguments and misuse are refused with clear messages; nothing is silently lost. */
class BadInputTest {

    private static ActorSystem newSystem(String name) {
        return ActorSystem.builder().name(name).parallelism(2).build();
    }

    private static ActorRef<Object> echo(ActorSystem system, String name) {
        return system.spawn(name, self -> self.loop(() -> self.react(Receive.<Object>handler()
                .matchAny(self::reply)
                .build())));
    }

    @Test
    void tellNullThrowsNamingTheArgument() {
        try (ActorSystem system = newSystem("nulls")) {
            ActorRef<Object> ref = echo(system, "echo");
            NullPointerException e = assertThrows(NullPointerException.class, () -> ref.tell(null));
            assertEquals("message", e.getMessage());
            e = assertThrows(NullPointerException.class, () -> ref.tell(null, ref));
            assertEquals("message", e.getMessage());
            e = assertThrows(NullPointerException.class, () -> system.ask(ref, null, Duration.ofSeconds(1)));
            assertEquals("message", e.getMessage());
            assertEquals(0, system.deadLetters().count(), "a refused null is not a dead letter either");
            assertEquals("ok", await(system.ask(ref, "ok", Duration.ofSeconds(30))), "the actor is unaffected");
        }
    }

    @Test
    void duplicateNameIsRefused() {
        try (ActorSystem system = newSystem("names")) {
            ActorRef<Object> first = echo(system, "orders");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> echo(system, "orders"));
            assertTrue(e.getMessage().contains("\"orders\"") && e.getMessage().contains("already taken"), e.getMessage());
            assertEquals(first, system.lookup("orders").orElseThrow(), "the first actor keeps the name");
            assertEquals(1, system.actorCount(), "the refused actor was not registered");
            assertEquals("still", await(system.ask(first, "still", Duration.ofSeconds(30))));
        }
    }

    @Test
    void askWithNonPositiveTimeoutIsRefused() {
        try (ActorSystem system = newSystem("asks")) {
            ActorRef<Object> ref = echo(system, "echo");
            for (Duration bad : List.of(Duration.ZERO, Duration.ofMillis(-1), Duration.ofSeconds(-5))) {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> system.ask(ref, "x", bad));
                assertTrue(e.getMessage().contains("timeout"), e.getMessage());
                e = assertThrows(IllegalArgumentException.class, () -> system.askWith(ref, r -> "x", bad));
                assertTrue(e.getMessage().contains("timeout"), e.getMessage());
            }
            assertEquals(0, system.deadLetters().count(), "a refused ask sends nothing");
        }
    }

    @Test
    void askTimesOutWithAClearException() {
        try (ActorSystem system = newSystem("asktimeout")) {
            ActorRef<Object> silent = system.spawn(self -> self.loop(() -> self.react(Receive.<Object>handler()
                    .matchAny(m -> { })
                    .build())));
            CompletableFuture<Object> f = system.ask(silent, "hello?", Duration.ofMillis(1));
            ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(Probes.TIMEOUT_SECONDS, java.util.concurrent.TimeUnit.SECONDS));
            assertInstanceOf(io.weft.actors.AskTimeoutException.class, e.getCause());
            assertTrue(e.getCause().getMessage().contains("timed out"), e.getCause().getMessage());
        }
    }

    @Test
    void sendingAfterCloseGoesToDeadLettersAndNeverThrows() {
        ActorSystem system = newSystem("closed");
        Probes.Dead dead = Probes.Dead.of(system);
        CompletableFuture<Channel<String>> opened = new CompletableFuture<>();
        ActorRef<Object> ref = system.spawn("target", (ActorContext<Object> self) -> {
            opened.complete(self.open(String.class));
            self.loop(() -> self.react(Receive.<Object>handler().matchAny(m -> { }).build()));
        });
        Channel<String> channel = await(opened);
        system.close();
        assertTrue(system.isClosed());
        long before = system.deadLetters().count();
        assertDoesNotThrow(() -> ref.tell("after close"));
        assertDoesNotThrow(() -> ref.tell("with sender", ref));
        assertDoesNotThrow(() -> channel.tell("on a channel"));
        assertEquals(before + 3, system.deadLetters().count());
        List<DeadLetter> last = dead.letters.subList(dead.letters.size() - 3, dead.letters.size());
        assertEquals(List.of("after close", "with sender", "on a channel"), last.stream().map(DeadLetter::message).toList());
        for (DeadLetter l : last) {
            assertEquals(DeadLetter.Reason.SYSTEM_CLOSED, l.reason());
            assertEquals(ref, l.recipient());
        }
        assertEquals(ref, last.get(1).sender());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> echo(system, "late"));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        CompletableFuture<Object> asked = system.ask(ref, "q", Duration.ofSeconds(1));
        assertTrue(asked.isCompletedExceptionally(), "an ask on a closed system fails at once");
        assertDoesNotThrow(system::close, "close is idempotent");
    }

    @Test
    void invalidSettingsAreRefusedNamingTheSetting() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ActorSystem.builder().batchSize(0));
        assertTrue(e.getMessage().startsWith("batchSize"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ActorSystem.builder().batchSize(-3));
        assertTrue(e.getMessage().startsWith("batchSize"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ActorSystem.builder().parallelism(0));
        assertTrue(e.getMessage().startsWith("parallelism"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ActorSystem.Settings("s", 0, 50));
        assertTrue(e.getMessage().startsWith("parallelism"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> new ActorSystem.Settings("s", 2, 0));
        assertTrue(e.getMessage().startsWith("batchSize"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ActorSystem.builder().name(" ").build());
        assertTrue(e.getMessage().startsWith("name"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Mailbox.bounded(0, Mailbox.Overflow.DROP_NEW));
        assertTrue(e.getMessage().contains("capacity"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Props.named("a/b"));
        assertTrue(e.getMessage().contains("a/b"), e.getMessage());
        try (ActorSystem system = newSystem("timer")) {
            e = assertThrows(IllegalArgumentException.class, () -> system.schedulers().timer(Duration.ZERO));
            assertTrue(e.getMessage().startsWith("period"), e.getMessage());
        }
    }

    @Test
    void selectiveReactKeepsUnmatchedMessagesInOrder() {
        try (ActorSystem system = newSystem("selective")) {
            CompletableFuture<List<Object>> result = new CompletableFuture<>();
            ActorRef<Object> ref = system.spawn(self -> {
                List<Object> log = new ArrayList<>();
                // first wait for the String only; the Integers before it stay, in order
                self.react(Receive.<Object>handler().match(String.class, s -> {
                    log.add(s);
                    self.loop(() -> self.react(Receive.<Object>handler()
                            .match(Integer.class, i -> i % 2 == 0, i -> log.add("even " + i))
                            .match(Integer.class, i -> {
                                log.add(i);
                                if (i == 5) {
                                    result.complete(log);
                                }
                            })
                            .build()));
                }).build());
            });
            for (int i = 1; i <= 4; i++) {
                ref.tell(i);
            }
            ref.tell("go");
            ref.tell(5);
            assertEquals(List.of("go", 1, "even 2", 3, "even 4", 5), await(result));
        }
    }

    @Test
    void selectiveReactTakesTheFirstMatchAndLeavesTheRest() {
        try (ActorSystem system = newSystem("selective2")) {
            CompletableFuture<List<Object>> result = new CompletableFuture<>();
            ActorRef<Object> ref = system.spawn(self -> {
                List<Object> log = new ArrayList<>();
                // take the Longs first, one per react, then everything else in arrival order
                self.andThen(
                        () -> self.loopWhile(() -> log.size() < 2, () -> self.react(Receive.<Object>handler()
                                .match(Long.class, log::add)
                                .build())),
                        () -> self.loop(() -> self.react(Receive.<Object>handler()
                                .matchAny(m -> {
                                    log.add(m);
                                    if (log.size() == 6) {
                                        result.complete(log);
                                    }
                                })
                                .build())));
            });
            ref.tell("a");
            ref.tell(1);
            ref.tell(10L);
            ref.tell("b");
            ref.tell(20L);
            ref.tell(2);
            assertEquals(List.of(10L, 20L, "a", 1, "b", 2), await(result));
        }
    }
}
