package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.CoordinatedShutdown;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The code of docs/guide.md's sections on timers and coordinated shutdown; see
 * {@link GuideSnippetsTest} and {@link GuideMatchesSnippetsTest}.
 */
@ExtendWith(WeftExtension.class)
class GuideSnippetsTimersTest {

    // tag::timers[]
    sealed interface Poller permits Poll, Deadline, Done {}
    record Poll() implements Poller {}
    record Deadline() implements Poller {}
    record Done(String result) implements Poller {}
    // end::timers[]

    @Test
    void timers(ActorSystem system) throws Exception {
        LinkedBlockingQueue<String> log = new LinkedBlockingQueue<>();
        // tag::timers[]

    ActorRef<Poller> poller = system.spawn("poller", (ActorContext<Poller> self) -> {
        int[] polls = {0};
        self.timers().startFixedRate("poll", new Poll(), Duration.ofMillis(10)); // every 10 ms
        self.timers().startSingle("deadline", new Deadline(), Duration.ofSeconds(30)); // once
        self.become(Receive.<Poller>handler()
                .match(Poll.class, p -> {
                    if (++polls[0] == 3) {
                        self.self().tell(new Done("ready after 3 polls"));
                    }
                })
                .match(Done.class, d -> {
                    self.timers().cancelAll(); // no Poll or Deadline is handled after this
                    log.add(d.result());
                })
                .match(Deadline.class, d -> log.add("gave up"))
                .build());
    });
        // end::timers[]
        assertEquals("ready after 3 polls", log.poll(30, TimeUnit.SECONDS));
        assertTrue(poller.address().contains("poller"));
    }

    @Test
    void timersOnAManualClock() throws Exception {
        // tag::timers-test[]
        ManualClock clock = new ManualClock();
        try (ActorSystem system = ActorSystem.builder().name("timers-test").ticker(clock).build()) {
            TestProbe<String> probe = TestProbe.create(system);
            system.spawn("reminder", (ActorContext<String> self) -> {
                self.timers().startSingle("remind", "wake up", Duration.ofMinutes(5));
                probe.ref().tell("armed");
                self.become(Receive.<String>handler().match(String.class, m -> probe.ref().tell(m)).build());
            });
            probe.expectMessage("armed");
            clock.advance(Duration.ofMinutes(5)); // fires it now, on this thread: no waiting
            probe.expectMessage("wake up");
        }
        // end::timers-test[]
    }

    @Test
    void coordinatedShutdown() throws Exception {
        AtomicInteger unbound = new AtomicInteger();
        // tag::coordinated-shutdown[]
        ActorSystem system = ActorSystem.builder().name("service")
                .coordinatedShutdown(CoordinatedShutdown.Settings.defaults()
                        .withPhaseTimeout(CoordinatedShutdown.SERVICE_REQUESTS_DONE, Duration.ofSeconds(20))
                        .withPendingMail(CoordinatedShutdown.PendingMail.DRAIN, Duration.ofSeconds(5))
                        .withJvmShutdownHook(true)) // also run it when the JVM exits (SIGTERM)
                .build();
        CoordinatedShutdown shutdown = system.coordinatedShutdown();
        shutdown.addTask(CoordinatedShutdown.SERVICE_UNBIND, "stop-accepting", () -> {
            unbound.incrementAndGet(); // e.g. server.stopAccepting()
            return CompletableFuture.completedFuture(null);
        });
        shutdown.addTask(CoordinatedShutdown.SERVICE_REQUESTS_DONE, "in-flight", () ->
                CompletableFuture.runAsync(() -> { /* wait for the requests in flight */ }));
        system.close(); // runs the phases in order, drains the mailboxes, closes, logs a summary
        // end::coordinated-shutdown[]
        assertEquals(1, unbound.get());
        assertTrue(system.isClosed());
        CoordinatedShutdown.Summary s = shutdown.run().get(30, TimeUnit.SECONDS);
        assertEquals(CoordinatedShutdown.PHASES, s.phasesRun());
    }
}
