package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.ReceiveTimeoutException;
import io.weft.actors.runtime.ContractMatrix;
import io.weft.actors.runtime.ContractMatrix.Fixture;
import io.weft.actors.runtime.ContractMatrix.MailboxKind;
import io.weft.actors.runtime.ContractMatrix.Mode;
import io.weft.actors.runtime.ContractMatrix.SchedulerKind;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Blocking receive, the same contract wherever the receiving actor lives: a spawned thread-based
 * actor on a virtual thread or a dedicated platform thread, an event-based actor that switched to a
 * thread, each with every mailbox kind of {@code ContractMatrix#threadCross}, or an adopted thread
 * (the test's own thread, a new platform thread, a new virtual thread) through
 * {@link Actors#self(ActorSystem)}, whose mailbox is unbounded.
 */
class ThreadActorContractTest {

    enum Where {
        SPAWNED, SWITCHED, TEST_THREAD, ADOPTED_PLATFORM, ADOPTED_VIRTUAL
    }

    /**
     * Where the receiving actor lives.
     *
     * @param where spawned, switched or adopted
     * @param kind the scheduler of a spawned actor (the ForkJoin one for the others)
     * @param mailbox the mailbox of a spawned or switched actor
     */
    record Place(Where where, SchedulerKind kind, MailboxKind mailbox) {
        @Override
        public String toString() {
            return where == Where.SPAWNED || where == Where.SWITCHED ? where + "(" + kind + ", " + mailbox + ")" : where.toString();
        }
    }

    /** The spawned and switched places of {@code ContractMatrix#threadCross}, and the adopted threads. */
    static Stream<Place> places() {
        Stream<Place> spawned = ContractMatrix.threadCross().map(Arguments::get).map(a -> new Place(
                a[2] == Mode.SWITCH_TO_THREAD ? Where.SWITCHED : Where.SPAWNED, (SchedulerKind) a[0], (MailboxKind) a[1]));
        SchedulerKind forkJoin = ContractMatrix.schedulers().findFirst().orElseThrow();
        MailboxKind unbounded = ContractMatrix.ampleMailboxes().findFirst().orElseThrow();
        Stream<Place> adopted = Stream.of(Where.TEST_THREAD, Where.ADOPTED_PLATFORM, Where.ADOPTED_VIRTUAL)
                .map(w -> new Place(w, forkJoin, unbounded));
        return Stream.concat(spawned, adopted);
    }

    private static final Duration WAIT = Duration.ofSeconds(30);

    private Fixture fixture;
    private ActorSystem system;

    /** Opens the system (and the scheduler) of {@code place}. */
    private void open(Place place) {
        fixture = Fixture.open(place.kind(), "contract");
        system = fixture.system();
    }

    @AfterEach
    void stop() {
        if (fixture != null) {
            fixture.close();
        }
    }

    /** Runs {@code body} as the receiving actor at {@code place} and returns its result. */
    private <T> T run(Place place, Function<ActorContext<Object>, T> body) throws Exception {
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
        switch (place.where()) {
            case SPAWNED -> system.spawnThread(fixture.props("receiver", place.mailbox()), (ActorContext<Object> self) -> {
                try {
                    result.complete(body.apply(self));
                } catch (Throwable t) {
                    result.completeExceptionally(t);
                }
            });
            case SWITCHED -> system.spawn(fixture.props("receiver", place.mailbox()), (ActorContext<Object> self) ->
                    self.switchToThread(() -> {
                        try {
                            result.complete(body.apply(self));
                        } catch (Throwable t) {
                            result.completeExceptionally(t);
                        }
                    }));
            case TEST_THREAD -> adopted.run();
            case ADOPTED_PLATFORM -> Thread.ofPlatform().start(adopted);
            case ADOPTED_VIRTUAL -> Thread.ofVirtual().start(adopted);
            default -> throw new AssertionError(place);
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("places")
    void receiveTakesTheFirstMatchInMailboxOrderAndKeepsTheRest(Place place) throws Exception {
        open(place);
        List<Object> got = run(place, self -> {
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("places")
    void receiveWaitsForMailFromOtherThreadsAndSeesTheSender(Place place) throws Exception {
        open(place);
        ActorRef<String> echo = system.spawn("echo", self -> self.loop(() -> self.react(Receive.<String>handler()
                .match(String.class, s -> {
                    @SuppressWarnings("unchecked")
                    ActorRef<Object> to = (ActorRef<Object>) self.sender();
                    to.tell("echo:" + s, self.self()); // a reply that names its sender
                }).build())));
        List<Object> got = run(place, self -> {
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("places")
    void receiveWithinTimesOutWithAndWithoutTimeoutCase(Place place) throws Exception {
        open(place);
        List<Object> got = run(place, self -> {
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("places")
    void zeroTimeoutPolls(Place place) throws Exception {
        open(place);
        List<Object> got = run(place, self -> {
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

    @ParameterizedTest(name = "{0}")
    @MethodSource("places")
    void askFromAThreadActorBlocksItsThreadUntilTheReactActorReplies(Place place) throws Exception {
        open(place);
        ActorRef<Integer> doubler = system.spawn("doubler", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, i -> self.reply(i * 2)).build())));
        int sum = run(place, self -> {
            int s = 0;
            for (int i = 1; i <= 50; i++) {
                CompletableFuture<Integer> f = self.ask(doubler, i, WAIT);
                s += f.join();
            }
            return s;
        });
        assertEquals(2 * (50 * 51 / 2), sum);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("places")
    void badInputIsRefused(Place place) throws Exception {
        open(place);
        List<String> messages = run(place, self -> {
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
