package io.weft.actors.loom.semantics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Exit;
import io.weft.actors.LinkedActorFailedException;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.runtime.ContractMatrix.Mode;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.SupervisorStrategy.Directive;
import io.weft.actors.Terminated;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Watch, links, supervision and graceful stop, for react and thread-based actors alike. */
class FailureHandlingTest {

    private static final long WAIT = 30;

    private ActorSystem system;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("failures").parallelism(2).build();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    private static <T> T await(CompletableFuture<T> f) throws Exception {
        return f.get(WAIT, TimeUnit.SECONDS);
    }

    /** Stops on "stop", fails on "boom", records anything else. */
    private static Behavior<Object> worker(Mode mode, List<Object> seen) {
        return self -> mode.serve(self, Receive.<Object>handler()
                .match(String.class, "stop"::equals, s -> self.stop())
                .match(String.class, "boom"::equals, s -> {
                    throw new IllegalStateException("boom");
                })
                .matchAny(seen::add)
                .build());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void watcherIsToldOfANormalStop(Mode mode) throws Exception {
        ActorRef<Object> target = mode.spawn(system, worker(mode, new CopyOnWriteArrayList<>()));
        CompletableFuture<Terminated> t = Watching.watch(system, target);
        target.tell("stop");
        Terminated terminated = await(t);
        assertSame(target, terminated.actor());
        assertNull(terminated.cause());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void watcherIsToldOfAFailureWithItsCause(Mode mode) throws Exception {
        ActorRef<Object> target = mode.spawn(system, worker(mode, new CopyOnWriteArrayList<>()));
        CompletableFuture<Terminated> t = Watching.watch(system, target);
        target.tell("boom");
        Terminated terminated = await(t);
        assertInstanceOf(IllegalStateException.class, terminated.cause());
        assertEquals("boom", terminated.cause().getMessage());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void watchingADeadActorDeliversTerminatedAtOnce(Mode mode) throws Exception {
        ActorRef<Object> target = mode.spawn(system, worker(mode, new CopyOnWriteArrayList<>()));
        CompletableFuture<Terminated> first = Watching.watch(system, target);
        target.tell("boom");
        await(first);
        assertTrue(target.isTerminated());
        Terminated late = await(Watching.watch(system, target));
        assertSame(target, late.actor());
        assertInstanceOf(IllegalStateException.class, late.cause());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void aLinkedFailureStopsAPartnerThatDoesNotTrapExits(Mode mode) throws Exception {
        ActorRef<Object> failing = mode.spawn(system, worker(mode, new CopyOnWriteArrayList<>()));
        CompletableFuture<Void> linked = new CompletableFuture<>();
        ActorRef<Object> partner = mode.spawn(system, self -> {
            self.link(failing);
            linked.complete(null);
            mode.serve(self, Receive.<Object>handler().matchAny(m -> { }).build());
        });
        await(linked);
        CompletableFuture<Terminated> partnerDone = Watching.watch(system, partner);
        failing.tell("boom");
        Terminated t = await(partnerDone);
        LinkedActorFailedException e = assertInstanceOf(LinkedActorFailedException.class, t.cause());
        assertEquals(failing.address(), e.linkedActor());
        assertInstanceOf(IllegalStateException.class, e.getCause());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void aPartnerTrappingExitsGetsAnExitMessage(Mode mode) throws Exception {
        ActorRef<Object> failing = mode.spawn(system, worker(mode, new CopyOnWriteArrayList<>()));
        CompletableFuture<Void> linked = new CompletableFuture<>();
        CompletableFuture<Exit> exit = new CompletableFuture<>();
        ActorRef<Object> partner = mode.spawn(system, self -> {
            self.trapExit(true);
            self.link(failing);
            linked.complete(null);
            mode.serve(self, Receive.<Object>handler().match(Exit.class, exit::complete).build());
        });
        await(linked);
        failing.tell("boom");
        Exit e = await(exit);
        assertSame(failing, e.actor());
        assertInstanceOf(IllegalStateException.class, e.cause());
        assertTrue(!partner.isTerminated());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void restartKeepsTheMailboxAndLosesOnlyTheFailingMessage(Mode mode) throws Exception {
        List<Object> seen = new CopyOnWriteArrayList<>();
        List<Thread> threads = new CopyOnWriteArrayList<>();
        AtomicInteger starts = new AtomicInteger();
        CountDownLatch gate = new CountDownLatch(1);
        CompletableFuture<Void> done = new CompletableFuture<>();
        Supplier<Behavior<Object>> factory = () -> {
            starts.incrementAndGet();
            return self -> {
                threads.add(Thread.currentThread());
                mode.serve(self, Receive.<Object>handler()
                        .match(String.class, "boom"::equals, s -> {
                            throw new IllegalStateException("boom");
                        })
                        .match(String.class, "gate"::equals, s -> {
                            try {
                                gate.await(WAIT, TimeUnit.SECONDS); // the rest is queued while we wait
                            } catch (InterruptedException e) {
                                throw new IllegalStateException(e);
                            }
                        })
                        .match(String.class, "end"::equals, s -> done.complete(null))
                        .matchAny(seen::add)
                        .build());
            };
        };
        SupervisorStrategy restart = SupervisorStrategy.builder()
                .on(IllegalStateException.class, Directive.RESTART)
                .backoff(Duration.ofMillis(1), Duration.ofMillis(10), 2.0)
                .build();
        ActorRef<Object> actor = mode.spawn(system, Props.defaults().withSupervisor(restart), factory);
        actor.tell("gate");
        for (int i = 1; i <= 5; i++) {
            actor.tell(i);
        }
        actor.tell("boom");
        for (int i = 6; i <= 10; i++) {
            actor.tell(i);
        }
        actor.tell("end");
        gate.countDown();
        await(done);
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), seen);
        assertEquals(2, starts.get());
        assertTrue(!actor.isTerminated());
        if (mode == Mode.THREAD_RECEIVE && !"continuations".equals(System.getProperty("weft.threadActors"))) {
            assertEquals(2, threads.size());
            assertNotSame(threads.get(0), threads.get(1), "the body restarts on a new thread");
            assertTrue(threads.get(1).isVirtual());
        }
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void restartsStopAfterTheMaximumWithinTheWindow(Mode mode) throws Exception {
        AtomicInteger starts = new AtomicInteger();
        SupervisorStrategy strategy = SupervisorStrategy.builder()
                .otherwise(Directive.RESTART)
                .backoff(Duration.ofMillis(1), Duration.ofMillis(4), 2.0)
                .maxRestarts(2, Duration.ofMinutes(10))
                .build();
        ActorRef<Object> actor = mode.spawn(system, Props.defaults().withSupervisor(strategy), () -> {
            starts.incrementAndGet();
            return worker(mode, new CopyOnWriteArrayList<>());
        });
        CompletableFuture<Terminated> t = Watching.watch(system, actor);
        for (int i = 0; i < 5; i++) {
            actor.tell("boom");
        }
        Terminated terminated = await(t);
        assertInstanceOf(IllegalStateException.class, terminated.cause());
        assertEquals(3, starts.get(), "the first start and two restarts");
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void resumeKeepsStateForEventBasedActorsAndRestartsThreadBasedOnes(Mode mode) throws Exception {
        AtomicInteger starts = new AtomicInteger();
        SupervisorStrategy resume = SupervisorStrategy.builder().on(IllegalStateException.class, Directive.RESUME).build();
        ActorRef<Object> counter = mode.spawn(system, Props.defaults().withSupervisor(resume), () -> {
            starts.incrementAndGet();
            int[] count = {0};
            return self -> mode.serve(self, Receive.<Object>handler()
                    .match(String.class, "inc"::equals, s -> count[0]++)
                    .match(String.class, "boom"::equals, s -> {
                        throw new IllegalStateException("boom");
                    })
                    .match(String.class, "get"::equals, s -> self.reply(count[0]))
                    .build());
        });
        counter.tell("inc");
        counter.tell("boom");
        counter.tell("inc");
        int count = await(system.<Object, Integer>ask(counter, "get", Duration.ofSeconds(WAIT)));
        if (mode == Mode.REACT_LOOP) {
            assertEquals(2, count);
            assertEquals(1, starts.get());
        } else {
            assertEquals(1, count, "a thread-based actor's stack is gone: resume restarts it");
            assertEquals(2, starts.get());
        }
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void escalateFailsTheParentWithTheChildsFailure(Mode mode) throws Exception {
        CompletableFuture<ActorRef<Object>> child = new CompletableFuture<>();
        SupervisorStrategy escalate = SupervisorStrategy.builder().otherwise(Directive.ESCALATE).build();
        ActorRef<Object> parent = mode.spawn(system, self -> {
            child.complete(mode.spawnChild(self, Props.defaults().withSupervisor(escalate), () -> worker(mode, new CopyOnWriteArrayList<>())));
            mode.serve(self, Receive.<Object>handler().matchAny(m -> { }).build());
        });
        ActorRef<Object> c = await(child);
        CompletableFuture<Terminated> parentDone = Watching.watch(system, parent);
        CompletableFuture<Terminated> childDone = Watching.watch(system, c);
        c.tell("boom");
        Terminated p = await(parentDone);
        assertInstanceOf(IllegalStateException.class, p.cause());
        assertEquals("boom", p.cause().getMessage());
        assertInstanceOf(IllegalStateException.class, await(childDone).cause());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void childrenStopWithTheirParent(Mode mode) throws Exception {
        CompletableFuture<ActorRef<Object>> child = new CompletableFuture<>();
        ActorRef<Object> parent = mode.spawn(system, self -> {
            child.complete(mode.spawnChild(self, Props.defaults(), () -> worker(mode, new CopyOnWriteArrayList<>())));
            mode.serve(self, Receive.<Object>handler().match(String.class, s -> self.stop()).build());
        });
        CompletableFuture<Terminated> childDone = Watching.watch(system, await(child));
        parent.tell("stop");
        assertNull(await(childDone).cause());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void aRestartingParentStopsItsChildrenFirst(Mode mode) throws Exception {
        List<ActorRef<Object>> children = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> firstStart = new CompletableFuture<>();
        CompletableFuture<Void> secondStart = new CompletableFuture<>();
        SupervisorStrategy restart = SupervisorStrategy.builder().otherwise(Directive.RESTART)
                .backoff(Duration.ofMillis(1), Duration.ofMillis(1), 1.0).build();
        ActorRef<Object> parent = mode.spawn(system, Props.defaults().withSupervisor(restart), () -> self -> {
            children.add(mode.spawnChild(self, Props.defaults(), () -> worker(mode, new CopyOnWriteArrayList<>())));
            (children.size() == 1 ? firstStart : secondStart).complete(null);
            mode.serve(self, Receive.<Object>handler().match(String.class, s -> {
                throw new IllegalStateException(s);
            }).build());
        });
        await(firstStart);
        CompletableFuture<Terminated> firstChild = Watching.watch(system, children.get(0));
        parent.tell("fail");
        assertNull(await(firstChild).cause(), "stopped normally by the restarting parent");
        await(secondStart);
        assertTrue(!children.get(1).isTerminated());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void gracefulStopFinishesTheCurrentMessageAndDeadLettersTheRest(Mode mode) throws Exception {
        CountDownLatch queued = new CountDownLatch(1);
        List<Object> seen = new CopyOnWriteArrayList<>();
        ActorRef<Object> actor = mode.spawn(system, self -> mode.serve(self, Receive.<Object>handler()
                .match(String.class, "stop"::equals, s -> {
                    self.stop();
                    try {
                        queued.await(WAIT, TimeUnit.SECONDS); // the rest is queued meanwhile
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                    seen.add("finished");
                })
                .matchAny(seen::add)
                .build()));
        CompletableFuture<Terminated> t = Watching.watch(system, actor);
        long before = system.deadLetters().count();
        actor.tell("stop");
        for (int i = 0; i < 7; i++) {
            actor.tell(i);
        }
        queued.countDown();
        assertNull(await(t).cause());
        assertEquals(List.of("finished"), seen);
        assertEquals(7, system.deadLetters().count() - before);
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void restartNeedsAFactory(Mode mode) {
        Props props = Props.defaults().withSupervisor(SupervisorStrategy.restarting());
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> {
                    if (mode == Mode.REACT_LOOP) {
                        system.spawn(props, (Behavior<Object>) self -> { });
                    } else {
                        system.spawnThread(props, (Behavior<Object>) self -> { });
                    }
                });
        assertTrue(e.getMessage().contains("factory"), e.getMessage());
    }
}
