package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;
import org.slf4j.event.Level;

/** The runtime's SLF4J output, seen through {@link RecordingLoggerProvider}. */
@ExtendWith(WeftExtension.class)
class LoggingTest {

    private static final Logger LOG = LoggerFactory.getLogger(LoggingTest.class);

    @Test
    void handlerLogsCarryTheActorInTheMdc(ActorSystem system, TestProbe<String> probe) {
        ActorRef<String> worker = system.spawn("mdc-worker", self -> self.loop(() -> self.react(Receive.<String>handler()
                .match(String.class, s -> {
                    LOG.info("handling {}", s);
                    probe.ref().tell(MDC.get("weft.actor") + "#" + MDC.get("weft.actorId"));
                })
                .build())));
        worker.tell("job-1");
        probe.expectMessage("mdc-worker#" + worker.id());
        RecordingLoggerProvider.Entry entry = RecordingLoggerProvider.ENTRIES.stream()
                .filter(e -> e.message().equals("handling job-1")).findFirst().orElseThrow();
        assertEquals("mdc-worker", entry.mdc().get("weft.actor"));
        assertEquals(Long.toString(worker.id()), entry.mdc().get("weft.actorId"));
        assertNull(MDC.get("weft.actor"), "the test thread runs no actor");
    }

    @Test
    void failuresAreLoggedWithTheActorAndSystem(ActorSystem system) throws Exception {
        CountDownLatch failed = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.FAILED) {
                failed.countDown();
            }
        });
        ActorRef<String> faulty = system.spawn("faulty-logger", self -> self.react(Receive.<String>handler()
                .match(String.class, s -> {
                    throw new IllegalArgumentException("planted: " + s);
                })
                .build()));
        faulty.tell("x");
        assertTrue(failed.await(30, TimeUnit.SECONDS));
        RecordingLoggerProvider.Entry entry = RecordingLoggerProvider.ENTRIES.stream()
                .filter(e -> e.level() == Level.ERROR && e.message().contains("faulty-logger")).findFirst().orElseThrow();
        assertTrue(entry.message().contains(system.name()), entry.message());
        assertEquals("planted: x", entry.error().getMessage());
        assertEquals("faulty-logger", entry.mdc().get("weft.actor"), "logged on the actor's turn");
    }

    @Test
    void metricsThroughThePublicApi(ActorSystem system, TestProbe<Integer> probe) {
        ActorRef<Integer> echo = system.spawn("echo", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, n -> probe.ref().tell(n))
                .build())));
        for (int i = 0; i < 5; i++) {
            echo.tell(i);
        }
        for (int i = 0; i < 5; i++) {
            probe.expectMessage(Duration.ofSeconds(30), i);
        }
        // the test thread's own 5 sends are counted before tell returns; the echo's sends to the probe
        // are counted just after their offer, so they may still be in flight here
        assertTrue(system.metrics().messagesSent() >= 5, system.metrics().toString());
        assertEquals(2, system.metrics().liveActors());
    }
}
