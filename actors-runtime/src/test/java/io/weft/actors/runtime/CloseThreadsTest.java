package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.AskTimeoutException;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

/** When {@code close()} returns, no thread the system started is alive: none is left to end later. */
class CloseThreadsTest {

    private static final int ROUNDS = 30;
    private static final Duration ASK = Duration.ofSeconds(30);

    private static List<String> liveThreadsOf(String systemName) {
        String prefix = "weft-" + systemName + "-";
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .map(t -> t.getName() + " " + t.getState())
                .toList();
    }

    private static ActorRef<Object> echo(ActorSystem system, Props props) {
        return system.spawn(props, self -> self.loop(() -> self.react(Receive.<Object>handler()
                .matchAny(m -> self.reply(m))
                .build())));
    }

    @Test
    void noSystemThreadIsAliveWhenCloseReturns() {
        for (int round = 0; round < ROUNDS; round++) {
            String name = "rounds-" + round;
            // the watchdog (a short threshold) and the reanimation thread are on
            ActorSystem system = ActorSystem.builder().name(name).parallelism(2)
                    .schedulerTuning(io.weft.actors.SchedulerTuning.defaults().withBlockingThreshold(Duration.ofMillis(50)))
                    .build();
            List<ActorRef<Object>> pool = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                pool.add(system.spawn(Props.defaults(), self -> self.loop(() -> self.react(Receive.<Object>handler()
                        .matchAny(m -> { })
                        .build()))));
            }
            ActorRef<Object> dedicated = echo(system, Props.named("dedicated").withScheduler(system.schedulers().dedicatedThread()));
            ActorRef<Object> fair = echo(system, Props.named("fair").withScheduler(system.schedulers().fair()));
            ActorRef<Object> ticking = echo(system, Props.named("ticking").withScheduler(system.schedulers().timer(Duration.ofMillis(1))));
            ActorRef<Object> waiting = system.spawnThread(Props.named("waiting").withScheduler(system.schedulers().dedicatedThread()),
                    self -> {
                        while (true) {
                            self.receiveWithin(Duration.ofMillis(1), Receive.<Object, Object>returning()
                                    .matchAny(m -> m).onTimeout(() -> "tick").build());
                        }
                    });
            // asks start the timer thread
            await(system.ask(dedicated, "d", ASK));
            await(system.ask(fair, "f", ASK));
            await(system.ask(ticking, "t", ASK));
            for (int m = 0; m < 2_000; m++) { // flood
                pool.get(m % pool.size()).tell(m);
                waiting.tell(m);
            }
            if (round % 2 == 1) { // close from inside an actor: a closer thread finishes it
                CompletableFuture<Void> asked = new CompletableFuture<>();
                ActorRef<Object> closer = system.spawn(self -> self.react(Receive.<Object>handler()
                        .matchAny(m -> {
                            self.system().close();
                            asked.complete(null);
                        })
                        .build()));
                closer.tell("close");
                await(asked);
            }
            system.close();
            assertEquals(List.of(), liveThreadsOf(name), "round " + round + ": threads alive after close returned");
        }
    }

    @Test
    void closeFromTheTimerThreadDoesNotWaitForItselfAndEndsEveryThread() {
        // The ask's 10 ms timeout may fire before whenComplete registers the callback (then the
        // callback runs on the test thread): such an attempt proves nothing and is repeated, at
        // most 50 times.
        String from = "";
        for (int attempt = 0; attempt < 50 && !from.startsWith("weft-timer-"); attempt++) {
            ActorSystem system = ActorSystem.builder().name("timer-close").parallelism(2).build();
            ActorRef<Object> silent = system.spawn("silent", self -> self.loop(() -> self.react(Receive.<Object>handler()
                    .matchAny(m -> { })
                    .build())));
            CompletableFuture<String> closedFrom = new CompletableFuture<>();
            system.ask(silent, "no answer", Duration.ofMillis(10)).whenComplete((r, e) -> {
                // on the timer thread, which completes the ask with AskTimeoutException
                system.close();
                closedFrom.complete(Thread.currentThread().getName() + " " + (e instanceof AskTimeoutException
                        || e instanceof CompletionException c && c.getCause() instanceof AskTimeoutException));
            });
            from = await(closedFrom);
            system.close(); // from outside: waits for the close begun on the timer thread
            assertEquals(0, system.actorCount());
            assertEquals(List.of(), liveThreadsOf("timer-close"));
        }
        assertEquals("weft-timer-close-timer true", from);
    }
}
