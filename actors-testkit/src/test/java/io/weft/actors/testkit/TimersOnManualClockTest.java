package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * Actor timers driven by the test kit's clock: nothing fires until the test advances it, and an
 * advance fires exactly the timers that fell due, in due order, the same under every seed.
 */
class TimersOnManualClockTest {

    /** An actor that arms three timers and records what it receives with the clock's time. */
    private static ActorRef<String> recorder(ActorSystem system, DeterministicScheduler scheduler, List<String> log) {
        return system.spawn(scheduler.props("recorder"), (ActorContext<String> self) -> {
            self.timers().startSingle("once", "once", Duration.ofMillis(250));
            self.timers().startFixedRate("rate", "rate", Duration.ofMillis(100));
            self.timers().startFixedDelay("delay", "delay", Duration.ofMillis(150), Duration.ofMillis(200));
            self.become(Receive.<String>handler().match(String.class, s -> {
                log.add(scheduler.clock().now().toMillis() + ":" + s);
                if (s.equals("stop-rate")) {
                    self.timers().cancel("rate");
                }
            }).build());
        });
    }

    @Test
    void timersFireOnlyWhenTheClockIsAdvancedInDueOrder() throws Exception {
        DeterministicScheduler.replay(7, (scheduler, system) -> {
            List<String> log = new ArrayList<>();
            ActorRef<String> actor = recorder(system, scheduler, log);
            scheduler.runUntilIdle();
            assertEquals(List.of(), log, "a timer fired before the clock moved");
            scheduler.advance(Duration.ofMillis(99));
            assertEquals(List.of(), log);
            scheduler.advance(Duration.ofMillis(1));
            // the clock has moved to the end of the advance when the actor runs
            assertEquals(List.of("100:rate"), log);
            log.clear();
            scheduler.advance(Duration.ofMillis(300)); // 150 delay, 200 rate, 250 once, 300 rate, 350 delay, 400 rate
            assertEquals(List.of("400:delay", "400:rate", "400:once", "400:rate", "400:delay", "400:rate"), log);
            log.clear();
            actor.tell("stop-rate");
            scheduler.runUntilIdle();
            scheduler.advance(Duration.ofMillis(1000)); // delay at 550, 750, 950, 1150, 1350
            assertEquals(List.of("400:stop-rate", "1400:delay", "1400:delay", "1400:delay", "1400:delay", "1400:delay"), log);
        });
    }

    @Test
    void theOrderOfTimerMessagesIsTheSameUnderEverySeed() {
        List<List<String>> runs = new ArrayList<>();
        DeterministicScheduler.exploreInterleavings(LongStream.range(0, 20), (scheduler, system) -> {
            List<String> log = new ArrayList<>();
            recorder(system, scheduler, log);
            scheduler.runUntilIdle();
            for (int i = 0; i < 10; i++) {
                scheduler.advance(Duration.ofMillis(50));
            }
            runs.add(log);
        });
        assertEquals(20, runs.size());
        assertTrue(runs.stream().allMatch(runs.get(0)::equals), runs.toString());
        assertEquals(List.of("100:rate", "150:delay", "200:rate", "250:once", "300:rate", "350:delay", "400:rate", "500:rate"),
                runs.get(0));
    }

    @Test
    void aManualClockDrivesTheTimersOfAnOrdinarySystemSynchronously() throws Exception {
        ManualClock clock = new ManualClock();
        try (ActorSystem system = ActorSystem.builder().name("manual-timers").parallelism(1).ticker(clock).build()) {
            LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
            LinkedBlockingQueue<String> armed = new LinkedBlockingQueue<>();
            system.spawn("pinger", (ActorContext<String> self) -> {
                self.timers().startSingle("k", "ping", Duration.ofSeconds(5));
                armed.add("armed");
                self.become(Receive.<String>handler().match(String.class, seen::add).build());
            });
            assertEquals("armed", armed.poll(30, TimeUnit.SECONDS));
            clock.advance(Duration.ofSeconds(4));
            system.spawn("marker", self -> { }); // nothing to wait for: the timer is not due
            clock.advance(Duration.ofSeconds(1)); // due: queued before advance returns
            assertEquals("ping", seen.poll(30, TimeUnit.SECONDS));
            assertEquals(Duration.ofSeconds(5), clock.now());
        }
    }
}
