package io.weft.actors.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jctools.queues.MpscUnboundedArrayQueue;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;

/**
 * The hand-written reference of the ingress benchmark ({@link Ingress}): no runtime at all, only
 * producer threads offering the same message object into K JCTools MPSC queues round-robin, and
 * consumer threads that own the queues and drain them by spinning. It is what any runtime's
 * ingress costs at least on this machine: a mailbox offer per message on the producer, a poll and
 * the count on a consumer, and nothing for activation, scheduling or parking.
 *
 * <p>Consumer {@code c} of {@code C} owns the queues {@code c, c + C, c + 2C, ...}; it sweeps
 * them, polls each until it is empty and counts every message with the same {@link
 * Ingress.Counter} the actors use; after 64 sweeps that found nothing it yields (on a machine
 * with fewer cores than spinning threads, a consumer that never yields takes the producer's
 * core). The time runs from the first offer until every queue's counter has seen its share, as
 * for the actors.
 */
final class IngressFloor {

    /* design
     * A floor, not a runtime: nothing wakes a consumer (it spins or yields), so the number is the
     * producer's offer loop plus the consumers' drain when the cores allow both at once. The queue
     * kinds: MpscLinkedAtomicUnpaddedQueue is the queue of Weft's linked mailbox
     * (-Dweft.mailbox=linked) and the short form of its default AdaptiveQueue (a node allocated per
     * offer, one exchange on the producer); MpscUnboundedArrayQueue is a chunked array (one CAS per
     * offer, no allocation per message), as AdaptiveQueue's chunked form, which a mailbox with a
     * backlog (fan-out's) uses.
     */

    private IngressFloor() {
    }

    /** The queue a floor run uses. */
    enum Kind {
        /** {@link MpscLinkedAtomicUnpaddedQueue}: Weft's linked mailbox, and the short form of its default one. */
        LINKED(MpscLinkedAtomicUnpaddedQueue::new),
        /** {@link MpscUnboundedArrayQueue} in chunks of 1024: as the default mailbox's chunked form under a backlog. */
        ARRAY(() -> new MpscUnboundedArrayQueue<>(1024));

        final Supplier<Queue<Integer>> factory;

        Kind(Supplier<Queue<Integer>> factory) {
            this.factory = factory;
        }
    }

    /**
     * One floor run.
     *
     * @param kind the queue
     * @param producers producer threads (the caller is the only producer if 1)
     * @param k queues, each offered round-robin by every producer
     * @param consumers consumer threads, at most {@code k}
     * @param n messages in all (rounded down to a multiple of {@code producers * k})
     * @return ns per message, from the first offer until the last message is counted
     * @throws Exception on failure
     */
    static double run(Kind kind, int producers, int k, int consumers, long n) throws Exception {
        if (consumers < 1 || consumers > k) {
            throw new IllegalArgumentException("floor: consumers must be 1 to k=" + k + ", was " + consumers);
        }
        long rounds = n / ((long) producers * k); // each producer's offers per queue
        if (rounds == 0) {
            throw new IllegalArgumentException("floor: n=" + n + " is fewer than one message per producer and queue ("
                    + producers + " x " + k + "); give a larger -n");
        }
        long perQueue = rounds * producers;
        CountDownLatch done = new CountDownLatch(k);
        List<Queue<Integer>> queues = new ArrayList<>(k);
        List<Ingress.Counter> counters = new ArrayList<>(k);
        for (int i = 0; i < k; i++) {
            queues.add(kind.factory.get());
            counters.add(new Ingress.Counter(perQueue, done));
        }
        java.util.concurrent.atomic.AtomicBoolean abort = new java.util.concurrent.atomic.AtomicBoolean();
        List<Thread> consumerThreads = new ArrayList<>(consumers);
        for (int c = 0; c < consumers; c++) {
            List<Queue<Integer>> mine = new ArrayList<>();
            List<Ingress.Counter> mineCounted = new ArrayList<>();
            for (int i = c; i < k; i += consumers) {
                mine.add(queues.get(i));
                mineCounted.add(counters.get(i));
            }
            consumerThreads.add(Thread.ofPlatform().name("floor-consumer-" + c).daemon().start(
                    Ingress.counted(() -> drain(mine, mineCounted, perQueue * mine.size(), abort))));
        }
        Queue<Integer>[] q = array(queues);
        Integer msg = Ingress.MSG;
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> producerThreads = new ArrayList<>();
        Runnable offer = () -> {
            for (long r = 0; r < rounds; r++) {
                for (Queue<Integer> each : q) {
                    each.offer(msg);
                }
            }
        };
        for (int p = 0; producers > 1 && p < producers; p++) {
            producerThreads.add(Thread.ofPlatform().name("floor-producer-" + p).start(Ingress.counted(() -> {
                try {
                    go.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                offer.run();
            })));
        }
        long t0 = System.nanoTime();
        if (producers > 1) {
            go.countDown();
        } else {
            offer.run();
        }
        if (!done.await(10, TimeUnit.MINUTES)) {
            abort.set(true); // the consumers stop sweeping instead of spinning for the rest of the JVM
            throw new IllegalStateException("floor: consumers did not count every message within 10 minutes");
        }
        double ns = (System.nanoTime() - t0) / (double) (perQueue * k);
        for (Thread t : producerThreads) {
            t.join();
        }
        for (Thread t : consumerThreads) {
            t.join();
        }
        return ns;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Queue<Integer>[] array(List<Queue<Integer>> queues) {
        return queues.toArray(new Queue[0]);
    }

    /** A consumer: sweeps its queues until it has counted {@code total} messages, or the run gave up. */
    private static void drain(List<Queue<Integer>> queues, List<Ingress.Counter> counters, long total,
            java.util.concurrent.atomic.AtomicBoolean abort) {
        int size = queues.size();
        long seen = 0;
        int idle = 0;
        while (seen < total && !abort.get()) {
            boolean any = false;
            for (int i = 0; i < size; i++) {
                Queue<Integer> q = queues.get(i);
                Ingress.Counter c = counters.get(i);
                while (q.poll() != null) {
                    c.one();
                    seen++;
                    any = true;
                }
            }
            if (any) {
                idle = 0;
            } else if (++idle > 64) {
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
        }
    }
}
