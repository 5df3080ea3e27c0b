package io.weft.actors.runtime.internal.system;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.CoordinatedShutdown;
import io.weft.actors.CoordinatedShutdown.PendingMail;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link CoordinatedShutdown}: phase order, per-phase timeouts, failing tasks,
 * draining versus dead-lettering the pending mail, the JVM shutdown hook (its runnable run
 * directly) and bad inputs.
 */
class CoordinatedShutdownTest {

    private static final long WAIT = 30;
    private ActorSystem system;

    @AfterEach
    void close() {
        if (system != null) {
            system.close();
        }
    }

    private static CompletableFuture<Void> done() {
        return CompletableFuture.completedFuture(null);
    }

    @Test
    void phasesRunInOrderWithTheSystemStillOpenAndThenItCloses() throws Exception {
        system = ActorSystem.builder().name("cs-order").parallelism(2).build();
        ActorRef<String> echo = system.spawn("echo", (ActorContext<String> self) ->
                self.become(Receive.<String>handler().match(String.class, self::reply).build()));
        List<String> order = new CopyOnWriteArrayList<>();
        CoordinatedShutdown cs = system.coordinatedShutdown();
        List<String> reversed = new ArrayList<>(CoordinatedShutdown.PHASES);
        Collections.reverse(reversed);
        for (String phase : reversed) {
            cs.addTask(phase, "record", () -> {
                order.add(phase + " closed=" + system.isClosed());
                return done();
            });
        }
        cs.addTask(CoordinatedShutdown.SERVICE_REQUESTS_DONE, "ask", () ->
                system.<String, String>ask(echo, "still-open", Duration.ofSeconds(WAIT)).thenAccept(r -> order.add("reply " + r)));
        CompletableFuture<CoordinatedShutdown.Summary> summary = cs.run();
        CoordinatedShutdown.Summary s = summary.get(WAIT, TimeUnit.SECONDS);
        assertTrue(system.isClosed());
        List<String> expected = new ArrayList<>();
        for (String phase : CoordinatedShutdown.PHASES) {
            expected.add(phase + " closed=false");
            if (phase.equals(CoordinatedShutdown.SERVICE_REQUESTS_DONE)) {
                expected.add("reply still-open");
            }
        }
        assertEquals(expected, order);
        assertEquals(CoordinatedShutdown.PHASES, s.phasesRun());
        assertEquals(7, s.tasksRun());
        assertEquals(List.of(), s.tasksFailed());
        assertEquals(List.of(), s.tasksTimedOut());
        assertTrue(s.drainCompleted());
        system.close(); // idempotent
    }

    @Test
    void aTaskThatOverrunsItsPhaseTimeoutIsReportedAndTheShutdownGoesOn() throws Exception {
        system = ActorSystem.builder().name("cs-timeout").parallelism(2)
                .coordinatedShutdown(CoordinatedShutdown.Settings.defaults()
                        .withPhaseTimeout(CoordinatedShutdown.SERVICE_UNBIND, Duration.ofMillis(50)))
                .build();
        CompletableFuture<Void> never = new CompletableFuture<>();
        AtomicInteger later = new AtomicInteger();
        system.coordinatedShutdown().addTask(CoordinatedShutdown.SERVICE_UNBIND, "stuck", () -> never);
        system.coordinatedShutdown().addTask(CoordinatedShutdown.SERVICE_UNBIND, "quick", CoordinatedShutdownTest::done);
        system.coordinatedShutdown().addTask(CoordinatedShutdown.SERVICE_STOP, "later", () -> {
            later.incrementAndGet();
            return done();
        });
        CoordinatedShutdown.Summary s = system.coordinatedShutdown().run().get(WAIT, TimeUnit.SECONDS);
        assertEquals(List.of("service-unbind/stuck"), s.tasksTimedOut());
        assertEquals(List.of(), s.tasksFailed());
        assertEquals(1, later.get(), "the phase after the timeout did not run");
        assertTrue(system.isClosed());
        assertFalse(never.isDone(), "a timed-out task is left running, not cancelled");
    }

    @Test
    void failingTasksAreReportedAndTheShutdownGoesOn() throws Exception {
        system = ActorSystem.builder().name("cs-fail").parallelism(2).build();
        CoordinatedShutdown cs = system.coordinatedShutdown();
        cs.addTask(CoordinatedShutdown.BEFORE_SERVICE_UNBIND, "throws", () -> {
            throw new IllegalStateException("boom");
        });
        cs.addTask(CoordinatedShutdown.BEFORE_SERVICE_UNBIND, "fails", () -> CompletableFuture.failedFuture(new RuntimeException("bad")));
        cs.addTask(CoordinatedShutdown.SERVICE_STOP, "null", () -> null);
        AtomicInteger last = new AtomicInteger();
        cs.addTask(CoordinatedShutdown.ACTOR_SYSTEM_TERMINATE, "last", () -> {
            last.incrementAndGet();
            return done();
        });
        system.close();
        CoordinatedShutdown.Summary s = cs.run().get(WAIT, TimeUnit.SECONDS);
        assertEquals(List.of("before-service-unbind/throws", "before-service-unbind/fails", "service-stop/null"), s.tasksFailed());
        assertEquals(1, last.get());
        assertEquals(CoordinatedShutdown.PHASES, s.phasesRun());
        assertTrue(system.isClosed());
    }

