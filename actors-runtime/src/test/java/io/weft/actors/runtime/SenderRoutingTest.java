package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Routers;
import io.weft.actors.Terminated;
import io.weft.actors.runtime.internal.cell.RoutedRef;
import io.weft.actors.runtime.testing.Conditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Routing on the sender's thread (round-robin, random, consistent hashing, broadcast): the pool's
 * ref tells the routee itself, so messages reach the routees while the router actor cannot run;
 * concurrent senders, one sender's order per routee from the first message after spawn (the routes are
 * published by spawn, before the router's first turn), a router stopped before its first turn,
 * routees stopping while senders send, and death watch, ask and stop through the pool's ref.
 */
class SenderRoutingTest {

    private static final int WAIT_S = 30;
    private ActorSystem system;
    private SingleThreadScheduler routerThread;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("sender-routing").parallelism(2).build();
        routerThread = new SingleThreadScheduler("router-thread", 50);
    }

    @AfterEach
    void close() {
        system.close();
        routerThread.shutdown();
    }

    /** A message with its sender's number and its position in that sender's sequence. */
    record Msg(int sender, int seq) {
    }

    /** What one routee handled, in order. */
    static final class Log {
        final Map<ActorRef<?>, List<Msg>> byRoutee = new ConcurrentHashMap<>();
        final AtomicInteger total = new AtomicInteger();

        Behavior<Msg> routee() {
            return self -> self.become(Receive.<Msg>handler().match(Msg.class, m -> {
                byRoutee.computeIfAbsent(self.self(), k -> new CopyOnWriteArrayList<>()).add(m);
                total.incrementAndGet();
            }).build());
        }

        void awaitTotal(int n) {
            Conditions.await(Duration.ofSeconds(WAIT_S), () -> total.get() >= n, () -> "routees handled " + total.get() + " of " + n);
        }

        /** Each sender's messages reach each routee in the order sent. */
        void assertSenderOrderPerRoutee() {
            byRoutee.forEach((routee, msgs) -> {
                Map<Integer, Integer> last = new ConcurrentHashMap<>();
                for (Msg m : msgs) {
                    Integer before = last.put(m.sender(), m.seq());
                    assertTrue(before == null || before < m.seq(), routee + " got " + m + " after seq " + before);
                }
            });
        }
    }

    /** Occupies the router's only thread until the returned latch is counted down. */
    private CountDownLatch blockRouterThread() throws InterruptedException {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        system.spawn(Props.defaults().withScheduler(routerThread), self -> {
            entered.countDown();
            release.await(WAIT_S, TimeUnit.SECONDS);
        });
        assertTrue(entered.await(WAIT_S, TimeUnit.SECONDS), "the blocker runs");
        return release;
    }

    /** Spawns the router on the router thread and waits until it has started (one message routed). */
    private ActorRef<Msg> startedRouter(Behavior<Msg> spec, Log log) {
        ActorRef<Msg> router = system.spawn(Props.defaults().withScheduler(routerThread), spec);
        assertInstanceOf(RoutedRef.class, router, "routes on the sender's thread");
        router.tell(new Msg(-1, 0));
        log.awaitTotal(1); // handled: the router has started, and published its routes before routing it
        return router;
    }

    /** For each target, {@code senders} platform threads, all at once, each telling {@code each} messages. */
    @SafeVarargs
    private static void sendConcurrently(int senders, int each, ActorRef<Msg>... targets) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < targets.length; t++) {
            ActorRef<Msg> to = targets[t];
            for (int s = 0; s < senders; s++) {
                int id = t * senders + s;
                threads.add(Thread.ofPlatform().name("sender-" + id).start(() -> {
                    for (int i = 0; i < each; i++) {
                        to.tell(new Msg(id, i));
                    }
                }));
            }
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(WAIT_S));
            assertFalse(t.isAlive(), t.getName() + " finished");
        }
    }

    @Test
    void roundRobinFromConcurrentSendersGivesEachRouteeAnEqualShareWithoutTheRouterActor() throws Exception {
        Log log = new Log();
        ActorRef<Msg> pool = startedRouter(Routers.pool(4, log::routee), log);
        CountDownLatch release = blockRouterThread();
        sendConcurrently(4, 5_000, pool);
        log.awaitTotal(1 + 20_000);
        release.countDown();
        assertEquals(4, log.byRoutee.size());
        List<Integer> shares = new ArrayList<>();
        log.byRoutee.values().forEach(l -> shares.add((int) l.stream().filter(m -> m.sender() >= 0).count()));
        assertEquals(List.of(5_000, 5_000, 5_000, 5_000), shares, "an atomic counter: each routee one in four");
        log.assertSenderOrderPerRoutee();
        assertEquals(0, system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED));
    }

    @Test
    void randomBroadcastAndConsistentHashingRouteWithoutTheRouterActor() throws Exception {
        Log random = new Log();
        ActorRef<Msg> r = startedRouter(Routers.pool(3, random::routee).withRandom(), random);
        Log broadcast = new Log();
        ActorRef<Msg> b = startedRouter(Routers.pool(3, broadcast::routee).withBroadcast(), broadcast);
        Log hashed = new Log();
        ActorRef<Msg> h = startedRouter(Routers.pool(3, hashed::routee).withConsistentHashing(Msg::sender), hashed);
        CountDownLatch release = blockRouterThread();
        sendConcurrently(2, 3_000, r);
        sendConcurrently(2, 1_000, b);
        sendConcurrently(6, 500, h);
        random.awaitTotal(1 + 6_000);
        broadcast.awaitTotal(3 + 3 * 2_000);
        hashed.awaitTotal(1 + 3_000);
        release.countDown();
        random.assertSenderOrderPerRoutee();
        broadcast.assertSenderOrderPerRoutee();
        broadcast.byRoutee.values().forEach(l -> assertEquals(1 + 2_000, l.size(), "every routee gets every message"));
        hashed.assertSenderOrderPerRoutee();
        Set<Integer> seen = new HashSet<>();
        hashed.byRoutee.values().forEach(l -> l.stream().map(Msg::sender).filter(s -> s >= 0).distinct()
                .forEach(s -> assertTrue(seen.add(s), "key " + s + " on one routee only")));
        assertEquals(6, seen.size());
    }

    @Test
    void messagesToldRightAfterSpawnGoDirectlyWhileTheRouterHasNotRun() throws Exception {
        Log log = new Log();
        CountDownLatch release = blockRouterThread();
        List<ActorRef<Msg>> members = List.of(system.spawn(log.routee()), system.spawn(log.routee()));
        ActorRef<Msg> pool = system.spawn(Props.defaults().withScheduler(routerThread), Routers.pool(2, log::routee));
        ActorRef<Msg> group = system.spawn(Props.defaults().withScheduler(routerThread), Routers.group(members));
        for (int i = 0; i < 1_000; i++) {
            pool.tell(new Msg(0, i)); // the routes were published by spawn
            group.tell(new Msg(1, i));
        }
        log.awaitTotal(2_000); // handled while the router thread is held: no router turn was needed
        release.countDown();
        for (int i = 1_000; i < 3_000; i++) {
            pool.tell(new Msg(0, i));
            group.tell(new Msg(1, i));
        }
        log.awaitTotal(6_000);
        log.assertSenderOrderPerRoutee();
        assertEquals(4, log.byRoutee.size());
        log.byRoutee.values().forEach(l -> assertEquals(1_500, l.size(), "round-robin from the first message"));
    }

    /**
     * One sender, one key (so one routee), telling right after spawn while the router cannot run:
     * if the first messages waited at the router, the router would pass them on only after later
     * ones went directly. The key function holds the router's thread if the router ever routes
     * one, so that overtaking, if possible at all, happens every time.
     */
    @Test
    void oneSendersOrderToARouteeHoldsFromTheMessagesToldRightAfterSpawn() throws Exception {
        Log log = new Log();
        CountDownLatch routerRouting = new CountDownLatch(1);
        CountDownLatch letRouterGo = new CountDownLatch(1);
        CountDownLatch release = blockRouterThread();
        ActorRef<Msg> pool = system.spawn(Props.defaults().withScheduler(routerThread),
                Routers.pool(4, log::routee).withConsistentHashing(m -> {
                    if (Thread.currentThread().getName().equals("router-thread")) {
                        routerRouting.countDown();
                        try {
                            letRouterGo.await(WAIT_S, TimeUnit.SECONDS);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }
                    return m.sender();
                }));
        for (int i = 0; i < 1_000; i++) {
            pool.tell(new Msg(7, i));
        }
        release.countDown();
        // either the routees got them all, or the router holds them in the key function
        Conditions.await(Duration.ofSeconds(WAIT_S), () -> log.total.get() == 1_000 || routerRouting.getCount() == 0,
                () -> "handled " + log.total.get() + " of 1000, router routing: " + (routerRouting.getCount() == 0));
        for (int i = 1_000; i < 2_000; i++) {
            pool.tell(new Msg(7, i));
        }
        letRouterGo.countDown();
        log.awaitTotal(2_000);
        assertEquals(1, log.byRoutee.size(), "one key, one routee");
        log.assertSenderOrderPerRoutee();
        assertEquals(1, routerRouting.getCount(), "the router routed none of the sender's messages");
    }

    @Test
    void aPoolStoppedBeforeItsFirstTurnStopsItsRouteesAndDeadLettersLaterMessages() throws Exception {
        Log log = new Log();
        CountDownLatch release = blockRouterThread();
        ActorRef<Msg> pool = system.spawn(Props.defaults().withScheduler(routerThread), Routers.pool(3, log::routee));
        pool.tell(new Msg(0, 0));
        log.awaitTotal(1);
        List<ActorRef<?>> routees = new ArrayList<>(log.byRoutee.keySet());
        CountDownLatch terminated = new CountDownLatch(1);
        system.spawn(self -> {
            self.watch(pool);
            self.become(Receive.handler().match(Terminated.class, t -> terminated.countDown()).build());
        });
        system.stop(pool);
        release.countDown();
        assertTrue(terminated.await(WAIT_S, TimeUnit.SECONDS), "the pool stops");
        Conditions.await(Duration.ofSeconds(WAIT_S), () -> routees.stream().allMatch(ActorRef::isTerminated), "its routees stop with it");
        long before = system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED);
        pool.tell(new Msg(0, 1));
        Conditions.await(Duration.ofSeconds(WAIT_S), () -> system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED) > before,
                "a message to the stopped pool is a dead letter");
        assertEquals(1, log.total.get());
    }

    @Test
    void aRouteeFactoryThatThrowsAtSpawnFailsTheRouterAtItsStart() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ActorRef<Msg> pool = system.spawn(Routers.<Msg>pool(2, () -> {
            calls.incrementAndGet();
            throw new IllegalStateException("no routee today");
        }));
        Conditions.await(Duration.ofSeconds(WAIT_S), pool::isTerminated, "the router fails at its start and stops");
        assertTrue(calls.get() >= 2, "called at spawn, then again by the router's start");
        long before = system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED);
        pool.tell(new Msg(0, 0));
        Conditions.await(Duration.ofSeconds(WAIT_S), () -> system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED) > before,
                "a message to the failed pool is a dead letter");
    }

    @Test
    void aRouteeStoppingWhileSendersSendLosesNoMessage() throws Exception {
        Log log = new Log();
        List<ActorRef<Msg>> routees = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            routees.add(system.spawn(log.routee()));
        }
        ActorRef<Msg> group = system.spawn(Routers.group(routees));
        ActorRef<Msg> pool = system.spawn(Routers.pool(4, log::routee));
        AtomicInteger dead = new AtomicInteger();
        system.deadLetters().subscribe(d -> {
            if (d.reason() == DeadLetter.Reason.RECIPIENT_STOPPED && d.message() instanceof Msg) {
                dead.incrementAndGet();
            }
        });
        int each = 20_000;
        Thread stopper = Thread.ofPlatform().name("stopper").start(() -> {
            Conditions.await(Duration.ofSeconds(WAIT_S), () -> log.total.get() >= each / 2 && log.byRoutee.size() >= 6, "sending has begun");
            system.stop(routees.get(2));
            log.byRoutee.keySet().stream().filter(r -> !routees.contains(r)).findFirst().ifPresent(system::stop); // a pool routee
        });
        sendConcurrently(2, each / 2, group, pool);
        stopper.join(TimeUnit.SECONDS.toMillis(WAIT_S));
        Conditions.await(Duration.ofSeconds(WAIT_S), () -> log.total.get() + dead.get() == 2 * each,
                () -> "handled " + log.total.get() + " + dead letters " + dead.get() + " of " + 2 * each);
        log.assertSenderOrderPerRoutee();
    }

    @Test
    void deathWatchAskAndStopWorkThroughAPoolRef() throws Exception {
        ActorRef<String> echo = system.spawn(Routers.<String>pool(3, () -> self -> self.become(Receive.<String>handler()
                .match(String.class, s -> self.reply(s + "!")).build())).withRandom());
        assertInstanceOf(RoutedRef.class, echo);
        for (int i = 0; i < 10; i++) {
            assertEquals("hi" + i + "!", system.<String, String>ask(echo, "hi" + i, Duration.ofSeconds(WAIT_S)).get(WAIT_S, TimeUnit.SECONDS));
        }
        CountDownLatch terminated = new CountDownLatch(1);
        List<Object> seen = new CopyOnWriteArrayList<>();
        system.spawn(self -> {
            self.watch(echo);
            self.become(Receive.handler().match(Terminated.class, t -> {
                seen.add(t.actor());
                terminated.countDown();
            }).build());
        });
        system.stop(echo);
        assertTrue(terminated.await(WAIT_S, TimeUnit.SECONDS), "the watcher hears of the pool's end");
        assertEquals(List.of(echo), seen);
        long before = system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED);
        echo.tell("late");
        Conditions.await(Duration.ofSeconds(WAIT_S), () -> system.deadLetters().count(DeadLetter.Reason.RECIPIENT_STOPPED) > before,
                "a message to the stopped pool is a dead letter");
    }

    @Test
    void onlyStrategiesWithoutRouterStateRouteOnTheSendersThread() throws Exception {
        Log log = new Log();
        assertInstanceOf(RoutedRef.class, system.spawn(Routers.pool(2, log::routee)));
        assertInstanceOf(RoutedRef.class, system.spawn(Routers.pool(2, log::routee).withBroadcast()));
        ActorRef<Msg> named = system.spawn("named-pool", Routers.pool(2, log::routee));
        assertInstanceOf(RoutedRef.class, named);
        assertEquals("named-pool", named.name());
        for (Behavior<Msg> b : List.<Behavior<Msg>>of(Routers.pool(2, log::routee).withSmallestMailbox(),
                Routers.pool(2, log::routee).withBalancing(), Routers.pool(2, log::routee).withResizer(1, 3))) {
            assertFalse(system.spawn(b) instanceof RoutedRef, b + " routes through the router actor");
        }
    }

    @Test
    void aKeyFunctionThatThrowsFailsTheSenderNamingTheRouter() throws Exception {
        Log log = new Log();
        ActorRef<Msg> h = startedRouter(Routers.pool(2, log::routee).withConsistentHashing(m -> {
            if (m.seq() == 13) {
                throw new IllegalStateException("unlucky");
            }
            return m.sender();
        }), log);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> h.tell(new Msg(1, 13)));
        assertTrue(e.getMessage().contains(h.toString()) && e.getMessage().contains("key function"), e.getMessage());
    }
}
