package io.weft.actors.bench.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Time until every entity answers: one virtual thread per entity asks it with a short timeout,
 * again after each timeout or failure, until it gets the right reply or the deadline passes. The
 * result is the time from {@code since} to the last entity's first reply; its resolution is the
 * per-ask timeout ({@value #ASK_TIMEOUT_MS} ms), since an ask lost with a dead member is only
 * retried after it.
 */
final class Recovery {

    /** Per-ask timeout in milliseconds. */
    static final long ASK_TIMEOUT_MS = 250;

    private Recovery() {
    }

    /**
     * Asks every entity until it answers.
     *
     * @param node the asking member
     * @param ids the entity ids
     * @param since the {@link System#nanoTime()} the time is measured from
     * @param deadline the longest wait
     * @return the time from {@code since} until the last entity answered
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if some entity did not answer before the deadline
     */
    static Duration untilAllServed(BenchNode node, List<String> ids, long since, Duration deadline) throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        AtomicLong last = new AtomicLong(since);
        AtomicLong unserved = new AtomicLong(ids.size());
        List<Thread> threads = new ArrayList<>(ids.size());
        for (String id : ids) {
            threads.add(Thread.ofVirtual().start(() -> {
                while (System.nanoTime() < end) {
                    try {
                        Object reply = node.ask(id, Duration.ofMillis(ASK_TIMEOUT_MS)).get(ASK_TIMEOUT_MS + 5_000, TimeUnit.MILLISECONDS);
                        if (id.equals(reply)) {
                            long now = System.nanoTime();
                            last.accumulateAndGet(now, Math::max);
                            unserved.decrementAndGet();
                            return;
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    } catch (Exception e) {
                        // timed out or failed: ask again
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime()) + ASK_TIMEOUT_MS + 6_000));
        }
        if (unserved.get() > 0) {
            throw new IllegalStateException(unserved.get() + " of " + ids.size() + " entities did not answer within " + deadline);
        }
        return Duration.ofNanos(last.get() - since);
    }
}
