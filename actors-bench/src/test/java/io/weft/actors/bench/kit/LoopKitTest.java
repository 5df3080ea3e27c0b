package io.weft.actors.bench.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The one-thread floor kit: wake-ups from other threads, order, stop, and a failing handler. */
@Timeout(60)
class LoopKitTest {

    private Kit kit;

    @BeforeEach
    void create() {
        kit = Impl.LOOP.create();
    }

    @AfterEach
    void close() {
        kit.close();
    }

    @Test
    void messagesFromAnotherThreadWakeTheLoopEveryTime() throws Exception {
        // the loop parks whenever it runs dry; each round's tell must wake it again
        for (int round = 0; round < 1_000; round++) {
            CompletableFuture<Object> got = new CompletableFuture<>();
            Ref r = kit.spawn((m, c) -> got.complete(m));
            r.tell(round);
            assertEquals(round, got.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void messagesBetweenActorsKeepTheirOrderAndOneDriverTellReachesAllOfThem() throws Exception {
        int n = 10 * LoopKit.EXTERNAL_POLL_INTERVAL; // more than one look at the external queue
        List<Object> seen = new ArrayList<>();
        CompletableFuture<List<Object>> done = new CompletableFuture<>();
        Ref sink = kit.spawn((m, c) -> {
            seen.add(m);
            if (seen.size() == n) {
                done.complete(seen);
            }
        });
        Ref source = kit.spawn((m, c) -> {
            for (int i = 0; i < n; i++) {
                sink.tell(i);
            }
        });
        source.tell("go");
        List<Object> got = done.get(30, TimeUnit.SECONDS);
        for (int i = 0; i < n; i++) {
            assertEquals(i, got.get(i));
        }
    }

    @Test
    void aStoppedActorDropsLaterMessages() throws Exception {
        List<Object> seen = new ArrayList<>();
        CompletableFuture<List<Object>> after = new CompletableFuture<>();
        Ref stopping = kit.spawn((m, c) -> {
            seen.add(m);
            if ("stop".equals(m)) {
                c.stop();
            }
        });
        Ref probe = kit.spawn((m, c) -> after.complete(List.copyOf(seen)));
        stopping.tell("a");
        stopping.tell("stop");
        stopping.tell("b"); // dropped
        probe.tell("check"); // queued after "b" by the same thread, so handled after it
        assertEquals(List.of("a", "stop"), after.get(30, TimeUnit.SECONDS));
    }

    @Test
    void aFailingHandlerStopsOnlyItsActorAndIsReported() throws Exception {
        PrintStream err = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        CountDownLatch afterFailure = new CountDownLatch(1);
        boolean healthyRan;
        List<Object> failingSaw = new ArrayList<>();
        try {
            System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
            Ref failing = kit.spawn((m, c) -> {
                failingSaw.add(m);
                throw new IllegalStateException("boom");
            });
            Ref healthy = kit.spawn((m, c) -> afterFailure.countDown());
            failing.tell(1);
            failing.tell(2); // dropped: the actor stopped at its first failure
            healthy.tell("still running");
            healthyRan = afterFailure.await(30, TimeUnit.SECONDS);
        } finally {
            System.setErr(err);
        }
        assertTrue(healthyRan, "the loop stopped after a handler failed");
        assertEquals(List.of(1), failingSaw);
        String report = captured.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("a handler failed") && report.contains("boom"), report);
    }

    @Test
    void nullMessagesAreRefused() {
        Ref r = kit.spawn((m, c) -> { });
        assertThrows(NullPointerException.class, () -> r.tell(null));
    }
}
