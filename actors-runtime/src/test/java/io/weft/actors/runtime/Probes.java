package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Test helpers: generous awaits (never timing assertions) and recorders of system events. */
final class Probes {

    /** How long any await may take before the test fails; never reached by a passing test. */
    static final long TIMEOUT_SECONDS = 30;

    private Probes() {
    }

    static <T> T await(Future<T> future) {
        try {
            return future.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        } catch (ExecutionException e) {
            throw new AssertionError("future failed: " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            return fail("no result within " + TIMEOUT_SECONDS + " s");
        }
    }

    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(TIMEOUT_SECONDS, TimeUnit.SECONDS), "latch not released within " + TIMEOUT_SECONDS + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    static void join(Thread thread) {
        try {
            thread.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        assertTrue(!thread.isAlive(), "thread " + thread.getName() + " still alive after " + TIMEOUT_SECONDS + " s");
    }

    /** Records every lifecycle event of a system; subscribe it before spawning. */
    static final class Lifecycle {
        final List<LifecycleEvent> events = new CopyOnWriteArrayList<>();
        private final Map<ActorRef<?>, CompletableFuture<LifecycleEvent>> stopped = new ConcurrentHashMap<>();

        static Lifecycle of(ActorSystem system) {
            Lifecycle l = new Lifecycle();
            system.lifecycle().subscribe(l::record);
            return l;
        }

        private void record(LifecycleEvent e) {
            events.add(e);
            if (e.kind() == LifecycleEvent.Kind.STOPPED) {
                stopped(e.actor()).complete(e);
            }
        }

        /** Completes once {@code ref} has stopped: unregistered, name released, mail dead-lettered. */
        CompletableFuture<LifecycleEvent> stopped(ActorRef<?> ref) {
            return stopped.computeIfAbsent(ref, r -> new CompletableFuture<>());
        }

        List<LifecycleEvent.Kind> kindsOf(ActorRef<?> ref) {
            return events.stream().filter(e -> e.actor().equals(ref)).map(LifecycleEvent::kind).toList();
        }
    }

    /** Records every dead letter of a system. */
    static final class Dead {
        final List<DeadLetter> letters = new CopyOnWriteArrayList<>();

        static Dead of(ActorSystem system) {
            Dead d = new Dead();
            system.deadLetters().subscribe(d.letters::add);
            return d;
        }

        List<Object> messagesTo(ActorRef<?> ref) {
            return letters.stream().filter(l -> l.recipient().equals(ref)).map(DeadLetter::message).toList();
        }
    }
}
