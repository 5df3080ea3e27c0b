package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorSystem;
import io.weft.actors.stream.Pipeline;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.Stage;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** A stream stage that blocks in consume runs as a thread-based actor on a virtual thread. */
class StreamStageOnThreadTest {

    @Test
    void blockingStageRunsOnAVirtualThreadWhileOtherStagesKeepRunning() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("stream-loom").parallelism(1).build()) {
            BlockingQueue<Long> io = new ArrayBlockingQueue<>(1); // stands for a blocking device
            AtomicBoolean allVirtual = new AtomicBoolean(true);
            AtomicLong sum = new AtomicLong();
            Stage<Long, Long> blocking = new Stage<>() {
                @Override
                protected void consume(Long item) throws InterruptedException {
                    if (!Thread.currentThread().isVirtual()) {
                        allVirtual.set(false);
                    }
                    io.put(item); // blocks until the reader below takes it
                    emit(item);
                }
            };
            RunningPipeline<Long> run = Pipeline.of(blocking.onThread().named("writer"), new Stage<Long, Void>() {
                @Override
                protected void consume(Long item) {
                    sum.addAndGet(item);
                }
            }.named("sum")).start(system);
            Thread reader = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 0; i < 1000; i++) {
                        io.take();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            for (long i = 1; i <= 1000; i++) {
                assertTrue(run.put(i));
            }
            run.complete();
            run.completion().get(30, TimeUnit.SECONDS);
            reader.join(30_000);
            assertTrue(allVirtual.get(), "consume ran on a virtual thread");
            assertEquals(500_500L, sum.get());
        }
    }
}
