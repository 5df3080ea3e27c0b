package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.AskTimeoutException;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Bad input (reliability suite): each is refused with a message naming what is wrong, and no message is lost. */
class MisuseTest {

    private ActorSystem system;
    private final ConcurrentLinkedQueue<DeadLetter> dead = new ConcurrentLinkedQueue<>();
    private final CompletableFuture<LifecycleEvent> firstFailure = new CompletableFuture<>();

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("bad-input").parallelism(1).build();
        system.deadLetters().subscribe(dead::add);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.FAILED) {
                firstFailure.complete(e);
            }
        });
    }

    @AfterEach
    void stop() {
        system.close();
    }

    private ActorRef<Object> echo() {
        return system.spawn(self -> self.loop(() -> self.react(Receive.handler().matchAny(m -> {
            if (self.sender() != null) {
                self.reply(m);
            }
        }).build())));
    }

    private static void assertMessage(Throwable t, String... parts) {
        for (String p : parts) {
            assertTrue(String.valueOf(t.getMessage()).contains(p), () -> "message \"" + t.getMessage() + "\" should mention " + p);
        }
    }

    @Test
    void aSchedulerThatRefusesAnActorStopsItAsAVisibleFailure() throws Exception {
        IllegalStateException refusal = new IllegalStateException("refused by a broken policy");
        Scheduler refusing = new Scheduler() {
            @Override
            public void initSchedule(Frame frame) {
                frame.schedulerState(SchedulerState.batches(50));
            }

            @Override
            public void schedule(Frame frame) {
                throw refusal;
            }

            @Override
            public Queue<EventQueue> newPendingQueue() {
                return new ConcurrentLinkedQueue<>();
            }
        };
        ActorRef<String> refused = system.spawn(Props.defaults().withScheduler(refusing), self -> self.loop(() ->
                self.react(Receive.<String>handler().match(String.class, s -> { }).build())));
        LifecycleEvent failure = firstFailure.get(60, TimeUnit.SECONDS);
        assertEquals(refused, failure.actor());
        assertEquals(refusal, failure.cause());
        // the actor is stopped; what is sent to it still arrives somewhere: dead letters
        CompletableFuture<DeadLetter> late = new CompletableFuture<>();
        system.deadLetters().subscribe(d -> {
            if ("late".equals(d.message())) {
                late.complete(d);
            }
        });
        refused.tell("late");
        assertEquals(refused, late.get(60, TimeUnit.SECONDS).recipient());
    }

    @Test
    void nullArgumentsAreNamed() {
        ActorRef<Object> ref = echo();
        assertMessage(assertThrows(NullPointerException.class, () -> ref.tell(null)), "message");
        assertMessage(assertThrows(NullPointerException.class, () -> ref.tell(null, ref)), "message");
        assertMessage(assertThrows(NullPointerException.class, () -> system.spawn((Props) null, self -> { })), "props");
        assertMessage(assertThrows(NullPointerException.class, () -> system.spawn(Props.defaults(), (Behavior<Object>) null)), "behavior");
        assertMessage(assertThrows(NullPointerException.class, () -> system.ask(null, "x", Duration.ofSeconds(1))), "target");
        assertMessage(assertThrows(NullPointerException.class, () -> system.ask(ref, null, Duration.ofSeconds(1))), "message");
        assertMessage(assertThrows(NullPointerException.class, () -> system.lookup(null)), "name");
        assertMessage(assertThrows(NullPointerException.class, () -> system.deadLetters().subscribe((java.util.function.Consumer<DeadLetter>) null)), "listener");
        CompletableFuture<Throwable> inHandler = new CompletableFuture<>();
        ActorRef<String> a = system.spawn(self -> self.react(Receive.<String>handler().match(String.class, s -> {
            try {
                self.react(null);
            } catch (NullPointerException e) {
                inHandler.complete(e);
                self.react(Receive.<String>handler().matchAny(x -> { }).build());
            }
        }).build()));
        a.tell("go");
        assertMessage(inHandler.join(), "handler");
        assertTrue(dead.isEmpty());
    }

    @Test
    void unknownNamesAndMalformedAddresses() {
        assertTrue(system.lookup("nobody").isEmpty());
        assertMessage(assertThrows(IllegalArgumentException.class, () -> system.resolve("nobody")), "malformed actor address", "nobody");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> system.resolve("weft://other/x#1")), "another system");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> system.resolve("weft://bad-input/x#abc")), "malformed actor id");
        ActorRef<Object> ghost = system.resolve("weft://bad-input/ghost#999");
        assertTrue(ghost.isTerminated());
        ghost.tell("boo");
        assertEquals(1, dead.size());
        assertEquals(DeadLetter.Reason.RECIPIENT_STOPPED, dead.peek().reason());
    }

    @Test
    void invalidSettingsAreNamed() {
        assertMessage(assertThrows(IllegalArgumentException.class, () -> ActorSystem.builder().parallelism(0)), "parallelism", "0");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> ActorSystem.builder().batchSize(-1)), "batchSize", "-1");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> ActorSystem.builder().name("a/b").build()), "name", "a/b");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Mailbox.bounded(0, Mailbox.Overflow.DROP_NEW)), "capacity", "0");
        assertMessage(assertThrows(NullPointerException.class, () -> Mailbox.bounded(1, null)), "overflow");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> Props.named("x#y")), "x#y");
        assertMessage(assertThrows(IllegalArgumentException.class, () -> system.ask(echo(), "x", Duration.ZERO)), "timeout", "positive");
        system.spawn("taken", self -> self.react(Receive.handler().matchAny(m -> { }).build()));
        assertMessage(assertThrows(IllegalArgumentException.class, () -> system.spawn("taken", self -> { })), "taken", "already taken");
    }

    @Test
    void askWithNoReplyTimesOutWithAClearMessage() {
        ActorRef<String> silent = system.spawn(self -> self.loop(() -> self.react(Receive.<String>handler().matchAny(m -> { }).build())));
        CompletableFuture<Object> f = system.ask(silent, "anyone?", Duration.ofMillis(50));
        ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(60, TimeUnit.SECONDS));
        assertInstanceOf(AskTimeoutException.class, e.getCause());
        assertMessage(e.getCause(), "timed out", silent.toString(), "java.lang.String");
    }

    @Test
    void receiveOutsideTheActorOrInsideAReactHandlerIsRefused() throws Exception {
        CompletableFuture<ActorContext<String>> ctx = new CompletableFuture<>();
        CompletableFuture<Throwable> inside = new CompletableFuture<>();
        ActorRef<String> a = system.spawn(self -> {
            ctx.complete(self);
            self.loop(() -> self.react(Receive.<String>handler().matchAny(m -> {
                try {
                    self.receive(Receive.<String, Object>returning().matchAny(x -> x).build());
                } catch (IllegalStateException e) {
                    inside.complete(e);
                }
            }).build()));
        });
        ActorContext<String> c = ctx.get(60, TimeUnit.SECONDS);
        IllegalStateException outside = assertThrows(IllegalStateException.class,
                () -> c.receive(Receive.<String, Object>returning().matchAny(x -> x).build()));
        assertMessage(outside, "not the actor's own thread");
        a.tell("x");
        assertMessage(inside.get(60, TimeUnit.SECONDS), "inside a react handler", "switchToThread");
        assertFalse(a.isTerminated());
    }

    @Test
    void spawningOrAskingAfterCloseIsRefusedAndTellIsADeadLetter() {
        ActorRef<Object> ref = echo();
        system.close();
        assertMessage(assertThrows(IllegalStateException.class, () -> system.spawn(self -> { })), "cannot spawn", "closed");
        ref.tell("late");
        assertEquals(DeadLetter.Reason.SYSTEM_CLOSED, dead.peek().reason());
        assertEquals("late", dead.peek().message());
        ExecutionException e = assertThrows(ExecutionException.class, () -> system.ask(ref, "q", Duration.ofSeconds(1)).get(60, TimeUnit.SECONDS));
        assertMessage(e.getCause(), "closed");
    }

    private static int depth;

    private static void recurse() {
        depth++;
        recurse();
    }

    @Test
    void stackOverflowFailsTheActorButTheWorkerSurvives() throws Exception {
        ActorRef<String> deep = system.spawn(self -> self.react(Receive.<String>handler().matchAny(m -> recurse()).build()));
        deep.tell("down");
        deep.tell("queued behind the failure");
        LifecycleEvent failed = firstFailure.get(60, TimeUnit.SECONDS);
        assertEquals(deep, failed.actor());
        assertInstanceOf(StackOverflowError.class, failed.cause());
        // the one worker (parallelism 1) still runs other actors
        assertEquals("still alive", system.<Object, Object>ask(echo(), "still alive", Duration.ofSeconds(60)).get(60, TimeUnit.SECONDS));
        // the message queued behind the failure was not lost
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (dead.isEmpty() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
        assertEquals("queued behind the failure", dead.peek().message());
        assertTrue(deep.isTerminated());
    }
}
