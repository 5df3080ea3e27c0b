package io.weft.actors.bench.cluster;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * Time until every entity answers: {@code inFlight} virtual threads take entities from a queue and
 * ask each with a timeout; an entity whose ask times out or fails goes back to the end of the
 * queue, one that answers right is served. The result is the time from {@code since} to the last
 * entity's first right reply. Its resolution after a kill is the per-ask timeout
 * ({@value #ASK_TIMEOUT_MS} ms), since an ask lost with a dead member is only retried after it.
 * The number of asks in flight is bounded (as in the load), so a slow cluster answers late
 * rather than being flooded with asks that time out and are sent again.
 */
final class Recovery {

    /** Per-ask timeout in milliseconds while measuring the time to recover from a kill. */
    static final long ASK_TIMEOUT_MS = 250;

    private Recovery() {
    }

    /**
     * Asks every entity until it answers.
     *
     * @param node the asking member
     * @param ids the entity ids
     * @param inFlight concurrent asks
     * @param askTimeout each ask's timeout
     * @param since the {@link System#nanoTime()} the time is measured from
     * @param deadline the longest wait
     * @return the time from {@code since} until the last entity answered
     * @throws InterruptedException if interrupted
     * @throws IllegalStateException if some entity did not answer before the deadline
     */
    static Duration untilAllServed(BenchNode node, List<String> ids, int inFlight, Duration askTimeout, long since, Duration deadline)
            throws InterruptedException {
        long end = System.nanoTime() + deadline.toNanos();
        AtomicLong last = new AtomicLong(since);
        AtomicInteger unserved = new AtomicInteger(ids.size());
        Queue<String> pending = new ConcurrentLinkedQueue<>(ids);
        List<Thread> threads = new ArrayList<>(inFlight);
        for (int t = 0; t < inFlight; t++) {
            threads.add(Thread.ofVirtual().start(() -> {
                while (unserved.get() > 0 && System.nanoTime() < end) {
                    String id = pending.poll();
                    if (id == null) {
                        // the rest are being asked by other threads; one may fail and come back
                        LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1));
                        continue;
                    }
                    if (askedRight(node, id, askTimeout)) {
                        last.accumulateAndGet(System.nanoTime(), Math::max);
                        unserved.decrementAndGet();
                    } else {
                        pending.add(id);
                    }
                }
            }));
        }
        for (Thread t : threads) {
            t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(end - System.nanoTime())) + askTimeout.toMillis() + 6_000);
        }
        if (unserved.get() > 0) {
            throw new IllegalStateException(unserved.get() + " of " + ids.size() + " entities did not answer within " + deadline);
        }
        return Duration.ofNanos(last.get() - since);
    }

    private static boolean askedRight(BenchNode node, String id, Duration askTimeout) {
        try {
            return id.equals(node.ask(id, askTimeout).get(askTimeout.toMillis() + 5_000, TimeUnit.MILLISECONDS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } catch (Exception e) {
            return false;
        }
    }
}
