package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** close() under load: bounded, complete, idempotent, safe from inside an actor, nothing lost. */
class ShutdownTest {

    private static final int REACT_ACTORS = 200;
    private static final int THREAD_ACTORS = 8;

    @ParameterizedTest(name = "close from inside an actor: {0}")
    @ValueSource(booleans = {false, true})
    void closeUnderLoadStopsEverythingAndLosesNothing(boolean fromInside) throws Exception {
        ActorSystem system = ActorSystem.builder().name("shutdown-" + fromInside).parallelism(2).build();
        AtomicLong sent = new AtomicLong();
        AtomicLong handled = new AtomicLong();
        AtomicLong dead = new AtomicLong();
        AtomicLong closedDead = new AtomicLong();
        Map<ActorRef<?>, AtomicInteger> stopped = new ConcurrentHashMap<>();
        AtomicInteger cleanups = new AtomicInteger();
        system.deadLetters().subscribe(d -> {
            dead.incrementAndGet();
            if (d.reason() == DeadLetter.Reason.SYSTEM_CLOSED) {
                closedDead.incrementAndGet();
            }
        });
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.STOPPED) {
                stopped.computeIfAbsent(e.actor(), k -> new AtomicInteger()).incrementAndGet();
            }
        });
        List<ActorRef<Integer>> refs = new ArrayList<>();
        for (int i = 0; i < REACT_ACTORS; i++) {
            refs.add(system.spawn(self -> self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> {
                handled.incrementAndGet();
                if (n % 7 == 0) { // actor-to-actor traffic keeps the pool busy during close
                    sent.incrementAndGet();
                    refs.get(n % refs.size()).tell(n + 1);
                }
            }).build()))));
        }
        for (int i = 0; i < THREAD_ACTORS; i++) {
            refs.add(system.spawnThread(Props.defaults().withScheduler(system.schedulers().dedicatedThread()), self -> {
                try {
                    for (;;) {
                        self.receive(Receive.<Integer, Integer>returning().match(Integer.class, n -> n).build());
                        handled.incrementAndGet();
                    }
                } finally {
                    cleanups.incrementAndGet(); // the thread actor's stop hook
                }
            }));
        }
        int spawned = refs.size();
        CountDownLatch loaded = new CountDownLatch(2);
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            senders.add(Thread.ofPlatform().start(() -> {
                int n = 0;
                while (!stop.get()) {
                    sent.incrementAndGet();
                    refs.get(n % spawned).tell(n);
                    if (++n == 50_000) {
                        loaded.countDown();
                    }
                }
            }));
        }
        assertTrue(loaded.await(60, TimeUnit.SECONDS));
        CompletableFuture<Void> closed;
        if (fromInside) {
            CompletableFuture<Void> returned = new CompletableFuture<>();
            ActorRef<String> closer = system.spawn(self -> self.react(Receive.<String>handler().matchAny(m -> {
                system.close(); // returns at once from inside; the handler finishes normally
                returned.complete(null);
            }).build()));
            closer.tell("close");
            Awaits.getOrDumpThreads(returned, 60, "the closer's handler returned from close()");
            closed = CompletableFuture.runAsync(system::close); // waits for the close begun inside
        } else {
            closed = CompletableFuture.runAsync(system::close);
        }
        // bounded: a hang fails here instead of hanging the build
        Awaits.getOrDumpThreads(closed, 60, "close() returned");
        stop.set(true);
        for (Thread t : senders) {
            t.join();
        }
        system.close(); // idempotent
        assertTrue(system.isClosed());
        assertEquals(0, system.actorCount());
        assertEquals(sent.get(), handled.get() + dead.get(), "sent = handled + dead letters");
        assertEquals(closedDead.get(), system.deadLetters().count(DeadLetter.Reason.SYSTEM_CLOSED),
                "the undelivered count is reported by dead-letter reason");
        assertTrue(closedDead.get() > 0, "the load left undelivered messages at close");
        assertEquals(THREAD_ACTORS, cleanups.get(), "each thread actor's stop hook ran once");
        int expectedStopped = spawned + (fromInside ? 1 : 0);
        assertEquals(expectedStopped, stopped.size(), "every actor stopped");
        assertTrue(stopped.values().stream().allMatch(c -> c.get() == 1), "each STOPPED event once");
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("weft-" + system.name() + "-")) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(t.isAlive(), "thread " + t.getName() + " outlived close");
            }
        }
    }

    @Test
    void andThenCleanupAndStoppedEventRunOnceAcrossStopAndClose() throws Exception {
        ActorSystem system = ActorSystem.builder().name("shutdown-hooks").parallelism(1).build();
        AtomicInteger cleanup = new AtomicInteger();
        AtomicInteger stoppedEvents = new AtomicInteger();
        CountDownLatch stopped = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.STOPPED) {
                stoppedEvents.incrementAndGet();
                stopped.countDown();
            }
        });
        // the body's last step is cleanup; after it nothing is left, so the actor stops
        ActorRef<String> a = system.spawn(self -> self.andThen(
                () -> self.react(Receive.<String>handler().matchAny(m -> { }).build()),
                cleanup::incrementAndGet));
        a.tell("done");
        assertTrue(stopped.await(60, TimeUnit.SECONDS));
        system.close();
        system.close();
        assertEquals(1, cleanup.get(), "the andThen cleanup ran once");
        assertEquals(1, stoppedEvents.get(), "one STOPPED event");
        assertTrue(a.isTerminated());
    }
}
