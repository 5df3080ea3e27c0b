package io.weft.actors.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code offerIfBelow} holds its limit under concurrent callers: with the stage held in
 * {@code consume}, several platform threads started together never get more than {@code limit}
 * items into its queue.
 */
class OfferIfBelowRaceTest {

    private static final int SENDERS = 6;
    private static final int EACH = 100;
    private static final int MAX_ROUNDS = 200;

    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(30, TimeUnit.SECONDS), "latch not released within 30 s");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** A stage held in its first consume until released; counts what it consumes. */
    private static final class Held extends Stage<Integer, Void> {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger consumed = new AtomicInteger();

        @Override
        protected void consume(Integer item) {
            if (consumed.getAndIncrement() == 0) {
                entered.countDown();
                await(release);
            }
        }
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {1, 2})
    void concurrentCallersNeverPassTheLimit(int limit) throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("offer-if-below-" + limit).parallelism(2).build()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(12);
            for (int round = 0; round < MAX_ROUNDS && System.nanoTime() - deadline < 0; round++) {
                Held held = new Held();
                RunningPipeline<Integer> run = Pipeline.of(held.onThread().named("held")).start(system);
                try {
                    run.offer(-1);
                    await(held.entered);
                    AtomicInteger accepted = new AtomicInteger();
                    CountDownLatch start = new CountDownLatch(1);
                    List<Thread> senders = new ArrayList<>();
                    for (int s = 0; s < SENDERS; s++) {
                        senders.add(Thread.ofPlatform().start(() -> {
                            await(start);
                            for (int i = 0; i < EACH; i++) {
                                if (run.offerIfBelow(i, limit)) {
                                    accepted.incrementAndGet();
                                }
                            }
                        }));
                    }
                    start.countDown();
                    for (Thread t : senders) {
                        t.join(TimeUnit.SECONDS.toMillis(30));
                    }
                    int queued = run.queueLengths().get("held");
                    assertTrue(queued <= limit, "round " + round + ": " + queued + " queued, limit " + limit);
                    assertEquals(limit, accepted.get(), "round " + round + ": accepted while the stage was held");
                    held.release.countDown();
                    run.complete();
                    run.completion().get(30, TimeUnit.SECONDS);
                    assertEquals(1 + limit, held.consumed.get(), "round " + round + ": consumed");
                } finally {
                    held.release.countDown();
                    run.cancel();
                }
            }
        }
    }
}
