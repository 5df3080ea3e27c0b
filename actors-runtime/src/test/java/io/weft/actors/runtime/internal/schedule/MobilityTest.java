package io.weft.actors.runtime.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.runtime.Awaits;
import io.weft.actors.spi.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** Weak mobility: moving an idle or running actor between schedulers loses and reorders nothing. */
class MobilityTest {

    @Test
    void anIdleActorMovesAndKeepsItsMessages() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("move-idle").parallelism(2).build()) {
            ActorRef<String> actor = system.spawn(self -> self.loop(() -> self.react(Receive.<String>handler()
                    .match(String.class, s -> self.reply(Thread.currentThread().getName())).build())));
            String before = system.<String, String>ask(actor, "where", Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
            assertTrue(before.contains("-worker-"), before);
            system.move(actor, system.schedulers().fair());
            String after = system.<String, String>ask(actor, "where", Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
            assertTrue(after.contains("-fair-"), after);
            system.move(actor, system.schedulers().forkJoin());
            String back = system.<String, String>ask(actor, "where", Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
            assertTrue(back.contains("-worker-"), back);
            assertThrows(IllegalArgumentException.class, () -> system.move(actor, system.schedulers().dedicatedThread()));
        }
    }

    @Test
    void movesUnderConcurrentSendsLoseAndReorderNothing() throws Exception {
        int senders = 3;
        int perSender = 20_000;
        try (ActorSystem system = ActorSystem.builder().name("move-busy").parallelism(2).build()) {
            Scheduler fj = system.schedulers().forkJoin();
            Scheduler fair = system.schedulers().fair();
            CountDownLatch done = new CountDownLatch(senders * perSender);
            AtomicInteger reorders = new AtomicInteger();
            Set<String> threads = ConcurrentHashMap.newKeySet();
            AtomicInteger handled = new AtomicInteger();
            ActorRef<Integer> actor = system.spawn(self -> {
                int[] last = new int[senders];
                self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> {
                    int sender = n / 1_000_000;
                    int seq = n % 1_000_000;
                    if (seq != last[sender] + 1) {
                        reorders.incrementAndGet();
                    }
                    last[sender] = seq;
                    threads.add(Thread.currentThread().getName().contains("-fair-") ? "fair" : "forkJoin");
                    // the actor also moves itself now and then (ActorContext.moveTo)
                    if (handled.incrementAndGet() % 7_919 == 0) {
                        self.moveTo(self.system().schedulers().fair());
                    }
                    done.countDown();
                }).build()));
            });
            List<Thread> sending = new ArrayList<>();
            for (int t = 0; t < senders; t++) {
                int id = t;
                sending.add(Thread.ofPlatform().start(() -> {
                    for (int i = 1; i <= perSender; i++) {
                        actor.tell(id * 1_000_000 + i);
                    }
                }));
            }
            // move back and forth while the senders run, each move after the actor made progress
            int moves = 0;
            while (done.getCount() > 0 && moves < 200) {
                long seen = done.getCount();
                system.move(actor, moves % 2 == 0 ? fair : fj);
                moves++;
                CompletableFuture<Void> progress = CompletableFuture.runAsync(() -> {
                    while (done.getCount() == seen && done.getCount() > 0) {
                        Thread.onSpinWait();
                    }
                });
                Awaits.getOrDumpThreads(progress, 30, "no progress after move " + moves + ", left " + done.getCount());
            }
            for (Thread t : sending) {
                t.join();
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), "messages lost across moves; left " + done.getCount());
            assertEquals(0, reorders.get(), "messages reordered across moves");
            assertEquals(Set.of("fair", "forkJoin"), threads);
        }
    }
}
