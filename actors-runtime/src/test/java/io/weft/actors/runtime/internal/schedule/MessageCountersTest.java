package io.weft.actors.runtime.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link MessageCounters}: sends of platform and virtual threads outside the pool add up exactly, while they run,
 * after they end (also for many short-lived threads) and after the system is closed.
 */
class MessageCountersTest {

    @Test
    void sendsOfPlatformThreadsAddUpWhileTheyRunAndAfterTheyEnd() throws Exception {
        MessageCounters counters = new MessageCounters();
        for (int i = 0; i < 5; i++) {
            counters.sent(); // this thread's own count
        }
        assertEquals(5, counters.sentCount());
        int threads = 8;
        int each = 10_000;
        CountDownLatch sent = new CountDownLatch(threads);
        CountDownLatch end = new CountDownLatch(1);
        List<Thread> started = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            started.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < each; i++) {
                    counters.sent();
                }
                sent.countDown();
                try {
                    end.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
        }
        sent.await(30, TimeUnit.SECONDS);
        assertEquals(5 + threads * each, counters.sentCount(), "live threads' counts, ordered before the read by the latch");
        end.countDown();
        for (Thread t : started) {
            t.join(30_000);
        }
        // ended threads: none lost, none twice
        Thread late = Thread.ofPlatform().start(counters::sent);
        late.join(30_000);
        assertEquals(5 + threads * each + 1, counters.sentCount());
        Thread virtual = Thread.ofVirtual().start(counters::sent);
        virtual.join(30_000);
        assertEquals(5 + threads * each + 2, counters.sentCount());
    }

    @Test
    void sendsOfManyShortLivedPlatformThreadsAddUpExactly() throws Exception {
        MessageCounters counters = new MessageCounters();
        int waves = 250;
        int perWave = 8;
        int each = 3;
        for (int w = 0; w < waves; w++) {
            List<Thread> wave = new ArrayList<>();
            for (int t = 0; t < perWave; t++) {
                wave.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < each; i++) {
                        counters.sent();
                    }
                }));
            }
            for (Thread t : wave) {
                t.join(30_000);
            }
            assertEquals((long) (w + 1) * perWave * each, counters.sentCount(), "after wave " + w);
        }
        assertEquals((long) waves * perWave * each, counters.sentCount(), "a count of an ended thread lost or counted twice");
    }

    @Test
    void tellsOfSeveralForeignThreadsAddUpExactlyAfterClose() throws Exception {
        int platform = 4;
        int virtual = 200;
        int each = 5_000;
        int perVirtual = 10;
        long expected = (long) platform * each + (long) virtual * perVirtual;
        AtomicLong handled = new AtomicLong();
        CountDownLatch all = new CountDownLatch(1);
        ActorSystem system = ActorSystem.builder().name("foreign-counts").parallelism(2).build();
        long before;
        try {
            List<ActorRef<Integer>> actors = new ArrayList<>();
            for (int a = 0; a < 3; a++) {
                actors.add(system.spawn("sink-" + a, self -> self.become(Receive.<Integer>handler()
                        .match(Integer.class, x -> {
                            if (handled.incrementAndGet() == expected) {
                                all.countDown();
                            }
                        }).build())));
            }
            before = system.metrics().messagesSent();
            List<Thread> senders = new ArrayList<>();
            for (int t = 0; t < platform; t++) {
                senders.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < each; i++) {
                        actors.get(i % actors.size()).tell(i);
                    }
                }));
            }
            for (int t = 0; t < virtual; t++) {
                senders.add(Thread.ofVirtual().start(() -> {
                    for (int i = 0; i < perVirtual; i++) {
                        actors.get(i % actors.size()).tell(i);
                    }
                }));
            }
            for (Thread t : senders) {
                t.join(30_000);
            }
            assertTrue(all.await(30, TimeUnit.SECONDS), "handled " + handled.get() + " of " + expected);
        } finally {
            system.close();
        }
        assertEquals(before + expected, system.metrics().messagesSent(), system.metrics().toString());
    }
}
