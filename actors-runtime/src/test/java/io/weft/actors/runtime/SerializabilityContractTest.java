package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.spi.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Serializability (Prokopec 2016, Theorem 1) and exactly-once delivery, one contract for every scheduler:
 * many threads send to one actor at once; the actor detects any concurrent entry into its handler
 * and checks every sender's sequence, so a lost, duplicated or reordered message fails the test.
 * Each scheduler runs it twice: with the handler as a one-message continuation renewed by a loop
 * ({@code loop(() -> react(h))}) and as a persistent one ({@code become(h)}), which the runtime
 * delivers on a path of its own.
 */
class SerializabilityContractTest {

    private static final int SENDERS = 4;
    private static final int PER_SENDER = 5_000;

    /**
     * How to run the actor.
     *
     * @param name for the report
     * @param scheduler the scheduler to spawn on
     * @param spawnsOnCaller whether {@code spawn} runs the actor on the calling thread until it stops
     *     (piggyback), so the test spawns from a thread of its own
     */
    record Mode(String name, Function<ActorSystem, Scheduler> scheduler, boolean spawnsOnCaller) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Mode> modes() {
        return Stream.of(
                new Mode("forkJoin", s -> s.schedulers().forkJoin(), false),
                new Mode("dedicatedThread", s -> s.schedulers().dedicatedThread(), false),
                new Mode("piggyback", s -> s.schedulers().piggyback(), true),
                new Mode("timer", s -> s.schedulers().timer(Duration.ofMillis(1)), false),
                new Mode("userDefined", s -> new SingleThreadScheduler("contract-user", 7), false));
    }

    /** How the actor waits for its messages. */
    enum Wait {
        /** {@code loop(() -> react(handler))}. */
        REACT_LOOP,
        /** {@code become(handler)}. */
        BECOME
    }

    static Stream<Arguments> modesAndWaits() {
        return modes().flatMap(m -> Stream.of(Wait.values()).map(w -> Arguments.of(m, w)));
    }

    record Msg(int sender, int seq) {
    }

    @ParameterizedTest(name = "{0}, {1}")
    @MethodSource("modesAndWaits")
    void oneHandlerAtATimeAndEveryMessageExactlyOnce(Mode mode, Wait wait) throws Exception {
        ActorSystem system = ActorSystem.builder().name("serial").parallelism(2).batchSize(16).build();
        Scheduler scheduler = mode.scheduler().apply(system);
        try {
            int total = SENDERS * PER_SENDER;
            AtomicInteger inHandler = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            CompletableFuture<ActorRef<Msg>> self = new CompletableFuture<>();
            CompletableFuture<int[]> result = new CompletableFuture<>();
            Behavior<Msg> counter = (ActorContext<Msg> ctx) -> {
                int[] last = new int[SENDERS];
                int[] stats = new int[2]; // [handled, out-of-sequence]
                self.complete(ctx.self());
                Receive<Msg, Void> handler = Receive.<Msg>handler().match(Msg.class, m -> {
                    if (inHandler.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    if (m.seq() != last[m.sender()] + 1) {
                        stats[1]++;
                    }
                    last[m.sender()] = m.seq();
                    stats[0]++; // a plain int: concurrent handlers would also lose updates
                    if ((stats[0] & 63) == 0) {
                        Thread.yield(); // widen the window a concurrent entry would hit
                    }
                    inHandler.decrementAndGet();
                    if (stats[0] == total) {
                        result.complete(stats.clone());
                        if (mode.spawnsOnCaller()) {
                            ctx.stop(); // gives the spawning thread back
                        }
                    }
                }).build();
                if (wait == Wait.BECOME) {
                    ctx.become(handler);
                } else {
                    ctx.loop(() -> ctx.react(handler));
                }
            };
            Props props = Props.named("counter").withScheduler(scheduler);
            Thread spawner = null;
            if (mode.spawnsOnCaller()) {
                spawner = Thread.ofPlatform().name("piggyback-spawner").start(() -> system.spawn(props, counter));
            } else {
                system.spawn(props, counter);
            }
            ActorRef<Msg> ref = await(self);

            CyclicBarrier go = new CyclicBarrier(SENDERS);
            List<Thread> senders = new ArrayList<>();
            for (int s = 0; s < SENDERS; s++) {
                int sender = s;
                senders.add(Thread.ofPlatform().name("sender-" + s).start(() -> {
                    try {
                        go.await();
                    } catch (Exception e) {
                        throw new IllegalStateException(e);
                    }
                    for (int i = 1; i <= PER_SENDER; i++) {
                        ref.tell(new Msg(sender, i));
                    }
                }));
            }
            senders.forEach(Probes::join);

            int[] stats = await(result);
            assertEquals(0, overlaps.get(), "handlers of one actor overlapped");
            assertEquals(total, stats[0], "messages handled");
            assertEquals(0, stats[1], "messages lost, duplicated or out of per-sender order");
            if (spawner != null) {
                Probes.join(spawner);
                assertTrue(ref.isTerminated());
            }
        } finally {
            system.close();
        }
        if (scheduler instanceof SingleThreadScheduler user) {
            user.shutdown(); // a system shuts down only the schedulers it created
            assertEquals(0, user.protocolErrors.get(), "frames run off the scheduler's thread or with a foreign state");
        }
    }
}
