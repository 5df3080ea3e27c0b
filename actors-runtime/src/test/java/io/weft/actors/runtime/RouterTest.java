package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import io.weft.actors.Routers;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The routers' contracts: each strategy, supervision of pool routees, membership, bad inputs. */
class RouterTest {

    private static final long WAIT_S = 30;

    private ActorSystem system;

    private final java.util.concurrent.ExecutorService resender = java.util.concurrent.Executors.newSingleThreadExecutor();

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("routers").parallelism(2).build();
    }

    @AfterEach
    void close() {
        system.close();
        resender.shutdownNow();
    }

    /** A handled message as a routee saw it. */
    record Seen(ActorRef<?> routee, Object message) {
    }

    private static Seen take(BlockingQueue<Seen> q) throws InterruptedException {
        Seen s = q.poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(s, "timed out waiting for a routee to handle a message");
        return s;
    }

    /** A routee that records what it handles; a "block" message waits on {@code release}. */
    private static Behavior<Object> recorder(BlockingQueue<Seen> seen, CountDownLatch entered, CountDownLatch release) {
        return self -> self.become(Receive.<Object>handler().matchAny(m -> {
            if ("block".equals(m)) {
                entered.countDown();
                try {
                    release.await(WAIT_S, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            seen.add(new Seen(self.self(), m));
        }).build());
    }

    private static Behavior<Object> recorder(BlockingQueue<Seen> seen) {
        return recorder(seen, new CountDownLatch(1), new CountDownLatch(0));
    }

    private CountDownLatch stoppedLatch(ActorRef<?> ref) {
        CountDownLatch stopped = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.STOPPED && e.actor().equals(ref)) {
                stopped.countDown();
            }
        });
        if (ref.isTerminated()) {
            stopped.countDown();
        }
        return stopped;
    }

    /**
     * Tells {@code router} again each message that {@code stopped} turned into a dead letter
     * (RECIPIENT_STOPPED), at most 100,000 times: senders route on their own threads with the
     * routes the router published, which drop a stopped routee only once the router has handled
     * its Terminated, so a message told in between reaches the stopped routee's dead letters.
     * The resend runs on {@link #resender}: a dead letter is published on the sending thread, and
     * telling again from the subscriber would recurse.
     */
    private <M> void resendDeadLettersOf(ActorRef<?> stopped, ActorRef<M> router) {
        java.util.concurrent.atomic.AtomicInteger budget = new java.util.concurrent.atomic.AtomicInteger(100_000);
        system.deadLetters().subscribe(d -> {
            if (d.reason() == DeadLetter.Reason.RECIPIENT_STOPPED && d.recipient().equals(stopped) && budget.decrementAndGet() >= 0) {
                @SuppressWarnings("unchecked")
                M m = (M) d.message();
                resender.execute(() -> router.tell(m));
            }
        });
    }

    @Test
    void roundRobinGivesEachRouteeItsTurnInOrder() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        List<ActorRef<Object>> routees = List.of(system.spawn(recorder(seen)), system.spawn(recorder(seen)), system.spawn(recorder(seen)));
        ActorRef<Object> router = system.spawn(Routers.group(routees).withRoundRobin());
        for (int i = 0; i < 9; i++) {
            router.tell(i);
        }
        Map<Object, ActorRef<?>> by = new HashMap<>();
        for (int i = 0; i < 9; i++) {
            Seen s = take(seen);
            by.put(s.message(), s.routee());
        }
        for (int i = 0; i < 9; i++) {
            assertEquals(routees.get(i % 3), by.get(i), "message " + i);
        }
    }

    @Test
    void aPoolRoundRobinsOverItsOwnRouteesAndKeepsTheSenderForReplies() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        ActorRef<Object> pool = system.spawn(Routers.pool(3, () -> recorder(seen)));
        for (int i = 0; i < 6; i++) {
            pool.tell(i);
        }
        Map<Object, ActorRef<?>> by = new HashMap<>();
        for (int i = 0; i < 6; i++) {
            Seen s = take(seen);
            by.put(s.message(), s.routee());
        }
        assertEquals(3, new HashSet<>(by.values()).size(), "three routees took the first three: " + by);
        for (int i = 0; i < 3; i++) {
            assertEquals(by.get(i), by.get(i + 3), "message " + (i + 3) + " goes where message " + i + " went");
        }
        ActorRef<String> echo = system.spawn(Routers.<String>pool(2, () -> self -> self.become(Receive.<String>handler()
                .match(String.class, s -> self.reply(s + "!")).build())));
        assertEquals("hi!", system.<String, String>ask(echo, "hi", Duration.ofSeconds(WAIT_S)).get(WAIT_S, TimeUnit.SECONDS));
    }

    @Test
    void consistentHashingKeepsAKeyOnOneRouteeAndMovesOnlyTheKeysOfARemovedOne() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        List<ActorRef<String>> routees = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            @SuppressWarnings("unchecked")
            ActorRef<String> r = (ActorRef<String>) (ActorRef<?>) system.spawn(recorder(seen));
            routees.add(r);
        }
        ActorRef<String> router = system.spawn(Routers.group(routees).withConsistentHashing(s -> s.substring(0, s.indexOf('#'))));
        int keys = 200;
        for (int round = 0; round < 3; round++) {
            for (int k = 0; k < keys; k++) {
                router.tell("key" + k + "#" + round);
            }
        }
        Map<String, ActorRef<?>> owner = new HashMap<>();
        for (int i = 0; i < keys * 3; i++) {
            Seen s = take(seen);
            String key = ((String) s.message()).substring(0, ((String) s.message()).indexOf('#'));
            ActorRef<?> before = owner.putIfAbsent(key, s.routee());
            assertTrue(before == null || before.equals(s.routee()), key + " went to two routees");
        }
        ActorRef<String> leaving = routees.get(1);
        resendDeadLettersOf(leaving, router);
        CountDownLatch stopped = stoppedLatch(leaving);
        system.stop(leaving);
        assertTrue(stopped.await(WAIT_S, TimeUnit.SECONDS));
        for (int k = 0; k < keys; k++) {
            router.tell("key" + k + "#after");
        }
        int moved = 0;
        for (int i = 0; i < keys; i++) {
            Seen s = take(seen);
            String key = ((String) s.message()).substring(0, ((String) s.message()).indexOf('#'));
            if (!owner.get(key).equals(s.routee())) {
                moved++;
                assertEquals(leaving, owner.get(key), key + " moved though its routee stayed");
            }
        }
        long hadLeaving = owner.values().stream().filter(leaving::equals).count();
        assertEquals(hadLeaving, moved, "exactly the keys of the removed routee move");
        assertTrue(moved < keys / 2, "a quarter of the keys, about, not " + moved);
    }

    @Test
    void broadcastReachesEveryRoutee() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        ActorRef<Object> pool = system.spawn(Routers.pool(3, () -> recorder(seen)).withBroadcast());
        pool.tell("all");
        Set<ActorRef<?>> got = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            Seen s = take(seen);
            assertEquals("all", s.message());
            got.add(s.routee());
        }
        assertEquals(3, got.size());
    }

    @Test
    void smallestMailboxPrefersTheIdleRouteeOverABlockedOne() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ActorRef<Object> busy = system.spawn(recorder(seen, entered, release));
        ActorRef<Object> idle = system.spawn(recorder(seen));
        busy.tell("block");
        assertTrue(entered.await(WAIT_S, TimeUnit.SECONDS));
        for (int i = 0; i < 3; i++) {
            busy.tell("queued" + i); // busy: running, 3 queued
        }
        ActorRef<Object> router = system.spawn(Routers.group(busy, idle).withSmallestMailbox());
        for (int i = 0; i < 3; i++) {
            router.tell("routed" + i);
        }
        for (int i = 0; i < 3; i++) {
            Seen s = take(seen);
            assertEquals(idle, s.routee(), "routed messages go to the idle routee: " + s);
        }
        release.countDown();
        for (int i = 0; i < 4; i++) {
            assertEquals(busy, take(seen).routee());
        }
    }

    @Test
    void balancingNeverLeavesAMessageBehindABusyRouteeWhileAnotherIsIdle() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ActorRef<Object> pool = system.spawn(Routers.pool(2, () -> recorder(seen, entered, release)).withBalancing());
        pool.tell("block");
        assertTrue(entered.await(WAIT_S, TimeUnit.SECONDS));
        for (int i = 0; i < 10; i++) {
            pool.tell(i);
        }
        // all ten are handled while one routee is still blocked: none waited behind it
        ActorRef<?> other = null;
        for (int i = 0; i < 10; i++) {
            Seen s = take(seen);
            assertEquals(i, s.message());
            assertTrue(other == null || other.equals(s.routee()));
            other = s.routee();
        }
        release.countDown();
        Seen blocked = take(seen);
        assertEquals("block", blocked.message());
        assertNotEquals(other, blocked.routee());
    }

    @Test
    void aBalancingRouteeThatFailsOnAMessageIsRestartedAndGetsWorkAgain() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        AtomicInteger starts = new AtomicInteger();
        ActorRef<Object> pool = system.spawn(Routers.pool(1, () -> {
            starts.incrementAndGet();
            return self -> self.become(Receive.<Object>handler().matchAny(m -> {
                if ("boom".equals(m)) {
                    throw new IllegalStateException("boom");
                }
                seen.add(new Seen(self.self(), m));
            }).build());
        }).withBalancing());
        pool.tell("boom");
        pool.tell("after");
        assertEquals("after", take(seen).message());
        assertEquals(2, starts.get());
    }

    @Test
    void aFailingRouteeIsRestartedInPlaceByThePoolsSupervisor() throws Exception {
        AtomicInteger starts = new AtomicInteger();
        ActorRef<String> pool = system.spawn(Routers.<String>pool(1, () -> {
            starts.incrementAndGet();
            return self -> self.become(Receive.<String>handler().match(String.class, s -> {
                if (s.equals("boom")) {
                    throw new IllegalStateException("boom");
                }
                self.reply(self.self());
            }).build());
        }));
        Duration t = Duration.ofSeconds(WAIT_S);
        ActorRef<?> before = system.<String, ActorRef<?>>ask(pool, "who", t).get(WAIT_S, TimeUnit.SECONDS);
        pool.tell("boom");
        ActorRef<?> after = system.<String, ActorRef<?>>ask(pool, "who", t).get(WAIT_S, TimeUnit.SECONDS);
        assertEquals(before, after, "restarted in place, same ref");
        assertEquals(2, starts.get());
    }

    @Test
    void aPoolReplacesARouteeThatStopped() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        ActorRef<Object> pool = system.spawn(Routers.pool(2, () -> self -> self.become(Receive.<Object>handler().matchAny(m -> {
            seen.add(new Seen(self.self(), m));
            if ("stop".equals(m)) {
                self.stop();
            }
        }).build())).withBroadcast());
        pool.tell("who");
        Set<ActorRef<?>> first = Set.of(take(seen).routee(), take(seen).routee());
        ActorRef<?> leaving = first.iterator().next();
        CountDownLatch stopped = stoppedLatch(leaving);
        @SuppressWarnings("unchecked")
        ActorRef<Object> l = (ActorRef<Object>) leaving;
        l.tell("stop");
        assertEquals("stop", take(seen).message());
        assertTrue(stopped.await(WAIT_S, TimeUnit.SECONDS));
        // senders broadcast with the routes the router published; until it has handled the
        // Terminated and replaced the routee, the copy for the stopped one is a dead letter
        Map<Object, AtomicInteger> dead = new java.util.concurrent.ConcurrentHashMap<>();
        system.deadLetters().subscribe(d -> dead.computeIfAbsent(d.message(), k -> new AtomicInteger()).incrementAndGet());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        for (int round = 0; round < 1_000; round++) {
            String who = "who" + round;
            pool.tell(who);
            Set<ActorRef<?>> handled = new HashSet<>();
            while (handled.size() + dead.getOrDefault(who, new AtomicInteger()).get() < 2) {
                assertTrue(System.nanoTime() - deadline < 0, "both copies of " + who + " handled or dead letters within " + WAIT_S + " s");
                Seen s = seen.poll(100, TimeUnit.MILLISECONDS);
                if (s != null && s.message().equals(who)) {
                    handled.add(s.routee());
                }
            }
            if (handled.size() == 2) {
                assertTrue(!handled.contains(leaving), "the stopped one was replaced");
                return;
            }
        }
        throw new AssertionError("the pool did not replace its stopped routee within 1,000 broadcasts");
    }

    @Test
    void aGroupDropsAStoppedRouteeAndDeadLettersWhatItCannotDeliver() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        ActorRef<Object> only = system.spawn(recorder(seen));
        ActorRef<Object> router = system.spawn(Routers.group(only));
        CountDownLatch stopped = stoppedLatch(only);
        CountDownLatch dead = new CountDownLatch(1);
        List<DeadLetter> letters = new java.util.concurrent.CopyOnWriteArrayList<>();
        system.deadLetters().subscribe(d -> {
            if (d.reason() == DeadLetter.Reason.NO_ROUTEES) {
                letters.add(d);
                dead.countDown();
            }
        });
        router.tell("first");
        assertEquals("first", take(seen).message()); // the router runs and watches its routee
        resendDeadLettersOf(only, router);
        system.stop(only); // watchers are told before STOPPED is published
        assertTrue(stopped.await(WAIT_S, TimeUnit.SECONDS));
        router.tell("nobody");
        assertTrue(dead.await(WAIT_S, TimeUnit.SECONDS), "a NO_ROUTEES dead letter");
        assertEquals("nobody", letters.get(0).message());
        assertEquals(router, letters.get(0).recipient());
        assertEquals(1, system.deadLetters().count(DeadLetter.Reason.NO_ROUTEES));
    }

    @Test
    void aResizingPoolGrowsUnderPressureUpToItsBound() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        CountDownLatch release = new CountDownLatch(1);
        ActorRef<Object> pool = system.spawn(Routers.pool(1, () -> self -> self.become(Receive.<Object>handler().matchAny(m -> {
            try {
                release.await(WAIT_S, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            seen.add(new Seen(self.self(), m));
        }).build())).withResizer(1, 3));
        int n = 100;
        for (int i = 0; i < n; i++) {
            pool.tell(i);
        }
        release.countDown();
        Set<ActorRef<?>> routees = new HashSet<>();
        for (int i = 0; i < n; i++) {
            routees.add(take(seen).routee());
        }
        assertEquals(3, routees.size(), "grew from 1 to its upper bound 3");
    }

    @Test
    void randomDeliversEachMessageOnceToSomeRoutee() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        List<ActorRef<Object>> routees = List.of(system.spawn(recorder(seen)), system.spawn(recorder(seen)));
        ActorRef<Object> router = system.spawn(Routers.group(routees).withRandom());
        Set<Object> got = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            router.tell(i);
        }
        for (int i = 0; i < 50; i++) {
            Seen s = take(seen);
            assertTrue(routees.contains(s.routee()));
            assertTrue(got.add(s.message()), "delivered twice: " + s);
        }
        assertEquals(50, got.size());
    }

    @Test
    void aResizingPoolRetiresAnIdleRouteeDownToItsLowerBound() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        CountDownLatch retired = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.STOPPED) {
                retired.countDown();
            }
        });
        ActorRef<Object> pool = system.spawn(Routers.pool(3, () -> recorder(seen)).withResizer(1, 3));
        // one message at a time, so at each check the routees not just given a message are idle
        // (or about to be: the check may see one still leaving its turn, hence the bounded retries)
        for (int round = 0; round < 200 && retired.getCount() > 0; round++) {
            for (int i = 0; i < 16; i++) {
                pool.tell(i);
                take(seen);
            }
        }
        assertTrue(retired.await(WAIT_S, TimeUnit.SECONDS), "an idle routee was retired");
        assertTrue(!pool.isTerminated());
    }

    @Test
    void aGroupStartsWithoutRouteesThatHaveAlreadyStopped() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        ActorRef<Object> gone = system.spawn(recorder(seen));
        ActorRef<Object> live = system.spawn(recorder(seen));
        CountDownLatch stopped = stoppedLatch(gone);
        system.stop(gone);
        assertTrue(stopped.await(WAIT_S, TimeUnit.SECONDS));
        ActorRef<Object> router = system.spawn(Routers.group(gone, live));
        for (int i = 0; i < 4; i++) {
            router.tell(i);
        }
        for (int i = 0; i < 4; i++) {
            assertEquals(live, take(seen).routee());
        }
    }

    @Test
    void aBalancingPoolWorksUnderEveryMessagePolicy() throws Exception {
        for (io.weft.actors.MessagePolicy policy : io.weft.actors.MessagePolicy.values()) {
            try (ActorSystem strict = ActorSystem.builder().name("balancing-" + policy.name().toLowerCase().replace('_', '-'))
                    .parallelism(2).messagePolicy(policy).build()) {
                ActorRef<String> pool = strict.spawn(Routers.<String>pool(2, () -> self -> self.become(Receive.<String>handler()
                        .match(String.class, s -> self.reply(s + "!")).build())).withBalancing());
                assertEquals("x!", strict.<String, String>ask(pool, "x", Duration.ofSeconds(WAIT_S)).get(WAIT_S, TimeUnit.SECONDS),
                        policy.name());
            }
        }
    }

    @Test
    void aMessageLeftInAStoppedBalancingRouteeIsADeadLetterOfItself() throws Exception {
        BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        List<DeadLetter> letters = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch dead = new CountDownLatch(1);
        system.deadLetters().subscribe(d -> {
            letters.add(d);
            dead.countDown();
        });
        // a routee whose handler never matches "kept": the routed message stays in its mailbox
        ActorRef<Object> pool = system.spawn(Routers.pool(1, () -> self -> self.become(Receive.<Object>handler()
                .match(String.class, "stop"::equals, s -> self.stop())
                .match(Integer.class, i -> seen.add(new Seen(self.self(), i)))
                .build())).withBalancing());
        pool.tell(1);
        ActorRef<?> routee = take(seen).routee();
        pool.tell("kept");
        @SuppressWarnings("unchecked")
        ActorRef<Object> r = (ActorRef<Object>) routee;
        r.tell("stop");
        assertTrue(dead.await(WAIT_S, TimeUnit.SECONDS));
        assertEquals("kept", letters.get(0).message(), "the message itself, not the router's wrapper: " + letters);
    }

    @Test
    void badInputsAreRefusedWithTheValueAndTheFix() {
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class, () -> Routers.pool(0, () -> self -> { }));
        assertTrue(zero.getMessage().contains("size must be at least 1, was 0"), zero.getMessage());
        IllegalArgumentException negative = assertThrows(IllegalArgumentException.class, () -> Routers.pool(-3, () -> self -> { }));
        assertTrue(negative.getMessage().contains("was -3"), negative.getMessage());
        IllegalArgumentException noFactory = assertThrows(IllegalArgumentException.class, () -> Routers.pool(2, null));
        assertTrue(noFactory.getMessage().contains("factory is null"), noFactory.getMessage());
        IllegalArgumentException empty = assertThrows(IllegalArgumentException.class, () -> Routers.group(List.<ActorRef<Object>>of()));
        assertTrue(empty.getMessage().contains("at least one actor, was []"), empty.getMessage());
        ActorRef<Object> a = system.spawn(recorder(new LinkedBlockingQueue<>()));
        List<ActorRef<Object>> withNull = new ArrayList<>();
        withNull.add(a);
        withNull.add(null);
        IllegalArgumentException nullRoutee = assertThrows(IllegalArgumentException.class, () -> Routers.group(withNull));
        assertTrue(nullRoutee.getMessage().contains("routee 1 is null"), nullRoutee.getMessage());
        IllegalArgumentException nullKey = assertThrows(IllegalArgumentException.class,
                () -> Routers.pool(2, () -> self -> { }).withConsistentHashing(null));
        assertTrue(nullKey.getMessage().contains("key function is null"), nullKey.getMessage());
        IllegalArgumentException nullGroupKey = assertThrows(IllegalArgumentException.class, () -> Routers.group(a).withConsistentHashing(null));
        assertTrue(nullGroupKey.getMessage().contains("withConsistentHashing(Order::customerId)"), nullGroupKey.getMessage());
        IllegalArgumentException vnodes = assertThrows(IllegalArgumentException.class, () -> Routers.group(a).withConsistentHashing(x -> x, 0));
        assertTrue(vnodes.getMessage().contains("virtualNodes must be at least 1, was 0"), vnodes.getMessage());
        IllegalArgumentException lower = assertThrows(IllegalArgumentException.class, () -> Routers.pool(2, () -> self -> { }).withResizer(0, 4));
        assertTrue(lower.getMessage().contains("lower must be at least 1, was 0"), lower.getMessage());
        IllegalArgumentException upper = assertThrows(IllegalArgumentException.class, () -> Routers.pool(2, () -> self -> { }).withResizer(3, 2));
        assertTrue(upper.getMessage().contains("upper must be at least lower (3), was 2"), upper.getMessage());
        IllegalArgumentException hashing = assertThrows(IllegalArgumentException.class,
                () -> Routers.<String>pool(2, () -> self -> { }).withResizer(1, 4).withConsistentHashing(x -> x));
        assertTrue(hashing.getMessage().contains("a resizer does not go with CONSISTENT_HASHING"), hashing.getMessage());
        IllegalArgumentException broadcast = assertThrows(IllegalArgumentException.class,
                () -> Routers.pool(2, () -> self -> { }).withBroadcast().withResizer(1, 4));
        assertTrue(broadcast.getMessage().contains("a resizer does not go with BROADCAST"), broadcast.getMessage());
    }
}
