package io.weft.actors.runtime.internal.schedule;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@link MessageCounters}: sends of platform and virtual threads outside the pool add up exactly, while they run and after they end. */
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
}