    /** A thread-based actor with 100 messages queued behind a handler blocked on {@code gate}. */
    private static ActorRef<Object> blockedWithMail(ActorSystem system, CountDownLatch gate, AtomicInteger handled,
            CountDownLatch blocked) {
        Props props = Props.named("worker").withScheduler(system.schedulers().dedicatedThread());
        ActorRef<Object> worker = system.spawnThread(props, (ActorContext<Object> self) -> {
            Receive<Object, Object> any = Receive.<Object, Object>returning().matchAny(m -> m).build();
            self.receive(any); // "block"
            blocked.countDown();
            try {
                if (!gate.await(WAIT, TimeUnit.SECONDS)) {
                    return;
                }
            } catch (InterruptedException stopped) {
                return; // close interrupts the thread: the actor ends with its mail queued
            }
            for (;;) {
                self.receive(any);
                handled.incrementAndGet();
            }
        });
        worker.tell("block");
        for (int i = 0; i < 100; i++) {
            worker.tell(i);
        }
        return worker;
    }

    @Test
    void drainLetsTheActorsHandleTheirPendingMailBeforeTheSystemCloses() throws Exception {
        system = ActorSystem.builder().name("cs-drain").parallelism(2)
                .coordinatedShutdown(CoordinatedShutdown.Settings.defaults().withPendingMail(PendingMail.DRAIN, Duration.ofSeconds(WAIT)))
                .build();
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        system.deadLetters().subscribe(dead::add);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        AtomicInteger handled = new AtomicInteger();
        blockedWithMail(system, gate, handled, blocked);
        assertTrue(blocked.await(WAIT, TimeUnit.SECONDS));
        system.coordinatedShutdown().addTask(CoordinatedShutdown.BEFORE_ACTOR_SYSTEM_TERMINATE, "open-gate", () -> {
            gate.countDown();
            return done();
        });
        system.close();
        CoordinatedShutdown.Summary s = system.coordinatedShutdown().run().get(WAIT, TimeUnit.SECONDS);
        assertEquals(100, handled.get());
        assertTrue(s.drainCompleted());
        assertEquals(0, s.deadLettered(), s.toString()); // messagesDrained: those handled after the drain began, 0 to 100
        assertTrue(dead.stream().noneMatch(d -> d.message() instanceof Integer), dead.toString());
    }

