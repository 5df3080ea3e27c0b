package io.weft.actors.runtime.semantics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Watching actors while they stop: every watcher is told exactly once, never missed. */
class DeathwatchRaceTest {

    private static final int TARGETS = 300;

    @Test
    void terminatedIsDeliveredExactlyOnceWhenWatchRacesWithStop() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("race").parallelism(2).build()) {
            CountDownLatch stopped = new CountDownLatch(TARGETS);
            CompletableFuture<Void> watching = new CompletableFuture<>();
            List<ActorRef<Object>> targets = new ArrayList<>();
            system.lifecycle().subscribe(e -> {
                // only targets stop before close (a target can stop before spawn returned its ref,
                // so filtering on the refs collected below would race); published after the
                // actor's watchers were told
                if (e.kind() == LifecycleEvent.Kind.STOPPED) {
                    stopped.countDown();
                }
            });
            for (int i = 0; i < TARGETS; i++) {
                // stops as soon as its body returns: the watches below race with its termination
                ActorRef<Object> t = system.spawn(self -> { });
                targets.add(t);
            }
            ActorRef<Object> watcher = system.spawn(self -> {
                Set<ActorRef<?>> told = new HashSet<>();
                int[] received = {0};
                for (ActorRef<Object> t : targets) {
                    self.watch(t);
                }
                watching.complete(null);
                self.loop(() -> self.react(Receive.<Object>handler()
                        .match(Terminated.class, t -> {
                            received[0]++;
                            told.add(t.actor());
                        })
                        .match(String.class, s -> self.reply(List.of(received[0], told.size())))
                        .build()));
            });
            watching.get(30, TimeUnit.SECONDS);
            // after every target's STOPPED event, each Terminated is already in the watcher's queue,
            // ahead of the question below
            assertTrue(stopped.await(30, TimeUnit.SECONDS), "every target stops");
            List<Integer> counts = system.<Object, List<Integer>>ask(watcher, "count?", Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
            assertEquals(List.of(TARGETS, TARGETS), counts, "[Terminated received, distinct actors]");
        }
    }

    @Test
    void watchingALiveActorTwiceSendsOneTerminated() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("twice").parallelism(2).build()) {
            CountDownLatch stopped = new CountDownLatch(1);
            ActorRef<Object> target = system.spawn(self -> self.react(Receive.<Object>handler().matchAny(m -> self.stop()).build()));
            system.lifecycle().subscribe(e -> {
                if (e.kind() == LifecycleEvent.Kind.STOPPED && e.actor().equals(target)) {
                    stopped.countDown();
                }
            });
            CompletableFuture<Void> watching = new CompletableFuture<>();
            ActorRef<Object> watcher = system.spawn(self -> {
                int[] received = {0};
                self.watch(target);
                self.watch(target);
                watching.complete(null);
                self.loop(() -> self.react(Receive.<Object>handler()
                        .match(Terminated.class, t -> received[0]++)
                        .match(String.class, s -> self.reply(received[0]))
                        .build()));
            });
            watching.get(30, TimeUnit.SECONDS);
            target.tell("stop");
            assertTrue(stopped.await(30, TimeUnit.SECONDS), "the target stops");
            int received = system.<Object, Integer>ask(watcher, "count?", Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
            assertEquals(1, received);
        }
    }
}
