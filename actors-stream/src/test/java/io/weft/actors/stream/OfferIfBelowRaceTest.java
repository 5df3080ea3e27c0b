package io.weft.actors.stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code offerIfBelow} and {@code emitIfBelow} hold their limit under concurrent callers: with the
 * consumer held, several producers started together never get more than {@code limit} items into
 * a stage's queue, or into a Flow processor's output buffer.
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

    /** One replica of a farm whose replicas all emit conditionally at once into the processor's buffer. */
    private static final class Emitter extends Stage<Integer, Integer> {
        private final CountDownLatch ready;
        private final CountDownLatch done;
        private final AtomicInteger accepted;
        private final int limit;

        Emitter(CountDownLatch ready, CountDownLatch done, AtomicInteger accepted, int limit) {
            this.ready = ready;
            this.done = done;
            this.accepted = accepted;
            this.limit = limit;
        }

        @Override
        protected void consume(Integer item) {
            ready.countDown();
            await(ready);
            for (int i = 0; i < EACH; i++) {
                if (emitIfBelow(i, limit)) {
                    accepted.incrementAndGet();
                }
            }
            done.countDown();
        }
    }

    @ParameterizedTest(name = "limit {0}")
    @ValueSource(ints = {1, 2})
    void concurrentLastStagesNeverPassTheLimitOfAProcessorsBuffer(int limit) throws Exception {
        int replicas = 6;
        try (ActorSystem system = ActorSystem.builder().name("emit-if-below-" + limit).parallelism(2).build()) {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(12);
            for (int round = 0; round < MAX_ROUNDS && System.nanoTime() - deadline < 0; round++) {
                CountDownLatch ready = new CountDownLatch(replicas);
                CountDownLatch done = new CountDownLatch(replicas);
                AtomicInteger accepted = new AtomicInteger();
                Flow.Processor<Integer, Integer> processor = FlowStreams.processor(system,
                        Farm.of(replicas, () -> new Emitter(ready, done, accepted, limit).onThread(), Policy.roundRobin()), 64);
                AtomicInteger delivered = new AtomicInteger();
                CompletableFuture<Flow.Subscription> downstream = new CompletableFuture<>();
                processor.subscribe(new Flow.Subscriber<Integer>() {
                    @Override
                    public void onSubscribe(Flow.Subscription subscription) {
                        downstream.complete(subscription); // requests nothing yet: the buffer fills
                    }

                    @Override
                    public void onNext(Integer item) {
                        delivered.incrementAndGet();
                    }

                    @Override
                    public void onError(Throwable throwable) {
                    }

                    @Override
                    public void onComplete() {
                    }
                });
                processor.onSubscribe(new Flow.Subscription() {
                    @Override
                    public void request(long n) {
                    }

                    @Override
                    public void cancel() {
                    }
                });
                Flow.Subscription subscription = downstream.get(30, TimeUnit.SECONDS);
                try {
                    for (int r = 0; r < replicas; r++) {
                        processor.onNext(r); // one item per replica (round robin): all emit at once
                    }
                    await(done);
                    assertEquals(limit, accepted.get(), "round " + round + ": accepted into the buffer");
                    subscription.request(Long.MAX_VALUE);
                    long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (delivered.get() < limit && System.nanoTime() - waitUntil < 0) {
                        Thread.onSpinWait();
                    }
                    assertEquals(limit, delivered.get(), "round " + round + ": delivered downstream");
                } finally {
                    subscription.cancel();
                }
            }
        }
    }
}
