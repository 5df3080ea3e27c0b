package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Each built-in scheduler runs actors where it says it does. */
class BuiltinSchedulersTest {

    private static final Duration ASK = Duration.ofSeconds(30);

    record Where() {
    }

    private static ActorRef<Object> where(ActorSystem system, Props props) {
        return system.spawn(props, self -> self.loop(() -> self.react(Receive.<Object>handler()
                .match(Where.class, w -> self.reply(Thread.currentThread()))
                .build())));
    }

    @Test
    void piggybackRunsTheActorOnTheSpawningThreadUntilItStops() {
        try (ActorSystem system = ActorSystem.builder().name("piggy").parallelism(1).build()) {
            CompletableFuture<ActorRef<Object>> ref = new CompletableFuture<>();
            List<Thread> ranOn = new ArrayList<>();
            CompletableFuture<String> spawnReturned = new CompletableFuture<>();
            Thread caller = Thread.ofPlatform().name("piggyback-caller").start(() -> {
                system.spawn(Props.defaults().withScheduler(system.schedulers().piggyback()), self -> {
                    ranOn.add(Thread.currentThread());
                    ref.complete(self.self());
                    self.loop(() -> self.react(Receive.<Object>handler()
                            .match(Where.class, w -> {
                                ranOn.add(Thread.currentThread());
                                self.reply(Thread.currentThread());
                            })
                            .match(String.class, s -> self.stop())
                            .build()));
                });
                spawnReturned.complete("spawn returned once the actor stopped, after " + ranOn.size() + " runs");
            });
            ActorRef<Object> actor = await(ref);
            for (int i = 0; i < 3; i++) {
                assertSame(caller, await(system.<Object, Thread>ask(actor, new Where(), ASK)));
            }
            assertTrue(!spawnReturned.isDone(), "spawn blocks the calling thread while the actor lives");
            actor.tell("stop");
            assertEquals("spawn returned once the actor stopped, after 4 runs", await(spawnReturned));
            Probes.join(caller);
            assertTrue(actor.isTerminated());
        }
    }

    @Test
    void dedicatedThreadGivesEachActorItsOwnThread() {
        try (ActorSystem system = ActorSystem.builder().name("dedicated").parallelism(1).build()) {
            Props props = Props.defaults().withScheduler(system.schedulers().dedicatedThread());
            ActorRef<Object> a = where(system, props);
            ActorRef<Object> b = where(system, props);
            Thread ta = await(system.<Object, Thread>ask(a, new Where(), ASK));
            Thread tb = await(system.<Object, Thread>ask(b, new Where(), ASK));
            assertNotEquals(ta, tb);
            assertSame(ta, await(system.<Object, Thread>ask(a, new Where(), ASK)), "an actor keeps its thread");
            assertTrue(ta.getName().startsWith("weft-dedicated-actor-") && !ta.isVirtual(), ta.getName());
        }
    }

    @Test
    void timerRunsTheActorOnTheTimerThread() {
        try (ActorSystem system = ActorSystem.builder().name("ticks").parallelism(1).build()) {
            ActorRef<Object> a = where(system, Props.defaults().withScheduler(system.schedulers().timer(Duration.ofMillis(1))));
            assertEquals("weft-ticks-timer", await(system.<Object, Thread>ask(a, new Where(), ASK)).getName());
        }
    }

    @Test
    void forkJoinIsTheDefault() {
        try (ActorSystem system = ActorSystem.builder().name("pool").parallelism(1).build()) {
            Thread t = await(system.<Object, Thread>ask(where(system, Props.defaults()), new Where(), ASK));
            assertTrue(t.getName().startsWith("weft-pool-worker-"), t.getName());
        }
    }
}
