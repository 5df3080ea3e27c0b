package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.PoolRouter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Routers;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.SystemMetrics;
import io.weft.actors.SupervisorStrategy.Directive;
import io.weft.actors.runtime.internal.system.WeftSystem;
import io.weft.actors.runtime.testing.Conditions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A pool keeps its size when its routee factory throws while it replaces a stopped routee: the
 * router does not fail, it warns (naming itself, the size it runs at and the cause), counts
 * ({@code SystemMetrics.routeeSpawnFailures}, each failed call of the factory) and retries on its
 * timer; after the retries it runs short until a routee stops or it restarts, and then tops up.
 * Messages told while it runs short reach the live routees; with none left they are dead letters
 * ({@code NO_ROUTEES}). A resizing pool whose factory throws when it grows keeps serving too, and
 * tops up at its next resize check under pressure. A retry spawns only what its round owes; stops
 * past the restart budget are each counted and warned once per window; an Error or an undeclared
 * checked exception from the factory fails the router with the routees spawned so far routed; a
 * spawn the closing system refuses is no failure of the factory.
 */
class RouterPoolSizeTest {

    private static final Duration WAIT = Conditions.LONG;
    /** Routed messages between two resize checks (Router.RESIZE_EVERY). */
    private static final int RESIZE_EVERY = 16;
    private ActorSystem system;
    private final List<String> warnings = new CopyOnWriteArrayList<>();

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("pool-size").parallelism(2).build();
        ((WeftSystem) system).warningListener(warnings::add);
    }

    @AfterEach
    void close() {
        system.close();
    }

    /** Broadcast to learn which routees a message reaches. */
    record Ping(int n) {
    }

    /** A message a routee counts. */
    record Msg(int n) {
    }

    /** The routees of one pool: which started, which each ping reached; the factory throws while told to. */
    static final class Routees {
        final Set<ActorRef<?>> started = ConcurrentHashMap.newKeySet();
        final Map<Integer, Set<ActorRef<?>>> pings = new ConcurrentHashMap<>();
        final AtomicInteger pinged = new AtomicInteger();
        final AtomicInteger handled = new AtomicInteger();
        /** The factory throws this many more times, then makes routees. */
        final AtomicInteger failures = new AtomicInteger();
        /** Each routee waits for it before it counts a {@link Msg}. */
        volatile CountDownLatch gate = new CountDownLatch(0);
        /** Run once by the factory's next call, in the router's turn, before it throws or makes a routee. */
        final AtomicReference<Runnable> beforeMake = new AtomicReference<>();

        Behavior<Object> make() {
            Runnable once = beforeMake.getAndSet(null);
            if (once != null) {
                once.run();
            }
            if (failures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
                throw new IllegalStateException("no routee now (test)");
            }
            return self -> {
                started.add(self.self());
                self.become(Receive.handler().match(Ping.class, p -> {
                    pings.computeIfAbsent(p.n(), k -> ConcurrentHashMap.newKeySet()).add(self.self());
                }).match(Msg.class, m -> {
                    Probes.await(gate);
                    handled.incrementAndGet();
                }).match(String.class, s -> {
                    if ("stop".equals(s)) {
                        self.stop();
                    }
                }).build());
            };
        }

        Set<ActorRef<?>> alive() {
            return started.stream().filter(r -> !r.isTerminated()).collect(Collectors.toSet());
        }

        /** Stops one live routee and waits until it has stopped. */
        ActorRef<?> stopOne() {
            @SuppressWarnings("unchecked")
            ActorRef<Object> one = (ActorRef<Object>) alive().iterator().next();
            one.tell("stop");
            Conditions.await(WAIT, one::isTerminated, "the routee told to stop stopped");
            return one;
        }

        /**
         * Waits until the broadcast {@code pool} has exactly {@code n} live routees and a ping
         * told now reaches all of them: a ping is told at each check.
         */
        void awaitServing(ActorRef<Object> pool, int n) {
            int from = pinged.get();
            Conditions.await(WAIT, () -> {
                pool.tell(new Ping(pinged.incrementAndGet()));
                Set<ActorRef<?>> alive = alive();
                return alive.size() == n && pings.entrySet().stream()
                        .anyMatch(e -> e.getKey() > from && e.getValue().size() == n && alive.containsAll(e.getValue()));
            }, () -> "live routees " + alive().size() + " of " + n + ", pings reached " + pings.entrySet().stream()
                    .filter(e -> e.getKey() > from).map(e -> e.getValue().size()).distinct().toList());
        }
    }

    /** The pool's routee strategy: restarts, and at most {@code max} restarts (and spawn retries) a minute. */
    private static SupervisorStrategy atMost(int max) {
        return SupervisorStrategy.builder().on(Exception.class, Directive.RESTART).maxRestarts(max, Duration.ofMinutes(1)).build();
    }

    private long spawnFailures() {
        return system.metrics().routeeSpawnFailures();
    }

    private List<String> warningsAbout(ActorRef<?> pool) {
        return warnings.stream().filter(w -> w.contains("pool router " + pool)).toList();
    }

    private void awaitWarning(ActorRef<?> pool, String part) {
        Conditions.await(WAIT, () -> warningsAbout(pool).stream().anyMatch(w -> w.contains(part)),
                () -> "a warning about " + pool + " with \"" + part + "\"; warnings: " + warnings);
    }

    @Test
    void aPoolWhoseReplacementFailsRetriesOnItsTimerAndIsBackToItsSizeWithoutFailing() {
        Routees r = new Routees();
        // the router's own supervisor stops it: a failure of the router would end the pool
        ActorRef<Object> pool = system.spawn(Routers.pool(3, r::make).withBroadcast());
        r.awaitServing(pool, 3);
        r.failures.set(2); // the replacement and the first retry throw, the second retry spawns
        r.stopOne();
        r.awaitServing(pool, 3);
        assertFalse(pool.isTerminated(), "the router did not fail");
        assertEquals(2, spawnFailures(), "the replacement and its first retry failed, counted");
        List<String> about = warningsAbout(pool);
        assertEquals(1, about.size(), "one warning for the round of retries: " + about);
        String w = about.get(0);
        assertTrue(w.contains("runs at 2 of 3 routees") && w.contains("no routee now (test)") && w.contains("retrying"), w);
    }

    @Test
    void aPoolThatGaveUpServesWithTheRouteesLeftAndItsRestartTopsItUp() throws Exception {
        Routees r = new Routees();
        AtomicInteger incarnations = new AtomicInteger();
        ActorRef<Object> pool = RouterRestartTest.restartable(system, Routers.pool(3, r::make).withBroadcast().withSupervisor(atMost(2)),
                incarnations);
        r.awaitServing(pool, 3);
        r.failures.set(Integer.MAX_VALUE);
        r.stopOne();
        // the replacement and its 2 retries throw; the pool gives up and runs at 2
        awaitWarning(pool, "runs at 2 of 3 routees: its routee factory threw java.lang.IllegalStateException: no routee now (test); "
                + "gave up after 2 retries");
        assertEquals(1, incarnations.get(), "the router did not fail");
        assertEquals(3, spawnFailures(), "one routee missing: its replacement and 2 retries failed, each counted");
        Set<ActorRef<?>> survivors = r.alive();
        assertEquals(2, survivors.size());
        // what is told while it runs short reaches the live routees, none is lost
        AtomicInteger deadMsgs = new AtomicInteger();
        system.deadLetters().subscribe(d -> {
            if (d.message() instanceof Msg) {
                deadMsgs.incrementAndGet();
            }
        });
        for (int i = 0; i < 100; i++) {
            pool.tell(new Msg(i));
        }
        Conditions.await(WAIT, () -> r.handled.get() == 200, () -> "handled " + r.handled.get() + " of 2 x 100");
        assertEquals(0, deadMsgs.get(), "no dead letter while the pool runs short");
        // the router's restart tops it up, keeping the two it had
        r.failures.set(0);
        RouterRestartTest.linkedFailer(system, pool).tell("fail");
        Conditions.await(WAIT, () -> incarnations.get() == 2, "the router restarted");
        r.awaitServing(pool, 3);
        assertTrue(r.alive().containsAll(survivors), "the routees it had were kept");
    }

    @Test
    void aRetryOfTheFactoryDoesNotReplaceARouteeThatStoppedPastTheBudget() {
        Routees r = new Routees();
        ActorRef<Object> pool = system.spawn(Routers.pool(3, r::make).withBroadcast().withSupervisor(atMost(1)));
        r.awaitServing(pool, 3);
        List<ActorRef<?>> three = List.copyOf(r.alive());
        @SuppressWarnings("unchecked")
        ActorRef<Object> a = (ActorRef<Object>) three.get(0);
        @SuppressWarnings("unchecked")
        ActorRef<Object> b = (ActorRef<Object>) three.get(1);
        // a's replacement (the budget's one) throws; while the factory runs, b stops, so b's
        // Terminated is queued at the router before the retry's timer is started
        r.failures.set(1);
        r.beforeMake.set(() -> {
            b.tell("stop");
            Conditions.await(WAIT, () -> system.metrics().mailboxDepth(pool) > 0, "b's Terminated queued at the router");
        });
        a.tell("stop");
        awaitWarning(pool, "its routee " + b + " stopped and the pool strategy's restart budget");
        Conditions.await(WAIT, () -> r.started.size() >= 4, "the retry spawned a routee");
        r.awaitServing(pool, 2); // b was not replaced, as its warning says
        assertEquals(4, r.started.size(), "the retry spawned only the routee its round owed");
        assertFalse(pool.isTerminated(), "the router did not fail");
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> void sneakyThrow(Throwable t) throws T {
        throw (T) t;
    }

    @Test
    void aFactoryThatThrowsAnErrorOrAnUndeclaredCheckedExceptionFailsTheRouterAndItsRouteesStayRouted() {
        for (Throwable thrown : List.of(new AssertionError("no routee now (test)"), new java.io.IOException("no routee now (test)"))) {
            Routees r = new Routees();
            AtomicInteger incarnations = new AtomicInteger();
            // the router's own supervisor restarts it on anything, so the pool outlives the failure
            Props restarts = Props.defaults().withSupervisor(SupervisorStrategy.builder().on(Throwable.class, Directive.RESTART).build());
            ActorRef<Object> pool = system.spawn(restarts, () -> {
                incarnations.incrementAndGet();
                return Routers.pool(3, r::make).withBroadcast().withSupervisor(atMost(2));
            });
            r.awaitServing(pool, 3);
            r.failures.set(Integer.MAX_VALUE);
            r.stopOne();
            awaitWarning(pool, "gave up after 2 retries"); // the pool runs at 2
            r.failures.set(0);
            // the next round owes 2: its first spawn makes a routee, its second throws
            Set<ActorRef<?>> before = Set.copyOf(r.started);
            r.beforeMake.set(() -> r.beforeMake.set(() -> RouterPoolSizeTest.<RuntimeException>sneakyThrow(thrown)));
            r.stopOne();
            Conditions.await(WAIT, () -> incarnations.get() == 2, () -> "the router failed with " + thrown + " and restarted");
            r.awaitServing(pool, 3); // the survivor, the routee of the failed round and the restart's one
            assertEquals(before.size() + 2, r.started.size(), thrown + ": no routee spawned but left out of the routes");
        }
    }

    @Test
    void routeesStoppedPastTheBudgetAreEachCountedAndWarnedOncePerWindow() {
        Routees r = new Routees();
        ActorRef<Object> pool = system.spawn(Routers.pool(6, r::make).withBroadcast().withSupervisor(atMost(1)));
        r.awaitServing(pool, 6);
        r.stopOne(); // replaced: the budget's one
        r.awaitServing(pool, 6);
        for (int i = 0; i < 4; i++) {
            r.stopOne(); // past the budget
        }
        r.awaitServing(pool, 2);
        assertEquals(4, spawnFailures(), "each stop past the budget counted");
        List<String> notReplaced = warningsAbout(pool).stream().filter(w -> w.contains("so it was not replaced")).toList();
        assertEquals(1, notReplaced.size(), "one warning within the budget's window: " + notReplaced);
        assertTrue(notReplaced.get(0).contains("runs at 5 of 6 routees") && notReplaced.get(0).contains("counted"), notReplaced.get(0));
    }

    @Test
    void aSpawnTheClosingSystemRefusesIsNeitherCountedNorRetried() {
        Routees r = new Routees();
        ActorRef<Object> pool = system.spawn(Routers.pool(2, r::make).withBroadcast());
        r.awaitServing(pool, 2);
        CountDownLatch inFactory = new CountDownLatch(1);
        r.beforeMake.set(() -> {
            inFactory.countDown();
            Conditions.await(WAIT, system::isClosed, "the system closing");
        });
        r.stopOne(); // its replacement's factory call returns once close has begun: the spawn is refused
        Probes.await(inFactory);
        system.close();
        assertEquals(0, spawnFailures(), "a spawn the closing system refused is no failure of the factory");
        assertEquals(List.of(), warningsAbout(pool));
    }

    @Test
    void aPoolThatGaveUpTopsUpWhenAnotherRouteeStops() {
        Routees r = new Routees();
        ActorRef<Object> pool = system.spawn(Routers.pool(3, r::make).withBroadcast().withSupervisor(atMost(2)));
        r.awaitServing(pool, 3);
        r.failures.set(Integer.MAX_VALUE);
        r.stopOne();
        awaitWarning(pool, "gave up after 2 retries");
        r.failures.set(0);
        r.stopOne(); // its replacement round spawns both the pool lacks
        r.awaitServing(pool, 3);
        assertEquals(3, spawnFailures());
    }

    @Test
    void aPoolWithNoRouteeLeftDeadLettersWhatItIsToldAndItsWarningNamesTheFix() {
        // on the sender's thread (broadcast) and through the router (smallest mailbox)
        for (Function<PoolRouter<Object>, PoolRouter<Object>> how : List.<Function<PoolRouter<Object>, PoolRouter<Object>>>of(
                PoolRouter::withBroadcast, PoolRouter::withSmallestMailbox)) {
            Routees r = new Routees();
            ActorRef<Object> pool = system.spawn(how.apply(Routers.pool(1, r::make)).withSupervisor(atMost(1)));
            Conditions.await(WAIT, () -> r.alive().size() == 1, "the routee started");
            r.failures.set(Integer.MAX_VALUE);
            r.stopOne();
            awaitWarning(pool, "gave up after 1 retry");
            String w = warningsAbout(pool).get(warningsAbout(pool).size() - 1);
            assertTrue(w.contains("runs at 0 of 1 routees") && w.contains("NO_ROUTEES") && w.contains("fix the routee factory"), w);
            List<DeadLetter> dead = new CopyOnWriteArrayList<>();
            system.deadLetters().subscribe(d -> {
                if (d.message() instanceof Msg && d.recipient().equals(pool)) {
                    dead.add(d);
                }
            });
            long noRoutees = system.deadLetters().count(DeadLetter.Reason.NO_ROUTEES);
            for (int i = 0; i < 10; i++) {
                pool.tell(new Msg(i));
            }
            Conditions.await(WAIT, () -> dead.size() == 10, () -> "dead letters " + dead.size() + " of 10");
            assertTrue(dead.stream().allMatch(d -> d.reason() == DeadLetter.Reason.NO_ROUTEES), dead.toString());
            assertEquals(noRoutees + 10, system.deadLetters().count(DeadLetter.Reason.NO_ROUTEES), "counted by reason");
            assertEquals(0, r.handled.get());
            assertFalse(pool.isTerminated(), "the router did not fail");
        }
        assertEquals(4, spawnFailures(), "each pool: the replacement and one retry");
    }

    @Test
    void aResizingPoolWhoseFactoryThrowsWhenItGrowsKeepsServing() {
        Routees r = new Routees();
        r.gate = new CountDownLatch(1);
        ActorRef<Object> pool = system.spawn(Routers.pool(1, r::make).withResizer(1, 3).withSupervisor(atMost(1)));
        Conditions.await(WAIT, () -> r.alive().size() == 1, "the routee started");
        r.failures.set(Integer.MAX_VALUE);
        int n = RESIZE_EVERY; // one resize check
        for (int i = 0; i < n; i++) {
            pool.tell(new Msg(i)); // the routee holds the first: its mailbox fills, and the resizer grows the pool
        }
        awaitWarning(pool, "runs at 1 of 2 routees: its routee factory threw");
        r.gate.countDown();
        Conditions.await(WAIT, () -> r.handled.get() == n, () -> "handled " + r.handled.get() + " of " + n);
        assertFalse(pool.isTerminated(), "the router did not fail");
        assertEquals(1, r.alive().size());
        awaitWarning(pool, "gave up after 1 retry"); // the retry runs on the router's timer, maybe after the last message
        assertEquals(2, spawnFailures(), "the growth and its one retry");
    }

    @Test
    void aResizingPoolThatGaveUpTopsUpAtItsNextResizeCheckUnderPressure() {
        Routees r = new Routees();
        r.gate = new CountDownLatch(1);
        ActorRef<Object> pool = system.spawn(Routers.pool(1, r::make).withResizer(1, 3).withSupervisor(atMost(1)));
        Conditions.await(WAIT, () -> r.alive().size() == 1, "the routee started");
        r.failures.set(2); // the growth and its one retry throw
        for (int i = 0; i < RESIZE_EVERY; i++) {
            pool.tell(new Msg(i)); // the routee holds the first: the check finds it busy and grows the pool
        }
        awaitWarning(pool, "gave up after 1 retry (the pool strategy's maxRestarts); it tops up again when a routee stops, "
                + "the resizer finds its routees busy or the router restarts");
        assertEquals(1, r.alive().size());
        for (int i = RESIZE_EVERY; i < 2 * RESIZE_EVERY; i++) {
            pool.tell(new Msg(i)); // the next check finds it busy and short of its target: a new round
        }
        Conditions.await(WAIT, () -> r.alive().size() == 2, () -> "live routees " + r.alive().size() + " of 2");
        r.gate.countDown();
        Conditions.await(WAIT, () -> r.handled.get() == 2 * RESIZE_EVERY, () -> "handled " + r.handled.get() + " of " + 2 * RESIZE_EVERY);
        assertEquals(2, spawnFailures(), "the growth and its one retry");
        assertFalse(pool.isTerminated(), "the router did not fail");
    }

    @Test
    void theSpawnFailuresCountIsOptionalForOtherImplementationsOfSystemMetrics() {
        SystemMetrics outside = new SystemMetrics() { // one written before the count existed
            @Override
            public long liveActors() {
                return 0;
            }

            @Override
            public long messagesSent() {
                return 0;
            }

            @Override
            public long messagesHandled() {
                return 0;
            }

            @Override
            public long deadLetters() {
                return 0;
            }

            @Override
            public long messagesDropped() {
                return 0;
            }

            @Override
            public long keptMessages() {
                return 0;
            }

            @Override
            public long unhandledMessages() {
                return 0;
            }

            @Override
            public int mailboxDepth(ActorRef<?> actor) {
                return -1;
            }
        };
        assertEquals(0, outside.routeeSpawnFailures());
        assertEquals(0, spawnFailures(), "the system's own count, nothing failed");
    }
}
