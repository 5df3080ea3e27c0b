package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.ReceiveTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Blocking receive, the same contract wherever the receiving actor lives: a spawned thread-based
 * actor on a virtual thread or a dedicated platform thread, or an adopted thread (the test's own
 * thread, a new platform thread, a new virtual thread) through {@link Actors#self(ActorSystem)}.
 */
class ThreadActorContractTest {

    enum Where {
        SPAWNED_VIRTUAL, SPAWNED_PLATFORM, TEST_THREAD, ADOPTED_PLATFORM, ADOPTED_VIRTUAL
    }

    private static final Duration WAIT = Duration.ofSeconds(30);

    private ActorSystem system;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("contract").parallelism(2).build();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    /** Runs {@code body} as the receiving actor at {@code where} and returns its result. */
    private <T> T run(Where where, Function<ActorContext<Object>, T> body) throws Exception {
        CompletableFuture<T> result = new CompletableFuture<>();
        Runnable adopted = () -> {
            try {
                result.complete(body.apply(Actors.self(system)));
            } catch (Throwable t) {
                result.completeExceptionally(t);
            } finally {
                Actors.release();
            }
        };
        switch (where) {
            case SPAWNED_VIRTUAL, SPAWNED_PLATFORM -> {
                Props props = where == Where.SPAWNED_VIRTUAL ? Props.defaults()
                        : Props.defaults().withScheduler(system.schedulers().dedicatedThread());
                system.spawnThread(props, (ActorContext<Object> self) -> {
                    try {
                        result.complete(body.apply(self));
                    } catch (Throwable t) {
                        result.completeExceptionally(t);
                    }
                });
            }
            case TEST_THREAD -> adopted.run();
            case ADOPTED_PLATFORM -> Thread.ofPlatform().start(adopted);
            case ADOPTED_VIRTUAL -> Thread.ofVirtual().start(adopted);
            default -> throw new AssertionError(where);
        }
        try {
            return result.get(WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof Exception cause) {
                throw cause;
            }
            throw e;
        }
    }

    private static Receive<Object, Object> any() {
        return Receive.<Object, Object>returning().matchAny(m -> m).build();
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void receiveTakesTheFirstMatchInMailboxOrderAndKeepsTheRest(Where where) throws Exception {
        List<Object> got = run(where, self -> {
            for (Object m : new Object[] {"a1", 1, "a2", 2, "b", 3}) {
                self.self().tell(m);
            }
            List<Object> out = new ArrayList<>();
            Receive<Object, Object> ints = Receive.<Object, Object>returning().match(Integer.class, i -> i).build();
            Receive<Object, Object> strings = Receive.<Object, Object>returning().match(String.class, s -> s).build();
            Receive<Object, Object> onlyB = Receive.<Object, Object>returning().match(String.class, "b"::equals, s -> s).build();
            out.add(self.receive(ints));    // 1: skips "a1"
            out.add(self.receive(onlyB));   // "b": out of order, skipping "a1", "a2", 2
            out.add(self.receive(strings)); // "a1": the skipped messages kept their order
            out.add(self.receive(ints));    // 2
            out.add(self.receive(any()));   // "a2"
            out.add(self.receive(any()));   // 3
            return out;
        });
        assertEquals(List.of(1, "b", "a1", 2, "a2", 3), got);
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void receiveWaitsForMailFromOtherThreadsAndSeesTheSender(Where where) throws Exception {
        ActorRef<String> echo = system.spawn("echo", self -> self.loop(() -> self.react(Receive.<String>handler()
                .match(String.class, s -> {
                    @SuppressWarnings("unchecked")
                    ActorRef<Object> to = (ActorRef<Object>) self.sender();
                    to.tell("echo:" + s, self.self()); // a reply that names its sender
                }).build())));
        List<Object> got = run(where, self -> {
            List<Object> out = new ArrayList<>();
            for (int i = 0; i < 100; i++) {
                echo.tell("m" + i, self.self());
                out.add(self.receive(Receive.<Object, Object>returning()
                        .match(String.class, s -> s + " from " + (self.sender() == echo ? "echo" : self.sender())).build()));
            }
            return out;
        });
        assertEquals(100, got.size());
        for (int i = 0; i < 100; i++) {
            assertEquals("echo:m" + i + " from echo", got.get(i));
        }
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void receiveWithinTimesOutWithAndWithoutTimeoutCase(Where where) throws Exception {
        List<Object> got = run(where, self -> {
            List<Object> out = new ArrayList<>();
            self.self().tell(42); // never matched by the string handlers below
            Receive<Object, Object> strings = Receive.<Object, Object>returning()
                    .match(String.class, s -> s).onTimeout(() -> "timeout").build();
            out.add(self.receiveWithin(Duration.ofMillis(20), strings));
            ReceiveTimeoutException e = assertThrows(ReceiveTimeoutException.class, () -> self.receiveWithin(Duration.ofMillis(20),
                    Receive.<Object, Object>returning().match(String.class, s -> s).build()));
            out.add(e.getMessage().contains("onTimeout"));
            // a message that arrives before the deadline is received
            self.self().tell("late");
            out.add(self.receiveWithin(Duration.ofSeconds(30), strings));
            // the skipped message is still there, in place
            out.add(self.receive(any()));
            return out;
        });
        assertEquals(List.of("timeout", true, "late", 42), got);
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void zeroTimeoutPolls(Where where) throws Exception {
        List<Object> got = run(where, self -> {
            List<Object> out = new ArrayList<>();
            Receive<Object, Object> poll = Receive.<Object, Object>returning().matchAny(m -> m).onTimeout(() -> "empty").build();
            out.add(self.receiveWithin(Duration.ZERO, poll));
            self.self().tell("x");
            self.self().tell("y");
            out.add(self.receiveWithin(Duration.ZERO, poll));
            out.add(self.receiveWithin(Duration.ZERO, Receive.<Object, Object>returning()
                    .match(String.class, "z"::equals, s -> s).onTimeout(() -> "no z").build()));
            out.add(self.receiveWithin(Duration.ZERO, poll));
            out.add(self.receiveWithin(Duration.ZERO, poll));
            assertThrows(ReceiveTimeoutException.class, () -> self.receiveWithin(Duration.ZERO, any()));
            return out;
        });
        assertEquals(List.of("empty", "x", "no z", "y", "empty"), got);
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void askFromAThreadActorBlocksItsThreadUntilTheReactActorReplies(Where where) throws Exception {
        ActorRef<Integer> doubler = system.spawn("doubler", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, i -> self.reply(i * 2)).build())));
        int sum = run(where, self -> {
            int s = 0;
            for (int i = 1; i <= 50; i++) {
                CompletableFuture<Integer> f = self.ask(doubler, i, WAIT);
                s += f.join();
            }
            return s;
        });
        assertEquals(2 * (50 * 51 / 2), sum);
    }

    @ParameterizedTest
    @EnumSource(Where.class)
    void badInputIsRefused(Where where) throws Exception {
        List<String> messages = run(where, self -> {
            List<String> out = new ArrayList<>();
            out.add(assertThrows(NullPointerException.class, () -> self.receive(null)).getMessage());
            out.add(assertThrows(NullPointerException.class, () -> self.receiveWithin(null, any())).getMessage());
            out.add(assertThrows(NullPointerException.class, () -> self.receiveWithin(Duration.ZERO, null)).getMessage());
            out.add(assertThrows(IllegalArgumentException.class, () -> self.receiveWithin(Duration.ofMillis(-1), any())).getMessage());
            // another thread may not receive on this actor's mailbox
            CompletableFuture<String> foreign = new CompletableFuture<>();
            Thread.ofVirtual().start(() -> {
                try {
                    self.receive(any());
                    foreign.complete("received");
                } catch (IllegalStateException e) {
                    foreign.complete(e.getMessage());
                }
            });
            out.add(foreign.join());
            return out;
        });
        assertEquals("handler", messages.get(0));
        assertEquals("timeout", messages.get(1));
        assertEquals("handler", messages.get(2));
        assertTrue(messages.get(3).startsWith("timeout"), messages.get(3));
        assertTrue(messages.get(4).contains("not the actor's own thread"), messages.get(4));
    }
}
