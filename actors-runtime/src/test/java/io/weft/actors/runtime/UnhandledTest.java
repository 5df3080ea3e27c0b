package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Unhandled;
import io.weft.actors.runtime.internal.system.WeftSystem;
import io.weft.actors.runtime.testing.Conditions;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Messages no handler matches: kept in order, counted, bounded, warned about, or dead-lettered (Pekko mode). */
class UnhandledTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(60);

    private ActorSystem system;
    private final List<DeadLetter> dead = new CopyOnWriteArrayList<>();
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("unhandled").parallelism(2).build();
        system.deadLetters().subscribe(dead::add);
        ((WeftSystem) system).warningListener(warnings::add);
    }

    @AfterEach
    void stop() {
        system.close();
    }

    /** Handles Integers only (answering an ask with the count so far); Strings are kept. */
    private ActorRef<Object> integersOnly(Props props) {
        return system.spawn(props, (ActorContext<Object> self) -> {
            int[] seen = {0};
            self.become(Receive.handler().match(Integer.class, i -> {
                seen[0]++;
                if (self.sender() != null) {
                    self.reply(seen[0]);
                }
            }).build());
        });
    }

    /** Every message told before it has been taken from the mailbox once the ask returns. */
    private void sync(ActorRef<Object> a) throws Exception {
        system.<Object, Integer>ask(a, 0, TIMEOUT).get(60, TimeUnit.SECONDS);
    }

    private List<Object> unhandledTo(ActorRef<?> a) {
        return dead.stream().filter(l -> l.reason() == DeadLetter.Reason.UNHANDLED && a.equals(l.recipient()))
                .map(DeadLetter::message).toList();
    }

    @Test
    void keptMessagesCountInMailboxDepthAndMetrics() throws Exception {
        ActorRef<Object> a = integersOnly(Props.defaults());
        for (int i = 0; i < 100; i++) {
            a.tell("s" + i);
        }
        sync(a);
        assertEquals(100, system.metrics().mailboxDepth(a));
        assertEquals(100, system.metrics().keptMessages());
        assertEquals(0, system.metrics().unhandledMessages());
        Probes.Lifecycle life = Probes.Lifecycle.of(system);
        system.stop(a); // the stop sends the kept messages to dead letters, as the stopped reason
        life.stopped(a).get(60, TimeUnit.SECONDS);
        assertEquals(0, system.metrics().keptMessages());
        assertEquals(100, system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED));
    }

    @Test
    void beyondTheBoundTheOldestKeptGoToDeadLettersAsUnhandled() throws Exception {
        ActorRef<Object> a = integersOnly(Props.defaults().withMaxKept(10));
        for (int i = 0; i < 15; i++) {
            a.tell("s" + i);
        }
        sync(a);
        assertEquals(List.of("s0", "s1", "s2", "s3", "s4"), unhandledTo(a));
        assertEquals(5, system.deadLetters().count(DeadLetter.Reason.UNHANDLED));
        assertEquals(5, system.metrics().unhandledMessages());
        assertEquals(10, system.metrics().mailboxDepth(a));
        assertEquals(10, system.metrics().keptMessages());
    }

    @Test
    void theSystemDefaultBoundAppliesToActorsWithoutTheirOwn() throws Exception {
        system.close();
        system = ActorSystem.builder().name("unhandled-default").maxKept(3).build();
        system.deadLetters().subscribe(dead::add);
        ActorRef<Object> a = integersOnly(Props.defaults());
        for (int i = 0; i < 5; i++) {
            a.tell("s" + i);
        }
        sync(a);
        assertEquals(List.of("s0", "s1"), unhandledTo(a));
        assertEquals(3, system.metrics().mailboxDepth(a));
    }

    @Test
    void aWarningNamesTheActorOnceWhenItsKeptCountFirstReachesTheThreshold() throws Exception {
        ActorRef<Object> a = integersOnly(Props.defaults().withMaxKept(100)); // threshold: a tenth, 10
        for (int i = 0; i < 50; i++) {
            a.tell("s" + i);
        }
        sync(a);
        // logged on another thread: awaited, not read at once
        Conditions.await(TIMEOUT, () -> warnings.stream().anyMatch(w -> w.contains(a.toString())), () -> "a warning naming " + a + ": " + warnings);
        List<String> mine = warnings.stream().filter(w -> w.contains(a.toString())).toList();
        assertEquals(1, mine.size(), warnings.toString());
        assertTrue(mine.get(0).contains("keeps 10 messages") && mine.get(0).contains("java.lang.String"), mine.get(0));
    }

    @Test
    void theKeptWarningIsBuiltAndLoggedOffTheActorsThread() throws Exception {
        // the receive that reaches the threshold does not build the text or call the logger
        // (CellStash K4): the listener runs where the warning is logged, on no actor's thread
        List<Boolean> onAnActor = new CopyOnWriteArrayList<>();
        ((WeftSystem) system).warningListener(w -> {
            onAnActor.add(WeftSystem.current() != null);
            warnings.add(w);
        });
        ActorRef<Object> a = integersOnly(Props.defaults().withMaxKept(100));
        for (int i = 0; i < 10; i++) {
            a.tell("s" + i);
        }
        sync(a);
        Conditions.await(TIMEOUT, () -> !warnings.isEmpty(), "the kept warning");
        assertTrue(warnings.get(0).contains(a.toString()) && warnings.get(0).contains("keeps 10 messages"), warnings.get(0));
        assertEquals(List.of(false), onAnActor, "logged on an actor's thread: " + warnings);
    }

    @Test
    void pekkoModeSendsUnmatchedMessagesToDeadLettersAtOnce() throws Exception {
        ActorRef<Object> a = integersOnly(Props.defaults().withUnhandledToDeadLetters());
        a.tell("x");
        a.tell("y");
        sync(a);
        assertEquals(List.of("x", "y"), unhandledTo(a));
        assertEquals(0, system.metrics().mailboxDepth(a));
        assertEquals(0, system.metrics().keptMessages());
        assertEquals(2, system.metrics().unhandledMessages());
    }

    @Test
    void switchingToPekkoModeFromTheContextDeadLettersWhatIsKept() throws Exception {
        ActorRef<Object> a = system.spawn((ActorContext<Object> self) -> self.become(Receive.handler()
                .match(Integer.class, i -> {
                    self.unhandled(Unhandled.deadLetter());
                    self.reply(i);
                }).build()));
        a.tell("k1");
        a.tell("k2");
        sync(a);
        a.tell("later");
        sync(a);
        assertEquals(List.of("k1", "k2", "later"), unhandledTo(a));
        assertEquals(0, system.metrics().mailboxDepth(a));
    }

    @Test
    void anInvalidBoundIsRejectedWithAClearMessage() {
        for (int bad : new int[] {0, -1}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Props.named("p").withMaxKept(bad));
            assertTrue(e.getMessage().contains("maxKept: must be at least 1, was " + bad), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> ActorSystem.builder().maxKept(bad));
            assertTrue(e.getMessage().contains("maxKept") && e.getMessage().contains("deadLetter()"), e.getMessage());
        }
    }

    @Test
    void keptMessagesReachALaterHandlerInArrivalOrder() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        ActorRef<Object> a = system.spawn((ActorContext<Object> self) -> self.become(Receive.handler()
                .match(Integer.class, i -> self.become(Receive.handler().match(String.class, s -> {
                    got.add(s);
                    if (got.size() == 4) {
                        done.complete(null);
                    }
                }).build())).build()));
        a.tell("a");
        a.tell("b");
        a.tell("c");
        a.tell(1); // switches to a handler of Strings: the kept ones come first, in order
        a.tell("d");
        done.get(60, TimeUnit.SECONDS);
        assertEquals(List.of("a", "b", "c", "d"), got);
        assertEquals(0, system.metrics().keptMessages());
    }

    @Test
    void aGuardedHandlerIsOfferedKeptMessagesAgainAfterItsStateChanged() throws Exception {
        List<String> got = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        ActorRef<Object> a = system.spawn((ActorContext<Object> self) -> {
            boolean[] open = {false};
            self.become(Receive.handler()
                    .match(String.class, s -> open[0], s -> {
                        got.add(s);
                        if (got.size() == 2) {
                            done.complete(null);
                        }
                    })
                    .match(Integer.class, i -> open[0] = true)
                    .build());
        });
        a.tell("a");
        a.tell("b");
        a.tell(1); // same handler object; its guard now holds for the kept Strings
        done.get(60, TimeUnit.SECONDS);
        assertEquals(List.of("a", "b"), got);
    }

    @Test
    void aThreadBasedActorKeepsAndBoundsTheSameWay() throws Exception {
        Props props = Props.defaults().withScheduler(system.schedulers().dedicatedThread()).withMaxKept(4);
        ActorRef<Object> a = system.spawnThread(props, (ActorContext<Object> self) -> {
            for (;;) {
                Integer i = self.receive(Receive.<Object, Integer>returning().match(Integer.class, n -> n).build());
                self.reply(i);
            }
        });
        for (int i = 0; i < 6; i++) {
            a.tell("t" + i);
        }
        sync(a);
        assertEquals(List.of("t0", "t1"), unhandledTo(a));
        assertEquals(4, system.metrics().mailboxDepth(a));
    }
}