    @Test
    void drainWaitsForATurnStillRunningWithEveryMailboxEmptySoItsMessageIsCounted() throws Exception {
        system = ActorSystem.builder().name("cs-drain-turn").parallelism(2)
                .coordinatedShutdown(CoordinatedShutdown.Settings.defaults().withPendingMail(PendingMail.DRAIN, Duration.ofSeconds(WAIT)))
                .build();
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        ActorRef<String> busy = system.spawn("busy", (ActorContext<String> self) -> self.become(Receive.<String>handler()
                .match(String.class, m -> {
                    blocked.countDown();
                    try {
                        gate.await(WAIT, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }).build()));
        busy.tell("block");
        assertTrue(blocked.await(WAIT, TimeUnit.SECONDS));
        // the one message is taken (no mailbox holds anything) and its turn has not ended
        assertEquals(1, ((ShutdownPhases) system.coordinatedShutdown()).pendingWork()[1], "the running turn is pending work");
        Thread closer = new Thread(system::close, "cs-drain-turn-closer");
        closer.start();
        try {
            long bound = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT);
            while (!inDrain(closer)) {
                assertTrue(closer.isAlive() && System.nanoTime() < bound,
                        "the shutdown did not wait in the drain for the running turn");
                Thread.yield();
            }
        } finally {
            gate.countDown();
        }
        CoordinatedShutdown.Summary s = system.coordinatedShutdown().run().get(WAIT, TimeUnit.SECONDS);
        closer.join(TimeUnit.SECONDS.toMillis(WAIT));
        assertTrue(s.drainCompleted(), s.toString());
        assertEquals(1, s.messagesDrained(), s.toString());
    }

    private static boolean inDrain(Thread t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(ShutdownPhases.class.getName()) && e.getMethodName().equals("drain")) {
                return true;
            }
        }
        return false;
    }

    @Test
    void deadLetterModeSendsThePendingMailToDeadLettersWithTheReason() throws Exception {
        system = ActorSystem.builder().name("cs-dead").parallelism(2).build();
        List<DeadLetter> dead = new CopyOnWriteArrayList<>();
        system.deadLetters().subscribe(dead::add);
        CountDownLatch gate = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        AtomicInteger handled = new AtomicInteger();
        blockedWithMail(system, gate, handled, blocked);
        assertTrue(blocked.await(WAIT, TimeUnit.SECONDS));
        system.coordinatedShutdown().addTask(CoordinatedShutdown.SERVICE_STOP, "noop", CoordinatedShutdownTest::done);
        system.close();
        CoordinatedShutdown.Summary s = system.coordinatedShutdown().run().get(WAIT, TimeUnit.SECONDS);
        assertEquals(0, handled.get());
        assertEquals(0, s.messagesDrained());
        List<DeadLetter> ints = dead.stream().filter(d -> d.message() instanceof Integer).toList();
        assertEquals(100, ints.size());
        assertTrue(ints.stream().allMatch(d -> d.reason() == DeadLetter.Reason.SYSTEM_CLOSED), ints.toString());
        assertTrue(s.deadLettered() >= 100, s.toString());
    }

    @Test
    void theJvmShutdownHookRunsTheShutdownAndACloseRemovesIt() throws Exception {
        system = ActorSystem.builder().name("cs-hook").parallelism(1)
                .coordinatedShutdown(CoordinatedShutdown.Settings.defaults().withJvmShutdownHook(true)).build();
        AtomicInteger ran = new AtomicInteger();
        system.coordinatedShutdown().addTask(CoordinatedShutdown.SERVICE_UNBIND, "unbind", () -> {
            ran.incrementAndGet();
            return done();
        });
        Thread hook = ((ShutdownPhases) system.coordinatedShutdown()).jvmHook();
        assertNotNull(hook);
        hook.run(); // what the JVM runs at exit, here on the test thread
        assertTrue(system.isClosed());
        assertEquals(1, ran.get());
        assertFalse(Runtime.getRuntime().removeShutdownHook(hook), "the hook is still registered after the shutdown");

        ActorSystem other = ActorSystem.builder().name("cs-hook-2").parallelism(1)
                .coordinatedShutdown(CoordinatedShutdown.Settings.defaults().withJvmShutdownHook(true)).build();
        Thread h = ((ShutdownPhases) other.coordinatedShutdown()).jvmHook();
        other.close();
        assertFalse(Runtime.getRuntime().removeShutdownHook(h), "close did not remove the hook");
        try (ActorSystem none = ActorSystem.builder().name("cs-hook-3").parallelism(1).build()) {
            assertNull(((ShutdownPhases) none.coordinatedShutdown()).jvmHook());
        }
    }

    @Test
    void badInputsAreRefusedNamingTheValueAndTheFix() throws Exception {
        system = ActorSystem.builder().name("cs-bad").parallelism(1).build();
        CoordinatedShutdown cs = system.coordinatedShutdown();
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class, () -> cs.addTask("unbind", "t", CoordinatedShutdownTest::done));
        assertTrue(unknown.getMessage().contains("\"unbind\"") && unknown.getMessage().contains("service-unbind"), unknown.getMessage());
        NullPointerException nullTask = assertThrows(NullPointerException.class, () -> cs.addTask(CoordinatedShutdown.SERVICE_STOP, "t", null));
        assertTrue(nullTask.getMessage().contains("cs-bad") && nullTask.getMessage().contains("Supplier"), nullTask.getMessage());
        assertThrows(NullPointerException.class, () -> cs.addTask(null, "t", CoordinatedShutdownTest::done));
        assertThrows(IllegalArgumentException.class, () -> cs.addTask(CoordinatedShutdown.SERVICE_STOP, " ", CoordinatedShutdownTest::done));
        assertThrows(IllegalArgumentException.class, () -> CoordinatedShutdown.Settings.defaults().withPhaseTimeout("nope", Duration.ofSeconds(1)));
        IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                () -> CoordinatedShutdown.Settings.defaults().withPhaseTimeout(CoordinatedShutdown.SERVICE_STOP, Duration.ZERO));
        assertTrue(zero.getMessage().contains("PT0S"), zero.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> CoordinatedShutdown.Settings.defaults().withPendingMail(PendingMail.DRAIN, Duration.ofSeconds(-1)));
        CompletableFuture<Throwable> late = new CompletableFuture<>();
        cs.addTask(CoordinatedShutdown.SERVICE_STOP, "adds-too-late", () -> {
            try {
                cs.addTask(CoordinatedShutdown.SERVICE_UNBIND, "late", CoordinatedShutdownTest::done);
                late.complete(null);
            } catch (RuntimeException e) {
                late.complete(e);
            }
            return done();
        });
        system.close();
        Throwable e = late.get(WAIT, TimeUnit.SECONDS);
        assertTrue(e instanceof IllegalStateException && e.getMessage().contains("already started"), String.valueOf(e));
    }
}
