package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.AskTimeoutException;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class DeterministicSchedulerTest {

    private static DeterministicScheduler.Interleaving twoClients(boolean racy) {
        return (scheduler, system) -> {
            int[] value = {0};
            ActorRef<Object> store = RacyCounterProtocol.store(system, scheduler, value);
            for (int i = 0; i < 2; i++) {
                if (racy) {
                    RacyCounterProtocol.racyClient(system, scheduler, "client-" + i, store);
                } else {
                    RacyCounterProtocol.fixedClient(system, scheduler, "client-" + i, store);
                }
            }
            scheduler.runUntilIdle();
            assertEquals(2, value[0], "two increments under seed " + scheduler.seed() + ", trace " + scheduler.trace());
        };
    }

    @Test
    void explorerFindsTheLostUpdateAndItsSeedReplays() {
        DeterministicScheduler.Interleaving racy = twoClients(true);
        DeterministicScheduler.Exploration found = DeterministicScheduler.explore(LongStream.range(0, 200), racy);
        assertTrue(found.failed(), "the explorer must find a schedule that loses an update");
        long seed = found.failingSeed().getAsLong();
        System.out.println("racy counter protocol: lost update found under seed " + seed + " after " + found.runs() + " runs: "
                + found.failure().getMessage());
        assertInstanceOf(AssertionError.class, found.failure());
        // the seed replays exactly: same failure, same message (which includes the trace)
        AssertionError again = assertThrows(AssertionError.class, () -> DeterministicScheduler.replay(seed, racy));
        assertEquals(found.failure().getMessage(), again.getMessage());
        // and exploreInterleavings reports it, naming the seed
        AssertionError reported = assertThrows(AssertionError.class,
                () -> DeterministicScheduler.exploreInterleavings(LongStream.range(0, 200), racy));
        assertTrue(reported.getMessage().contains("seed " + seed), reported.getMessage());
    }

    @Test
    void fixedProtocolPassesUnderEverySchedule() {
        DeterministicScheduler.exploreInterleavings(LongStream.range(0, 200), twoClients(false));
    }

    @Test
    void sameSeedSameTraceAndSeedsDiffer() throws Exception {
        Set<List<String>> traces = new HashSet<>();
        for (long seed = 0; seed < 20; seed++) {
            List<List<String>> twice = new ArrayList<>();
            for (int run = 0; run < 2; run++) {
                List<String> trace = new ArrayList<>();
                DeterministicScheduler.replay(seed, (scheduler, system) -> {
                    ActorRef<Object> store = RacyCounterProtocol.store(system, scheduler, new int[1]);
                    for (int i = 0; i < 3; i++) {
                        RacyCounterProtocol.racyClient(system, scheduler, "c" + i, store);
                    }
                    scheduler.runUntilIdle();
                    trace.addAll(scheduler.trace());
                });
                twice.add(trace);
            }
            assertEquals(twice.get(0), twice.get(1), "seed " + seed + " must replay the same order");
            traces.add(twice.get(0));
        }
        assertTrue(traces.size() > 1, "different seeds must give different orders");
    }

    @Test
    void stepRunsOneTurnAtATime() throws Exception {
        DeterministicScheduler.replay(7, (scheduler, system) -> {
            List<Integer> seen = new ArrayList<>();
            ActorRef<Integer> a = system.spawn(scheduler.props("a"), self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, seen::add)
                    .build())));
            a.tell(1);
            a.tell(2);
            assertTrue(scheduler.step()); // start; batch of one handles message 1
            assertEquals(List.of(1), seen);
            assertEquals(1, scheduler.runnableCount());
            assertTrue(scheduler.step());
            assertEquals(List.of(1, 2), seen);
            assertFalse(scheduler.step());
        });
    }

    @Test
    void askTimeoutAndScheduledMessagesFollowTheManualClock() throws Exception {
        DeterministicScheduler.replay(1, (scheduler, system) -> {
            List<String> log = new ArrayList<>();
            ActorRef<String> silent = system.spawn(scheduler.props("silent"), self -> self.loop(() -> self.react(Receive.<String>handler()
                    .match(String.class, log::add)
                    .build())));
            CompletableFuture<String> reply = scheduler.ask(silent, "question", Duration.ofSeconds(5));
            scheduler.scheduleOnce(Duration.ofSeconds(3), silent, "tick");
            scheduler.runUntilIdle();
            assertEquals(List.of("question"), log);
            assertFalse(reply.isDone());

            scheduler.advance(Duration.ofSeconds(2));
            assertEquals(List.of("question"), log, "not due yet");
            scheduler.advance(Duration.ofSeconds(1));
            assertEquals(List.of("question", "tick"), log);
            assertFalse(reply.isDone(), "ask timeout is 5 s of manual time; 3 s passed");
            scheduler.advance(Duration.ofSeconds(2));
            ExecutionException e = assertThrows(ExecutionException.class, reply::get);
            assertInstanceOf(AskTimeoutException.class, e.getCause());
            assertEquals(Duration.ofSeconds(5), scheduler.clock().now());
        });
    }

    @Test
    void askRepliesUnderTheDeterministicScheduler() throws Exception {
        DeterministicScheduler.replay(3, (scheduler, system) -> {
            ActorRef<Integer> doubler = system.spawn(scheduler.props("doubler"), self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, n -> self.reply(n * 2))
                    .build())));
            CompletableFuture<Integer> r = scheduler.ask(doubler, 21, Duration.ofSeconds(1));
            scheduler.runUntilIdle();
            assertEquals(42, r.getNow(-1));
            assertEquals(0, scheduler.clock().advance(Duration.ofSeconds(2)), "the timeout was cancelled by the reply");
        });
    }

    @Test
    void livelockIsReportedWithTheSeed() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> DeterministicScheduler.replay(5, (scheduler, system) -> {
            ActorRef<String> ping = system.spawn(scheduler.props("forever"), self -> self.loop(() -> self.react(Receive.<String>handler()
                    .match(String.class, s -> self.self().tell(s))
                    .build())));
            ping.tell("again");
            scheduler.runUntilIdle(1000);
        }));
        assertTrue(e.getMessage().contains("seed 5"), e.getMessage());
    }

    @Test
    void rejectsBadArguments() {
        assertThrows(IllegalArgumentException.class, () -> DeterministicScheduler.withBatchSize(1, 0));
        assertThrows(IllegalArgumentException.class, () -> new ManualClock().advance(Duration.ofSeconds(-1)));
        assertNotEquals(DeterministicScheduler.withSeed(1).name(), DeterministicScheduler.withSeed(2).name());
    }
}
