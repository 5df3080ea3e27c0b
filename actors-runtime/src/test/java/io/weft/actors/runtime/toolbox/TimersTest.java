package io.weft.actors.runtime.toolbox;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.Timers;
import io.weft.actors.runtime.internal.system.WeftSystem;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The contract of {@link Timers}: single, fixed-delay and fixed-rate timers, replacement by key
 * (the replaced timer's message is never handled, even when it is already queued), cancel,
 * isActive, cancellation on stop and on restart, thread-based actors, owner-only calls and bad
 * inputs. The tests that need a message to be queued at a known point drive the system's timers
 * with a manual ticker; none asserts on timing.
 */
class TimersTest {

    private static final long WAIT = 30;
    private ActorSystem system;

    @AfterEach
    void close() {
        if (system != null) {
            system.close();
        }
    }

    private StepTicker manualSystem(String name) {
        StepTicker ticker = new StepTicker();
        system = ActorSystem.builder().name(name).parallelism(2).ticker(ticker).build();
        return ticker;
    }

    private static String poll(LinkedBlockingQueue<String> q) throws InterruptedException {
        String s = q.poll(WAIT, TimeUnit.SECONDS);
        assertNotNull(s, "nothing arrived within " + WAIT + " s");
        return s;
    }

    @Test
    void aSingleTimerSendsItsMessageOnceAndIsInactiveAfterIt() throws Exception {
        system = ActorSystem.builder().name("timers-single").parallelism(2).build();
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        system.spawn("single", (ActorContext<String> self) -> {
            self.timers().startSingle("k", "tick", Duration.ofMillis(5));
            seen.add("active:" + self.timers().isActive("k"));
            self.become(Receive.<String>handler().match(String.class, s -> {
                seen.add(s + " active:" + self.timers().isActive("k"));
                self.timers().startSingle("marker", "marker", Duration.ofMillis(20));
            }).build());
        });
        assertEquals("active:true", poll(seen));
        assertEquals("tick active:false", poll(seen));
        assertEquals("marker active:false", poll(seen)); // the single timer did not send again
    }

    @Test
    void aFixedDelayTimerRepeatsUntilCancelled() throws Exception {
        system = ActorSystem.builder().name("timers-delay").parallelism(2).build();
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        system.spawn("delay", (ActorContext<String> self) -> {
            int[] n = {0};
            self.timers().startFixedDelay("k", "tick", Duration.ofMillis(2), Duration.ofMillis(3));
            self.become(Receive.<String>handler().match(String.class, s -> {
                seen.add(s);
                if (s.equals("tick") && ++n[0] == 3) {
                    self.timers().cancel("k");
                    seen.add("active:" + self.timers().isActive("k"));
                    self.timers().startSingle("marker", "marker", Duration.ofMillis(30));
                }
            }).build());
        });
        assertEquals(List.of("tick", "tick", "tick", "active:false", "marker"),
                List.of(poll(seen), poll(seen), poll(seen), poll(seen), poll(seen)));
    }

    @Test
    void aFixedRateTimerRepeatsAndStaysActive() throws Exception {
        system = ActorSystem.builder().name("timers-rate").parallelism(2).build();
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        system.spawn("rate", (ActorContext<String> self) -> {
            int[] n = {0};
            self.timers().startFixedRate("k", "tick", Duration.ofMillis(2));
            self.become(Receive.<String>handler().match(String.class, s -> {
                if (++n[0] <= 5) {
                    seen.add(s + " active:" + self.timers().isActive("k"));
                }
                if (n[0] == 5) {
                    self.timers().cancelAll();
                }
            }).build());
        });
        for (int i = 0; i < 5; i++) {
            assertEquals("tick active:true", poll(seen));
        }
    }

    @Test
    void fixedRateCatchesUpAndFixedDelayDoesNotUnderAManualTicker() throws Exception {
        StepTicker ticker = manualSystem("timers-kinds");
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        CountDownLatch armed = new CountDownLatch(1);
        system.spawn("kinds", (ActorContext<String> self) -> {
            self.timers().startFixedRate("rate", "rate", Duration.ofMillis(100));
            self.timers().startFixedDelay("delay", "delay", Duration.ofMillis(100));
            armed.countDown();
            self.become(Receive.<String>handler().match(String.class, seen::add).build());
        });
        assertTrue(armed.await(WAIT, TimeUnit.SECONDS));
        ticker.advance(Duration.ofMillis(350)); // ticks at 1 ms: rate fires at 100, 200, 300; delay as well
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            got.add(poll(seen));
        }
        assertEquals(3, got.stream().filter("rate"::equals).count(), got.toString());
        assertEquals(3, got.stream().filter("delay"::equals).count(), got.toString());
    }

    /**
     * The replaced timer's message is already in the mailbox when the key is restarted (the actor
     * is busy in a handler while the ticker fires it): it must never be handled.
     */
    @Test
    void restartingAKeyNeverDeliversTheReplacedTimersQueuedMessage() throws Exception {
        StepTicker ticker = manualSystem("timers-replace");
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        CountDownLatch inBusy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ActorRef<String> actor = system.spawn("replacer", (ActorContext<String> self) -> {
            self.timers().startSingle("k", "old", Duration.ofSeconds(1));
            self.become(Receive.<String>handler().match(String.class, s -> {
                if (s.equals("busy")) {
                    inBusy.countDown();
                    try {
                        assertTrue(release.await(WAIT, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    self.timers().startSingle("k", "new", Duration.ofSeconds(1));
                    seen.add("replaced, active:" + self.timers().isActive("k"));
                } else {
                    seen.add(s);
                }
            }).build());
        });
        actor.tell("busy");
        assertTrue(inBusy.await(WAIT, TimeUnit.SECONDS));
        ticker.advance(Duration.ofSeconds(1)); // "old" is queued behind the running handler now
        release.countDown();
        assertEquals("replaced, active:true", poll(seen));
        actor.tell("after-replace");
        assertEquals("after-replace", poll(seen), "the old timer's message was handled");
        ticker.advance(Duration.ofSeconds(1));
        assertEquals("new", poll(seen));
    }

    @Test
    void aCancelledTimersQueuedMessageIsNeverHandled() throws Exception {
        StepTicker ticker = manualSystem("timers-cancel");
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        CountDownLatch inBusy = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        ActorRef<String> actor = system.spawn("canceller", (ActorContext<String> self) -> {
            self.timers().startFixedRate("k", "tick", Duration.ofSeconds(1));
            self.become(Receive.<String>handler().match(String.class, s -> {
                if (s.equals("busy")) {
                    inBusy.countDown();
                    try {
                        assertTrue(release.await(WAIT, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    self.timers().cancel("k");
                    seen.add("cancelled, active:" + self.timers().isActive("k"));
                } else {
                    seen.add(s);
                }
            }).build());
        });
        actor.tell("busy");
        assertTrue(inBusy.await(WAIT, TimeUnit.SECONDS));
        ticker.advance(Duration.ofSeconds(1));
        release.countDown();
        assertEquals("cancelled, active:false", poll(seen));
        ticker.advance(Duration.ofSeconds(5));
        actor.tell("marker");
        assertEquals("marker", poll(seen), "a cancelled timer's message was handled");
    }

    @Test
    void stoppingAnActorCancelsItsTimers() throws Exception {
        StepTicker ticker = manualSystem("timers-stop");
        CountDownLatch armed = new CountDownLatch(1);
        List<DeadLetter> dead = new java.util.concurrent.CopyOnWriteArrayList<>();
        system.deadLetters().subscribe(dead::add);
        ActorRef<String> actor = system.spawn("stopper", (ActorContext<String> self) -> {
            self.timers().startFixedRate("a", "a", Duration.ofSeconds(1));
            self.timers().startSingle("b", "b", Duration.ofHours(1));
            armed.countDown();
            self.become(Receive.<String>handler().match(String.class, s -> { }).build());
        });
        assertTrue(armed.await(WAIT, TimeUnit.SECONDS));
        CompletableFuture<Void> stopped = new CompletableFuture<>();
        system.lifecycle().subscribe(e -> {
            if (e.actor().equals(actor) && e.kind() == io.weft.actors.LifecycleEvent.Kind.STOPPED) {
                stopped.complete(null);
            }
        });
        system.stop(actor);
        stopped.get(WAIT, TimeUnit.SECONDS);
        ticker.advance(Duration.ZERO); // the wheel takes the cancellations
        assertEquals(0, ((WeftSystem) system).timerWheel().pendingCount(), "timers of a stopped actor are still armed");
        ticker.advance(Duration.ofSeconds(10));
        assertTrue(dead.stream().noneMatch(d -> "a".equals(d.message())), dead.toString());
    }

    @Test
    void aRestartCancelsTheTimersOfThePreviousIncarnation() throws Exception {
        StepTicker ticker = manualSystem("timers-restart");
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        int[] incarnation = {0};
        ActorRef<String> actor = system.spawn(Props.named("restarter").withSupervisor(SupervisorStrategy.restarting()), () -> self -> {
            int me = ++incarnation[0];
            if (me == 1) {
                self.timers().startFixedRate("old", "old-tick", Duration.ofSeconds(1));
            }
            seen.add("started " + me);
            self.become(Receive.<String>handler().match(String.class, s -> {
                if (s.equals("fail")) {
                    throw new IllegalStateException("test failure");
                }
                seen.add(me + ":" + s + " active:" + self.timers().isActive("old"));
            }).build());
        });
        assertEquals("started 1", poll(seen));
        actor.tell("fail");
        assertEquals("started 2", poll(seen));
        ticker.advance(Duration.ofSeconds(3));
        actor.tell("marker");
        assertEquals("2:marker active:false", poll(seen), "the first incarnation's timer reached the second");
    }

    @Test
    void aThreadBasedActorReceivesItsTimerMessagesInReceive() throws Exception {
        system = ActorSystem.builder().name("timers-thread").parallelism(2).build();
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        Props props = Props.named("threaded").withScheduler(system.schedulers().dedicatedThread());
        system.spawnThread(props, (ActorContext<String> self) -> {
            Receive<String, String> any = Receive.<String, String>returning().match(String.class, s -> s).build();
            self.timers().startSingle("once", "once", Duration.ofMillis(5));
            seen.add(self.receive(any));
            self.timers().startFixedRate("rate", "rate", Duration.ofMillis(2));
            for (int i = 0; i < 3; i++) {
                seen.add(self.receive(any));
            }
            self.timers().cancel("rate");
            seen.add("active:" + self.timers().isActive("rate"));
        });
        assertEquals(List.of("once", "rate", "rate", "rate", "active:false"),
                List.of(poll(seen), poll(seen), poll(seen), poll(seen), poll(seen)));
    }

    @Test
    void aThreadBasedActorNeverReceivesAReplacedTimersMessage() throws Exception {
        StepTicker ticker = manualSystem("timers-thread-replace");
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        CountDownLatch armed = new CountDownLatch(1);
        CountDownLatch fired = new CountDownLatch(1);
        Props props = Props.named("threaded").withScheduler(system.schedulers().dedicatedThread());
        ActorRef<String> actor = system.spawnThread(props, (ActorContext<String> self) -> {
            Receive<String, String> any = Receive.<String, String>returning().match(String.class, s -> s).build();
            self.timers().startSingle("k", "old", Duration.ofSeconds(1));
            armed.countDown();
            try {
                assertTrue(fired.await(WAIT, TimeUnit.SECONDS)); // "old" is queued now
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            self.timers().startSingle("k", "new", Duration.ofSeconds(1));
            seen.add(self.receive(any));
            seen.add(self.receive(any));
        });
        assertTrue(armed.await(WAIT, TimeUnit.SECONDS));
        ticker.advance(Duration.ofSeconds(1));
        fired.countDown();
        actor.tell("marker");
        assertEquals("marker", poll(seen), "the replaced timer's message was received");
        ticker.advance(Duration.ofSeconds(1));
        assertEquals("new", poll(seen));
    }

    @Test
    void timersFromAForeignThreadAreRefusedNamingTheActor() throws Exception {
        system = ActorSystem.builder().name("timers-owner").parallelism(2).build();
        CompletableFuture<ActorContext<String>> ctx = new CompletableFuture<>();
        CompletableFuture<Timers<String>> timers = new CompletableFuture<>();
        system.spawn("owner", (ActorContext<String> self) -> {
            timers.complete(self.timers());
            ctx.complete(self);
            self.become(Receive.<String>handler().match(String.class, s -> { }).build());
        });
        Timers<String> t = timers.get(WAIT, TimeUnit.SECONDS);
        List<Function<Timers<String>, Object>> calls = List.of(
                x -> { x.startSingle("k", "m", Duration.ofSeconds(1)); return null; },
                x -> { x.startFixedDelay("k", "m", Duration.ofSeconds(1)); return null; },
                x -> { x.startFixedRate("k", "m", Duration.ofSeconds(1)); return null; },
                x -> { x.cancel("k"); return null; },
                x -> x.isActive("k"),
                x -> { x.cancelAll(); return null; });
        for (Function<Timers<String>, Object> call : calls) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> call.apply(t));
            assertTrue(e.getMessage().contains("owner") && e.getMessage().contains("timers()."), e.getMessage());
        }
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ctx.get(WAIT, TimeUnit.SECONDS).timers());
        assertTrue(e.getMessage().contains("timers") && e.getMessage().contains(Thread.currentThread().getName()), e.getMessage());
    }

    @Test
    void badInputsAreRefusedNamingTheActorTheValueAndTheFix() throws Exception {
        system = ActorSystem.builder().name("timers-bad").parallelism(2).build();
        CompletableFuture<List<Throwable>> result = new CompletableFuture<>();
        system.spawn("bad", (ActorContext<String> self) -> {
            Timers<String> t = self.timers();
            List<Runnable> calls = List.of(
                    () -> t.startSingle(null, "m", Duration.ofSeconds(1)),
                    () -> t.startSingle("k", null, Duration.ofSeconds(1)),
                    () -> t.startSingle("k", "m", Duration.ZERO),
                    () -> t.startSingle("k", "m", Duration.ofMillis(-5)),
                    () -> t.startSingle("k", "m", null),
                    () -> t.startFixedDelay("k", "m", Duration.ofSeconds(1), Duration.ZERO),
                    () -> t.startFixedRate("k", "m", Duration.ofSeconds(-1)),
                    () -> t.startFixedRate("k", "m", Duration.ZERO, Duration.ofSeconds(1)));
            List<Throwable> thrown = new ArrayList<>();
            for (Runnable r : calls) {
                try {
                    r.run();
                    thrown.add(null);
                } catch (RuntimeException e) {
                    thrown.add(e);
                }
            }
            thrown.add(t.isActive("k") ? new AssertionError("a refused timer is active") : null);
            result.complete(thrown);
        });
        List<Throwable> thrown = result.get(WAIT, TimeUnit.SECONDS);
        assertEquals(9, thrown.size());
        assertTrue(thrown.get(0) instanceof NullPointerException && thrown.get(0).getMessage().contains("key is null"), "" + thrown.get(0));
        assertTrue(thrown.get(1) instanceof NullPointerException && thrown.get(1).getMessage().contains("message"), "" + thrown.get(1));
        assertTrue(thrown.get(2) instanceof IllegalArgumentException && thrown.get(2).getMessage().contains("PT0S")
                && thrown.get(2).getMessage().contains("must be positive") && thrown.get(2).getMessage().contains("Duration.ofMillis(1)"),
                "" + thrown.get(2));
        assertTrue(thrown.get(3) instanceof IllegalArgumentException && thrown.get(3).getMessage().contains("PT-0.005S"), "" + thrown.get(3));
        assertTrue(thrown.get(4) instanceof NullPointerException && thrown.get(4).getMessage().contains("delay"), "" + thrown.get(4));
        assertTrue(thrown.get(5) instanceof IllegalArgumentException && thrown.get(5).getMessage().contains("delay"), "" + thrown.get(5));
        assertTrue(thrown.get(6) instanceof IllegalArgumentException && thrown.get(6).getMessage().contains("interval"), "" + thrown.get(6));
        assertTrue(thrown.get(7) instanceof IllegalArgumentException && thrown.get(7).getMessage().contains("initialDelay"), "" + thrown.get(7));
        for (int i = 0; i < 8; i++) {
            assertTrue(thrown.get(i).getMessage().contains("bad"), "does not name the actor: " + thrown.get(i).getMessage());
        }
        assertEquals(null, thrown.get(8));
        assertFalse(system.isClosed());
    }
}
