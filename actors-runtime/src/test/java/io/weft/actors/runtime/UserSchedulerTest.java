package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Channel;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** A scheduler written by a user against the public SPI drives an actor: its thread, its state, its pending queue. */
class UserSchedulerTest {

    record Report() {
    }

    record Fill() {
    }

    @Test
    void actorRunsOnTheUserSchedulerInItsBatches() {
        int budget = 4;
        int messages = 40;
        SingleThreadScheduler user = new SingleThreadScheduler("user-scheduler", budget);
        try (ActorSystem system = ActorSystem.builder().name("user").parallelism(2).batchSize(50).build()) {
            CompletableFuture<Channel<String>> opened = new CompletableFuture<>();
            ActorRef<Object> ref = system.spawn(Props.named("on-user").withScheduler(user), (ActorContext<Object> self) -> {
                Set<String> threads = new HashSet<>();
                int[] handled = {0};
                Channel<String> side = self.open(String.class);
                self.loop(() -> self.react(Receive.<Object>handler()
                        .match(Integer.class, i -> {
                            threads.add(Thread.currentThread().getName());
                            handled[0]++;
                        })
                        .on(side, String.class, s -> {
                            threads.add(Thread.currentThread().getName());
                            handled[0]++;
                        })
                        .match(Fill.class, f -> {
                            // queued while this handler runs, so the next turns are full batches
                            for (int i = 0; i < messages; i++) {
                                self.self().tell(i);
                                side.tell("s" + i);
                            }
                        })
                        // kept in the mailbox until every message is in (a guard + selective receive)
                        .match(Report.class, r -> handled[0] == 4 * messages, r -> self.reply(List.of(handled[0], Set.copyOf(threads))))
                        .build()));
                opened.complete(side);
            });
            Channel<String> side = await(opened);
            for (int i = 0; i < messages; i++) {
                ref.tell(i);
                side.tell("s" + i);
            }
            ref.tell(new Fill());
            List<?> report = await(system.<Object, List<?>>ask(ref, new Report(), Duration.ofSeconds(30)));
            assertEquals(4 * messages, report.get(0));
            assertEquals(Set.of("user-scheduler"), report.get(1), "every handler ran on the user scheduler's thread");
            assertEquals(1, user.initCalls.get(), "initSchedule once per actor");
            assertEquals(1, user.pendingQueues.get(), "the opened channel's pending queue came from the user scheduler");
            assertTrue(user.scheduleCalls.get() >= 1);
        } finally {
            user.shutdown();
        }
        assertEquals(0, user.protocolErrors.get(), "frame run off the scheduler's thread, or with a state it did not set");
        // the state's counts are read after the executor ended: its writes happen-before this
        assertEquals(1, user.states.size());
        SingleThreadScheduler.CountingState s = user.states.get(0);
        int events = 4 * messages + 2; // the messages, Fill and Report
        assertEquals(events, s.events, "onBatchEvent after every handled message");
        assertEquals(budget, s.maxInBatch, "turns last exactly as long as the user's state allows");
        assertTrue(s.batches >= (events + budget - 1) / budget, "at most " + budget + " messages per turn: " + s.batches + " turns");
    }
}
