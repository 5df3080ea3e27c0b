package io.weft.actors.runtime.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Bounded delivery time fairness (Prokopec 2016, §2.1, Theorem 3), measured in global handling steps.
 * For each message x: d(x) its global delivery index, h(x) its global handling index. The
 * definition asks h(x) - h(y) <= d(x) - d(y) + C for all x, y, i.e. the spread
 * max(h - d) - min(h - d) over all messages is at most C. We also measure the wait of each
 * message: how many messages were handled (globally) between its delivery and its handling.
 */
class FairSchedulerTest {

    /** The spread bound C asserted for the fair scheduler (measured: 0, see docs/scheduling.md). */
    static final long C = 4;
    /** The wait bound (in handling steps) asserted for the fair scheduler (measured: 10). */
    static final long WAIT = 16;

    record Msg(long delivered, long handledBefore, int kind) {
    }

    /** Spread of h - d over all messages; max wait per kind (0 flooded sink, 1 light actors). */
    static final class Stats {
        final AtomicLong delivered = new AtomicLong();
        final AtomicLong handled = new AtomicLong();
        final AtomicLong maxLag = new AtomicLong(Long.MIN_VALUE);
        final AtomicLong minLag = new AtomicLong(Long.MAX_VALUE);
        final AtomicLong[] maxWait = {new AtomicLong(), new AtomicLong()};

        Msg next(int kind) {
            return new Msg(delivered.incrementAndGet(), handled.get(), kind);
        }

        void handle(Msg m) {
            long h = handled.incrementAndGet();
            maxLag.accumulateAndGet(h - m.delivered(), Math::max);
            minLag.accumulateAndGet(h - m.delivered(), Math::min);
            maxWait[m.kind()].accumulateAndGet(h - m.handledBefore() - 1, Math::max);
        }

        long[] result() {
            return new long[] {maxLag.get() - minLag.get(), maxWait[0].get(), maxWait[1].get()};
        }
    }

    /**
     * One flooding producer: each step sends 10 messages to a sink and one to itself; every 20th step
     * it also sends one message to one of 20 light actors. Runs {@code steps} steps.
     */
    static long[] run(Function<ActorSystem, Scheduler> scheduler, int steps) throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("fair").parallelism(1).build()) {
            Scheduler s = scheduler.apply(system);
            Stats stats = new Stats();
            int lightCount = 20;
            int lightMessages = steps / 20;
            int sinkMessages = steps * 10;
            CountDownLatch done = new CountDownLatch(sinkMessages + lightMessages);
            ActorRef<Msg> sink = system.spawn(Props.defaults().withScheduler(s), self ->
                    self.loop(() -> self.react(Receive.<Msg>handler().match(Msg.class, m -> {
                        stats.handle(m);
                        done.countDown();
                    }).build())));
            List<ActorRef<Msg>> light = new ArrayList<>();
            for (int i = 0; i < lightCount; i++) {
                light.add(system.spawn(Props.defaults().withScheduler(s), self ->
                        self.loop(() -> self.react(Receive.<Msg>handler().match(Msg.class, m -> {
                            stats.handle(m);
                            done.countDown();
                        }).build()))));
            }
            ActorRef<Integer> flood = system.spawn(Props.defaults().withScheduler(s), self -> {
                self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, step -> {
                    for (int k = 0; k < 10; k++) {
                        sink.tell(stats.next(0));
                    }
                    if (step % 20 == 0) {
                        light.get((step / 20) % lightCount).tell(stats.next(1));
                    }
                    if (step < steps) {
                        self.self().tell(step + 1);
                    }
                }).build()));
            });
            flood.tell(1);
            assertTrue(done.await(60, TimeUnit.SECONDS), "not all messages handled; left " + done.getCount());
            return stats.result();
        }
    }

    @Test
    void lightActorsAndTheFloodedSinkAreHandledWithinBoundedSteps() throws Exception {
        long[] fair = run(s -> s.schedulers().fair(), 3_000);
        long[] forkJoin = run(s -> s.schedulers().forkJoin(), 3_000);
        String report = "spread C, max wait of sink, max wait of light actors: fair " + java.util.Arrays.toString(fair)
                + "; forkJoin " + java.util.Arrays.toString(forkJoin);
        System.out.println(report);
        assertTrue(fair[0] <= C, report);
        assertTrue(fair[1] <= WAIT && fair[2] <= WAIT, report);
        // Without the fair policy the flooded sink falls behind without bound (grows with the run).
        assertTrue(forkJoin[0] > 100 * C && forkJoin[1] > 100 * WAIT, report);
    }
}
