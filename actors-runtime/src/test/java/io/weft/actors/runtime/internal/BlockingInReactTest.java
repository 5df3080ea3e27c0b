package io.weft.actors.runtime.internal;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.SchedulerTuning;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Seed 000 §3.3: react handlers that block must not stop other actors. With parallelism 2, two
 * actors block both workers; the watchdog notices and adds spare workers, so a third pair's
 * ping-pong completes while they are still blocked.
 */
class BlockingInReactTest {

    @Test
    void twoBlockedHandlersDoNotStopAPingPong() throws Exception {
        SchedulerTuning tuning = SchedulerTuning.defaults().withBlockingThreshold(Duration.ofMillis(200));
        try (ActorSystem system = ActorSystem.builder().name("blocking").parallelism(2).schedulerTuning(tuning).build()) {
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch blocked = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                ActorRef<String> blocker = system.spawn("blocker-" + i, self -> self.react(Receive.<String>handler()
                        .match(String.class, s -> {
                            blocked.countDown();
                            try {
                                release.await(); // blocks a pool worker, as a lock or socket read would
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }).build()));
                blocker.tell("block");
            }
            assertTrue(blocked.await(30, TimeUnit.SECONDS));
            int rounds = 1_000;
            CountDownLatch finished = new CountDownLatch(1);
            ActorRef<Integer> pong = system.spawn("pong", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, n -> self.reply(n)).build())));
            ActorRef<Integer> ping = system.spawn("ping", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, n -> {
                        if (n == rounds) {
                            finished.countDown();
                        } else {
                            pong.tell(n + 1, self.self());
                        }
                    }).build())));
            pong.tell(0, ping);
            try {
                assertTrue(finished.await(60, TimeUnit.SECONDS), "ping-pong stalled behind blocked handlers");
                WeftSystem weft = (WeftSystem) system;
                assertTrue(((ForkJoinScheduler) weft.defaultScheduler()).blockedTurnsDetected() >= 1,
                        "the watchdog did not report the blocked handlers");
            } finally {
                release.countDown();
            }
        }
    }
}
