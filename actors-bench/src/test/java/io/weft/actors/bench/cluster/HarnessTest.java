package io.weft.actors.bench.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The cluster bench's measuring parts against an in-memory node: what they count as served, failed and unserved. */
class HarnessTest {

    /** Answers with the id, except that entities in {@code silent} fail their first {@code failures} asks each. */
    private static final class FakeNode implements BenchNode {
        private final Set<String> silent;
        private final int failures;
        private final ConcurrentHashMap<String, AtomicInteger> asked = new ConcurrentHashMap<>();

        FakeNode(Set<String> silent, int failures) {
            this.silent = silent;
            this.failures = failures;
        }

        @Override
        public CompletableFuture<Object> ask(String entityId, Duration timeout) {
            int n = asked.computeIfAbsent(entityId, k -> new AtomicInteger()).incrementAndGet();
            if (silent.contains(entityId) && n <= failures) {
                return CompletableFuture.failedFuture(new IllegalStateException("no shard home for " + entityId));
            }
            return CompletableFuture.completedFuture(entityId);
        }

        @Override
        public int membersUp() {
            return 3;
        }

        @Override
        public void close() {
        }
    }

    @Test
    void recoveryAsksAgainUntilEveryEntityAnswers() throws Exception {
        FakeNode node = new FakeNode(Set.of("e1", "e2"), 3);
        Duration d = Recovery.untilAllServed(node, List.of("e0", "e1", "e2"), 2, Duration.ofSeconds(1), System.nanoTime(),
                Duration.ofSeconds(60));
        assertTrue(!d.isNegative(), "a time from the start: " + d);
        assertEquals(4, node.asked.get("e1").get(), "e1 asked until its fourth ask answered");
        assertEquals(1, node.asked.get("e0").get(), "e0 answered at once");
    }

    @Test
    void recoveryNamesTheEntitiesThatNeverAnswered() {
        FakeNode node = new FakeNode(Set.of("e1"), Integer.MAX_VALUE);
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> Recovery.untilAllServed(node, List.of("e0", "e1"), 2, Duration.ofSeconds(1), System.nanoTime(),
                        Duration.ofMillis(300)));
        assertTrue(e.getMessage().startsWith("1 of 2 entities"), e.getMessage());
    }

    @Test
    void loadCountsFailedAsksApartFromAnsweredOnes() throws Exception {
        FakeNode node = new FakeNode(Set.of("bad"), Integer.MAX_VALUE);
        AskLoad load = AskLoad.run(node, List.of("good", "bad"), 2, Duration.ofMillis(200));
        assertTrue(load.failed() > 0, "asks of the failing entity are counted: " + load);
        assertTrue(load.asksPerSecond() > 0, "asks of the answering entity are measured: " + load);
    }
}
