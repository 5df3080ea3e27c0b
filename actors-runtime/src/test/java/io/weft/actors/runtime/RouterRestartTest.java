package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Routers;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.SupervisorStrategy.Directive;
import io.weft.actors.runtime.internal.cell.RoutedRef;
import io.weft.actors.runtime.testing.Conditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A router's own restart keeps its routees: a pool's routees are neither stopped nor respawned
 * (they keep their refs and state), a group keeps its watched routees, the routes stay published
 * so one sender's messages reach each routee in order across the restart, and a balancing pool's
 * kept messages are handed to the next incarnation. Also: stopping a balancing pool while a routee
 * finishes a message leaves no dead letter of an internal router message.
 */
class RouterRestartTest {

    private static final int WAIT_S = 30;
    private static final Duration WAIT = Duration.ofSeconds(WAIT_S);
    private ActorSystem system;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("router-restart").parallelism(2).build();
    }

    @AfterEach
    void close() {
        system.close();
    }

    /** A message with its position in the one sender's sequence. */
    record Msg(int seq) {
    }

    /** Makes the routee that gets it fail with {@link Boom}. */
    record Fail() {
    }

    static final class Boom extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Boom() {
            super("boom (test)");
        }
    }

    /** What each routee handled, in order; routee starts counted. */
    static final class Log {
        final Map<ActorRef<?>, List<Integer>> byRoutee = new ConcurrentHashMap<>();
        final AtomicInteger total = new AtomicInteger();
        final AtomicInteger starts = new AtomicInteger();
        final AtomicReference<ActorRef<?>> failed = new AtomicReference<>();

        Behavior<Object> routee() {
            starts.incrementAndGet();
            return self -> self.become(Receive.handler().match(Msg.class, m -> {
                byRoutee.computeIfAbsent(self.self(), k -> new CopyOnWriteArrayList<>()).add(m.seq());
                total.incrementAndGet();
            }).match(Fail.class, f -> {
                failed.set(self.self());
                throw new Boom();
            }).build());
        }

        void assertOrderPerRoutee() {
            byRoutee.forEach((routee, seqs) -> {
                for (int i = 1; i < seqs.size(); i++) {
                    assertTrue(seqs.get(i - 1) < seqs.get(i), routee + " got seq " + seqs.get(i) + " after " + seqs.get(i - 1));
                }
            });
        }
    }

    /** Spawns {@code spec} in {@code system} with a supervisor that restarts it, counting its incarnations. */
    static <M> ActorRef<M> restartable(ActorSystem system, Behavior<M> spec, AtomicInteger incarnations) {
        Supplier<Behavior<M>> factory = () -> {
            incarnations.incrementAndGet();
            return spec;
        };
        return system.spawn(Props.defaults().withSupervisor(SupervisorStrategy.restarting()), factory);
    }

    /** Counts the dead letters whose message is a {@link Msg}. */
    private AtomicInteger deadMsgs() {
        AtomicInteger dead = new AtomicInteger();
        system.deadLetters().subscribe(d -> {
            if (d.message() instanceof Msg) {
                dead.incrementAndGet();
            }
        });
        return dead;
    }

    @Test
    void aPoolKeepsItsRouteesThroughItsOwnRestartAndOneSendersOrderHolds() {
        Log log = new Log();
        AtomicInteger incarnations = new AtomicInteger();
        // a routee's Boom is escalated: the routee stops and the router fails, and is restarted by its own supervisor
        SupervisorStrategy escalate = SupervisorStrategy.builder().on(Boom.class, Directive.ESCALATE).otherwise(Directive.RESTART).build();
        ActorRef<Object> pool = restartable(system, Routers.pool(4, log::routee).withSupervisor(escalate), incarnations);
        assertInstanceOf(RoutedRef.class, pool, "routes on the sender's thread");
        AtomicInteger dead = deadMsgs();
        int seq = 0;
        for (; seq < 2_000; seq++) {
            pool.tell(new Msg(seq));
        }
        Conditions.await(WAIT, () -> log.byRoutee.size() == 4, "all four routees have handled a message");
        Set<ActorRef<?>> first = Set.copyOf(log.byRoutee.keySet());
        pool.tell(new Fail());
        // keep telling while the router fails and restarts, and a while after
        Told sent = tellAcrossRestart(pool, seq, incarnations);
        assertTrue(sent.restartSeen() >= 0, "the router was restarted");
        int told = sent.told();
        Conditions.await(WAIT, () -> log.total.get() + dead.get() == told,
                () -> "handled " + log.total.get() + " + dead letters " + dead.get() + " of " + told);
        log.assertOrderPerRoutee();
        ActorRef<?> failed = log.failed.get();
        assertNotNull(failed);
        // the three routees that did not fail are the same actors after the restart, and still get messages
        int afterRestart = sent.restartSeen();
        for (ActorRef<?> r : first) {
            if (!r.equals(failed)) {
                List<Integer> seqs = log.byRoutee.get(r);
                assertTrue(seqs.get(seqs.size() - 1) > afterRestart, r + " kept routing after the router's restart");
                assertTrue(!r.isTerminated(), r + " is alive");
            }
        }
        // only the routee that escalated was replaced: 4 + 1 starts, not a new set of 4
        Conditions.await(WAIT, () -> log.starts.get() == 5, () -> "routee starts " + log.starts.get());
        assertEquals(2, incarnations.get());
    }

    /** How far {@link #tellAcrossRestart} told: the next seq, and the seq told when the restart was first seen (-1: never). */
    record Told(int told, int restartSeen) {
    }

    /**
     * One sender keeps telling {@code router} numbered messages from {@code seq} while it fails and
     * restarts ({@code incarnations} reaching 2), and 20,000 more after that; bounded by 3,000,000
     * messages and {@link #WAIT_S} seconds.
     */
    private static Told tellAcrossRestart(ActorRef<Object> router, int seq, AtomicInteger incarnations) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        int restartSeen = -1;
        while (seq < 3_000_000 && System.nanoTime() < deadline && (restartSeen < 0 || seq < restartSeen + 20_000)) {
            router.tell(new Msg(seq++));
            if (restartSeen < 0 && incarnations.get() == 2) {
                restartSeen = seq;
            }
        }
        return new Told(seq, restartSeen);
    }

    /** Spawns an actor of {@code system} linked to {@code router} that fails (stops with a failure) when told anything. */
    static ActorRef<String> linkedFailer(ActorSystem system, ActorRef<?> router) throws InterruptedException {
        CountDownLatch linked = new CountDownLatch(1);
        ActorRef<String> failer = system.spawn(self -> {
            self.link(router);
            linked.countDown();
            self.become(Receive.<String>handler().match(String.class, s -> {
                throw new IllegalStateException("fails so that its linked router fails (test)");
            }).build());
        });
        assertTrue(linked.await(WAIT_S, TimeUnit.SECONDS));
        return failer;
    }

    @Test
    void aGroupKeepsItsRouteesThroughItsOwnRestartAndOneSendersOrderHolds() throws Exception {
        Log log = new Log();
        List<ActorRef<Object>> routees = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            routees.add(system.spawn(log.routee()));
        }
        AtomicInteger incarnations = new AtomicInteger();
        ActorRef<Object> group = restartable(system, Routers.group(routees), incarnations);
        AtomicInteger dead = deadMsgs();
        ActorRef<String> failer = linkedFailer(system, group);
        int seq = 0;
        for (; seq < 2_000; seq++) {
            group.tell(new Msg(seq));
        }
        failer.tell("fail");
        Told sent = tellAcrossRestart(group, seq, incarnations);
        assertTrue(sent.restartSeen() >= 0, "the group router was restarted by the linked failure");
        int told = sent.told();
        Conditions.await(WAIT, () -> log.total.get() == told,
                () -> "handled " + log.total.get() + " of " + told + ", dead letters " + dead.get());
        assertEquals(0, dead.get(), "no message lost");
        log.assertOrderPerRoutee();
        assertEquals(Set.copyOf(routees), log.byRoutee.keySet());
    }

    @Test
    void aBalancingPoolHandsItsRouteesAndKeptMessagesToItsNextIncarnation() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger starts = new AtomicInteger();
        AtomicInteger handled = new AtomicInteger();
        Set<ActorRef<?>> workers = ConcurrentHashMap.newKeySet();
        Supplier<Behavior<Object>> routee = () -> {
            starts.incrementAndGet();
            return self -> self.become(Receive.handler().match(Msg.class, m -> {
                workers.add(self.self());
                Probes.await(release);
                handled.incrementAndGet();
            }).build());
        };
        AtomicInteger incarnations = new AtomicInteger();
        ActorRef<Object> pool = restartable(system, Routers.pool(2, routee).withBalancing(), incarnations);
        AtomicInteger dead = deadMsgs();
        int n = 50;
        for (int i = 0; i < n; i++) {
            pool.tell(new Msg(i));
        }
        Conditions.await(WAIT, () -> workers.size() == 2, "both routees hold a message, the rest are kept by the router");
        linkedFailer(system, pool).tell("fail");
        Conditions.await(WAIT, () -> incarnations.get() == 2, "the router restarted");
        release.countDown();
        Conditions.await(WAIT, () -> handled.get() + dead.get() == n, () -> "handled " + handled.get() + " + dead " + dead.get() + " of " + n);
        assertEquals(0, dead.get(), "the kept messages were handed over, not dead-lettered");
        assertEquals(2, starts.get(), "the routees were kept, not respawned");
    }

    @Test
    void stoppingABalancingPoolWhileARouteeFinishesLeavesNoInternalDeadLetter() throws Exception {
        List<DeadLetter> internal = new CopyOnWriteArrayList<>();
        CountDownLatch sentinel = new CountDownLatch(1);
        system.deadLetters().subscribe(d -> {
            if (d.message() != null && d.message().getClass().getName().contains(".internal.")) {
                internal.add(d);
            } else if ("sentinel".equals(d.message())) {
                sentinel.countDown();
            }
        });
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<ActorRef<?>> busy = new AtomicReference<>();
        ActorRef<Object> pool = system.spawn(Routers.<Object>pool(2, () -> self -> self.become(Receive.handler().match(Msg.class, m -> {
            busy.set(self.self());
            entered.countDown();
            Probes.await(release);
        }).build())).withBalancing());
        pool.tell(new Msg(0));
        assertTrue(entered.await(WAIT_S, TimeUnit.SECONDS));
        system.stop(pool);
        Conditions.await(WAIT, pool::isTerminated, "the pool stopped");
        release.countDown(); // the routee finishes its message after its router stopped, and says Ready
        Conditions.await(WAIT, () -> busy.get().isTerminated(), "the busy routee stopped");
        pool.tell("sentinel"); // a dead letter published after the routee's Ready
        assertTrue(sentinel.await(WAIT_S, TimeUnit.SECONDS));
        assertEquals(List.of(), internal, "no internal router message is a dead letter");
    }
}
