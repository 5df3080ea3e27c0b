package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Channel;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.runtime.ContractMatrix.Fixture;
import io.weft.actors.runtime.ContractMatrix.MailboxKind;
import io.weft.actors.runtime.ContractMatrix.Mode;
import io.weft.actors.runtime.ContractMatrix.SchedulerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Seed 004 §2: one actor, several typed channels, FIFO per channel, fairness across channels. */
class ChannelsTest {

    private static final int BATCH = 8;
    private static final int FLOOD = 20 * BATCH;

    /** The three channels of the actor under test, as it opened them. */
    record Channels(Channel<Integer> ints, Channel<String> strings, Channel<Long> longs) {
    }

    record Fill() {
    }

    record Done() {
    }

    @Test
    void fifoPerChannelWithConcurrentSenders() {
        int n = 3_000;
        try (ActorSystem system = ActorSystem.builder().name("channels").parallelism(2).batchSize(BATCH).build()) {
            CompletableFuture<Channels> opened = new CompletableFuture<>();
            CompletableFuture<List<List<Object>>> result = new CompletableFuture<>();
            system.spawn((ActorContext<Object> self) -> {
                Channels c = new Channels(self.open(Integer.class), self.open(String.class), self.open(Long.class));
                List<List<Object>> seen = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
                int[] handled = {0};
                Runnable check = () -> {
                    if (++handled[0] == 3 * n) {
                        result.complete(seen);
                    }
                };
                self.loop(() -> self.react(Receive.<Object>handler()
                        .on(c.ints(), Integer.class, i -> {
                            seen.get(0).add(i);
                            check.run();
                        })
                        .on(c.strings(), String.class, s -> {
                            seen.get(1).add(s);
                            check.run();
                        })
                        .on(c.longs(), Long.class, l -> {
                            seen.get(2).add(l);
                            check.run();
                        })
                        .build()));
                opened.complete(c);
            });
            Channels c = await(opened);
            List<Thread> senders = List.of(
                    Thread.ofPlatform().start(() -> {
                        for (int i = 0; i < n; i++) {
                            c.ints().tell(i);
                        }
                    }),
                    Thread.ofPlatform().start(() -> {
                        for (int i = 0; i < n; i++) {
                            c.strings().tell("s" + i);
                        }
                    }),
                    Thread.ofPlatform().start(() -> {
                        for (long i = 0; i < n; i++) {
                            c.longs().tell(i);
                        }
                    }));
            senders.forEach(Probes::join);
            List<List<Object>> seen = await(result);
            List<Object> ints = new ArrayList<>();
            List<Object> strings = new ArrayList<>();
            List<Object> longs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                ints.add(i);
                strings.add("s" + i);
                longs.add((long) i);
            }
            assertEquals(ints, seen.get(0));
            assertEquals(strings, seen.get(1));
            assertEquals(longs, seen.get(2));
        }
    }

    /**
     * The flooded channel gets at most one turn before the others' turn: the handler that floods
     * runs on the actor itself, so every message is queued before the next one is handled, and the
     * order of handling is a deterministic function of the turn's budget (the system's batch size,
     * or a user scheduler's own budget). Drawn from {@code ContractMatrix#channelFairnessCross}: every
     * scheduler whose turns are cut by a count, with every mailbox kind.
     */
    @ParameterizedTest(name = "{0}, {1}, {2}")
    @MethodSource("io.weft.actors.runtime.ContractMatrix#channelFairnessCross")
    void aFloodedChannelDoesNotStarveTheOthers(SchedulerKind kind, MailboxKind mailbox, Mode mode) {
        try (Fixture fixture = Fixture.open(kind, "fair", BATCH)) {
            ActorSystem system = fixture.system();
            CompletableFuture<ActorRef<Object>> started = new CompletableFuture<>();
            CompletableFuture<List<String>> result = new CompletableFuture<>();
            fixture.start(mode, fixture.props("flooded", mailbox), mode.behavior((ActorContext<Object> self) -> {
                Channel<Integer> flood = self.open(Integer.class);
                Channel<String> light = self.open(String.class);
                Channel<Long> other = self.open(Long.class);
                List<String> log = new ArrayList<>();
                java.util.function.Consumer<String> record = what -> {
                    log.add(what);
                    if (log.size() == FLOOD + 3) {
                        result.complete(log);
                    }
                };
                started.complete(self.self());
                return Receive.<Object>handler()
                        .match(Fill.class, f -> {
                            for (int i = 0; i < FLOOD; i++) {
                                flood.tell(i);
                            }
                            light.tell("light");
                            other.tell(7L);
                            self.self().tell(new Done());
                        })
                        .on(flood, Integer.class, i -> record.accept("flood"))
                        .on(light, String.class, s -> record.accept("light"))
                        .on(other, Long.class, l -> record.accept("other"))
                        .match(Done.class, d -> record.accept("main"))
                        .build();
            }));
            await(started).tell(new Fill());
            List<String> log = await(result);
            assertEquals(FLOOD + 3, log.size());
            int floodBeforeLight = (int) log.subList(0, log.indexOf("light")).stream().filter("flood"::equals).count();
            int floodBeforeOther = (int) log.subList(0, log.indexOf("other")).stream().filter("flood"::equals).count();
            int floodBeforeMain = (int) log.subList(0, log.indexOf("main")).stream().filter("flood"::equals).count();
            String cell = kind + ", " + mailbox + ", " + mode + ": ";
            int turn = kind.turnBound(BATCH);
            assertTrue(floodBeforeLight <= turn, cell + "light channel waited for " + floodBeforeLight + " flood messages; a turn is " + turn);
            assertTrue(floodBeforeOther <= turn, cell + "third channel waited for " + floodBeforeOther + " flood messages");
            assertTrue(floodBeforeMain <= 2 * turn, cell + "main channel waited for " + floodBeforeMain + " flood messages");
            assertTrue(floodBeforeMain < FLOOD, cell + "the flood was not fully drained before the others");
        }
    }

    @Test
    void channelRefusesMessagesOfAnotherType() {
        try (ActorSystem system = ActorSystem.builder().name("typed").parallelism(1).build()) {
            CompletableFuture<Channel<Integer>> opened = new CompletableFuture<>();
            ActorRef<Object> owner = system.spawn((ActorContext<Object> self) -> {
                opened.complete(self.open(Integer.class));
                self.react(Receive.<Object>handler().matchAny(m -> { }).build());
            });
            Channel<Integer> ints = await(opened);
            assertSame(owner, ints.owner());
            @SuppressWarnings({"unchecked", "rawtypes"})
            Channel<Object> raw = (Channel) ints;
            ClassCastException e = assertThrows(ClassCastException.class, () -> raw.tell("not an int"));
            assertTrue(e.getMessage().contains("java.lang.Integer"), e.getMessage());
            NullPointerException npe = assertThrows(NullPointerException.class, () -> ints.tell(null));
            assertEquals("message", npe.getMessage());
        }
    }
}
