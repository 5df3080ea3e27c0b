package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorStoppedException;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Receive;
import io.weft.actors.runtime.internal.system.WeftSystem;
import io.weft.actors.runtime.testing.Conditions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** reply() without a sender is a dead letter, not a failure; ask to a stopped actor fails at once. */
class ReplyAndAskToStoppedTest {

    private static final Duration LONG = Duration.ofMinutes(10);

    private ActorSystem system;
    private final List<DeadLetter> dead = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("reply-ask").parallelism(2).build();
        system.deadLetters().subscribe(dead::add);
        ((WeftSystem) system).warningListener(warnings::add);
    }

    @AfterEach
    void stop() {
        system.close();
    }

    @Test
    void replyWithoutSenderIsADeadLetterAndTheActorGoesOn() throws Exception {
        // replies to every message; "ping" is told without a sender
        ActorRef<String> a = system.spawn(self -> self.loop(() -> self.react(Receive.<String>handler()
                .match(String.class, s -> self.reply("re: " + s))
                .build())));
        a.tell("ping");
        // the actor is still alive and answers the next request
        String answer = system.<String, String>ask(a, "second", LONG).get(30, TimeUnit.SECONDS);
        assertEquals("re: second", answer);
        DeadLetter letter = dead.stream().filter(l -> l.reason() == DeadLetter.Reason.NO_SENDER).findFirst().orElseThrow();
        assertEquals("re: ping", letter.message());
        assertEquals(a, letter.sender());
        assertEquals(1, system.deadLetters().count(DeadLetter.Reason.NO_SENDER));
        // logged on another thread: awaited, not read at once
        Conditions.await(Conditions.LONG, () -> !warnings.isEmpty(), "the NO_SENDER warning");
        assertEquals(1, warnings.size(), warnings.toString());
        assertTrue(warnings.get(0).contains(a.toString()) && warnings.get(0).contains("NO_SENDER"), warnings.get(0));
    }

    private ActorRef<String> stoppedActor() throws Exception {
        Probes.Lifecycle life = Probes.Lifecycle.of(system);
        ActorRef<String> a = system.spawn(self -> self.react(Receive.<String>handler().matchAny(m -> self.stop()).build()));
        a.tell("stop");
        life.stopped(a).get(30, TimeUnit.SECONDS);
        return a;
    }

    @Test
    void askToAStoppedActorFailsAtOnceNamingTheTarget() throws Exception {
        ActorRef<String> a = stoppedActor();
        CompletableFuture<String> reply = system.ask(a, "anyone?", LONG);
        ExecutionException e = assertThrows(ExecutionException.class, () -> reply.get(30, TimeUnit.SECONDS));
        assertInstanceOf(ActorStoppedException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains(a.toString()) && e.getCause().getMessage().contains("had stopped"),
                e.getCause().getMessage());
    }

    record Get(String key, ActorRef<Integer> replyTo) {
    }

    @Test
    void askWithToAStoppedActorFailsAtOnceNamingTheTarget() throws Exception {
        ActorRef<Object> a = system.spawn(self -> self.react(Receive.handler().matchAny(m -> self.stop()).build()));
        Probes.Lifecycle life = Probes.Lifecycle.of(system);
        a.tell("stop");
        life.stopped(a).get(30, TimeUnit.SECONDS);
        CompletableFuture<Integer> reply = system.askWith(a, replyTo -> new Get("k", replyTo), LONG);
        ExecutionException e = assertThrows(ExecutionException.class, () -> reply.get(30, TimeUnit.SECONDS));
        assertInstanceOf(ActorStoppedException.class, e.getCause());
        assertTrue(e.getCause().getMessage().contains(a.toString()), e.getCause().getMessage());
    }

    @Test
    void askToAnActorThatStopsWithTheRequestQueuedFailsAtOnce() throws Exception {
        CompletableFuture<Void> release = new CompletableFuture<>();
        CompletableFuture<Void> entered = new CompletableFuture<>();
        // handles one message, waits for the test, then stops: the ask's request is still queued
        ActorRef<String> a = system.spawn(self -> self.react(Receive.<String>handler().matchAny(m -> {
            entered.complete(null);
            release.join();
            self.stop();
        }).build()));
        a.tell("first");
        entered.get(30, TimeUnit.SECONDS);
        CompletableFuture<String> reply = system.ask(a, "queued", LONG);
        release.complete(null);
        ExecutionException e = assertThrows(ExecutionException.class, () -> reply.get(30, TimeUnit.SECONDS));
        assertInstanceOf(ActorStoppedException.class, e.getCause());
    }
}
