package io.weft.actors.stream.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.atomic.MpscAtomicArrayQueue;
import org.jctools.queues.atomic.MpscChunkedAtomicArrayQueue;
import org.jctools.queues.atomic.SpscAtomicArrayQueue;
import org.jctools.queues.atomic.SpscChunkedAtomicArrayQueue;

/** Read-mostly fields of a {@link StageInput}: its main queue and how it is fed. */
abstract class StageInputHead<I> {
    final MessagePassingQueue<I> queue;
    final boolean spsc;
    final int producers;
    final int capacity;
    /** Serializes conditional offers to an MPSC queue (StageFrame, I5); null for SPSC. */
    final ReentrantLock conditional;

    StageInputHead(int capacity, int producers, boolean spsc) {
        this.capacity = capacity;
        this.producers = producers;
        this.spsc = spsc;
        this.queue = spsc ? StageInput.spscQueue(capacity) : StageInput.mpscQueue(capacity);
        this.conditional = spsc ? null : new ReentrantLock();
    }
}

/** The single producer's own fields (SPSC main queue only). */
abstract class StageInputProducer<I> extends StageInputHead<I> {
    /** Conditional offers left before the producer looks at the queue's length again. */
    int room;
    /** The limit {@link #room} was counted for. */
    int roomLimit;

    StageInputProducer(int capacity, int producers, boolean spsc) {
        super(capacity, producers, spsc);
    }
}

/** Keeps the producer's fields and the consumer's on different cache lines. */
abstract class StageInputPad1<I> extends StageInputProducer<I> {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    StageInputPad1(int capacity, int producers, boolean spsc) {
        super(capacity, producers, spsc);
    }
}

/** The consumer's own fields. */
abstract class StageInputConsumer<I> extends StageInputPad1<I> {
    /** The queue the consumer polls first (the main queue or a lane's). */
    MessagePassingQueue<I> current;
    /** Where in [main, lanes...] the next switch of {@link #current} starts. */
    int cursor;

    StageInputConsumer(int capacity, int producers, boolean spsc) {
        super(capacity, producers, spsc);
    }
}

/** Keeps the consumer's fields off the line of the shared, rarely written ones. */
abstract class StageInputPad2<I> extends StageInputConsumer<I> {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;

    StageInputPad2(int capacity, int producers, boolean spsc) {
        super(capacity, producers, spsc);
    }
}

/**
 * The input side of one {@link StageFrame}: its typed bounded queue (SPSC when exactly one stage
 * feeds it, MPSC otherwise), the SPSC lanes of feeders, the end-of-stream count and the parked
 * emitter. Its producer's fields, its consumer's fields and the shared ones sit on different cache
 * lines (padding by class hierarchy, as in JCTools), and none of them shares a line with the frame's
 * activation word or the frame's owner-only state.
 *
 * @param <I> the item type
 */
final class StageInput<I> extends StageInputPad2<I> {

    /* design
     * Sources: the main queue, then the lanes (copy-on-write array; added by feeder(), removed by
     * the consumer once closed and drained). The consumer polls `current` until it is empty, then
     * tries each other source once from `cursor`; rotate() at the start of each turn moves the
     * first source on, so no source starves another across turns.
     * Lanes (L1): a lane is in `lanes` before its feeder's first offer, and it leaves only when its
     * consumer has read `closed` and then found it empty; the feeder sets `closed` after its last
     * offer. So a consumer that reads `lanes` after `ended` and finds no lane (and the main queue
     * empty) has seen every item of every feeder (StageFrame, I3).
     * Conditional offers (emitIfBelow) into an SPSC queue count down `room`: the producer computes
     * limit - size once, and offers that many before it reads the length again. The consumer only
     * shrinks the queue meanwhile, so the bound holds (StageFrame, I5) with one read of the
     * consumer's index per `room` offers instead of one per offer.
     */

    private static final VarHandle ENDED;
    private static final VarHandle WAITER;
    @SuppressWarnings("rawtypes")
    private static final Lane[] NO_LANES = new Lane[0];

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ENDED = l.findVarHandle(StageInput.class, "ended", int.class);
            WAITER = l.findVarHandle(StageInput.class, "waiter", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Up to this capacity a queue is one ring array, allocated at once and reused (cache-warm). */
    static final int RING_MAX = 1 << 16;

    @SuppressWarnings("unused") // through ENDED
    private volatile int ended;
    /** An emitter parked until this input has room (Waits), or null. */
    @SuppressWarnings("unused") // through WAITER
    private volatile Thread waiter;
    /** The open (or closed but not yet drained) lanes of feeders; replaced, never changed. */
    private volatile Lane<I>[] lanes;
    /** Serializes changes of {@link #lanes}. */
    private final ReentrantLock laneLock = new ReentrantLock();

    @SuppressWarnings("unchecked")
    StageInput(int capacity, int producers, boolean spsc) {
        super(capacity, producers, spsc);
        this.lanes = (Lane<I>[]) NO_LANES;
        this.current = queue;
    }

    static <T> MessagePassingQueue<T> spscQueue(int capacity) {
        if (capacity <= RING_MAX) {
            return new SpscAtomicArrayQueue<>(capacity);
        }
        return new SpscChunkedAtomicArrayQueue<>(chunk(capacity), capacity);
    }

    static <T> MessagePassingQueue<T> mpscQueue(int capacity) {
        if (capacity <= RING_MAX) {
            return new MpscAtomicArrayQueue<>(capacity);
        }
        return new MpscChunkedAtomicArrayQueue<>(chunk(capacity), capacity);
    }

    private static int chunk(int capacity) {
        return Math.max(2, Math.min(1024, Integer.highestOneBit(capacity - 1)));
    }

    // ------------------------------------------------------------ producers

    boolean offer(I item) {
        return queue.offer(item);
    }

    /**
     * Offers if the main queue holds fewer than {@code limit} items (StageFrame, I5), without
     * fence or activation.
     *
     * @param item the item
     * @param limit the refusal threshold
     * @return false if the queue held {@code limit} or more, or was full
     */
    boolean offerIfBelow(I item, int limit) {
        if (spsc) {
            int r = room;
            if (r <= 0 || limit != roomLimit) {
                r = limit - queue.size(); // the one read of the consumer's index per `room` offers
                roomLimit = limit;
                if (r <= 0) {
                    room = 0;
                    return false;
                }
            }
            if (!queue.offer(item)) {
                room = 0;
                return false;
            }
            room = r - 1;
            return true;
        }
        ReentrantLock lock = conditional;
        lock.lock();
        try {
            return queue.size() < limit && queue.offer(item);
        } finally {
            lock.unlock();
        }
    }

    void producerDone() {
        ENDED.getAndAdd(this, 1);
    }

    boolean allEnded() {
        return (int) ENDED.getVolatile(this) >= producers;
    }

    /**
     * Adds a feeder's lane (before the feeder's first offer, L1).
     *
     * @return the new lane
     */
    Lane<I> addLane() {
        Lane<I> lane = new Lane<>(spscQueue(capacity));
        laneLock.lock();
        try {
            Lane<I>[] old = lanes;
            Lane<I>[] now = Arrays.copyOf(old, old.length + 1);
            now[old.length] = lane;
            lanes = now;
        } finally {
            laneLock.unlock();
        }
        return lane;
    }

    // ------------------------------------------------------------ the consumer

    /** @return the next item from any source, or null if every source was empty when looked at */
    I poll() {
        I x = poll(current);
        return x != null ? x : pollOthers();
    }

    /**
     * Polls through the queue's concrete class: the ring queues are tested first, so the JIT
     * binds each call to one class (no type profile shared by every stage and lane of the
     * process at one call site).
     */
    private static <T> T poll(MessagePassingQueue<T> q) {
        if (q instanceof SpscAtomicArrayQueue<T> s) {
            return s.relaxedPoll();
        }
        if (q instanceof MpscAtomicArrayQueue<T> m) {
            return m.relaxedPoll();
        }
        return q.relaxedPoll();
    }

    private I pollOthers() {
        Lane<I>[] ls = lanes;
        int n = ls.length + 1;
        for (int k = 0; k < n; k++) {
            int i = cursor;
            cursor = i + 1 >= n ? 0 : i + 1;
            MessagePassingQueue<I> q = i == 0 ? queue : ls[i - 1].queue;
            I x = poll(q);
            if (x != null) {
                current = q;
                return x;
            }
        }
        return null;
    }

    /** At the start of a turn: the next source is polled first (no source starves another). */
    void rotate() {
        Lane<I>[] ls = lanes;
        if (ls.length != 0) {
            int i = cursor;
            int n = ls.length + 1;
            current = i == 0 || i > ls.length ? queue : ls[i - 1].queue;
            cursor = i + 1 >= n ? 0 : i + 1;
        }
    }

    /**
     * End of stream (StageFrame, I3; L1): every producer ended, no lane left after closed, drained
     * lanes are removed, and every queue empty, read in that order.
     *
     * @return whether no item will ever arrive
     */
    boolean endOfStream() {
        if (!allEnded()) {
            return false;
        }
        removeClosedLanes();
        return lanes.length == 0 && queue.isEmpty();
    }

    /** Removes the lanes whose feeder closed them and that are empty (consumer only). */
    void removeClosedLanes() {
        Lane<I>[] ls = lanes;
        boolean any = false;
        for (Lane<I> l : ls) {
            if (l.closed && l.queue.isEmpty()) {
                any = true;
                break;
            }
        }
        if (!any) {
            return;
        }
        laneLock.lock();
        try {
            Lane<I>[] old = lanes;
            Lane<I>[] now = Arrays.copyOf(old, old.length);
            int k = 0;
            for (Lane<I> l : old) {
                if (!(l.closed && l.queue.isEmpty())) { // closed first, then empty (L1)
                    now[k++] = l;
                }
            }
            lanes = Arrays.copyOf(now, k);
            current = queue;
            cursor = 0;
        } finally {
            laneLock.unlock();
        }
    }

    /** @return whether every source is empty */
    boolean isEmpty() {
        if (!queue.isEmpty()) {
            return false;
        }
        for (Lane<I> l : lanes) {
            if (!l.queue.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /** @return whether a feeder's lane is open, or closed and not yet removed */
    boolean hasLanes() {
        return lanes.length != 0;
    }

    /** @return whether a lane was closed (and needs the consumer to remove it) */
    boolean closedLane() {
        for (Lane<I> l : lanes) {
            if (l.closed) {
                return true;
            }
        }
        return false;
    }

    /** @return how many items every source holds (approximate while producers are active) */
    int size() {
        int s = queue.size();
        for (Lane<I> l : lanes) {
            s += l.queue.size();
        }
        return s;
    }

    /**
     * Moves every queued item to {@code sink} (after a stop).
     *
     * @param sink where the items go
     */
    void drain(Consumer<I> sink) {
        queue.drain(sink::accept);
        for (Lane<I> l : lanes) {
            l.queue.drain(sink::accept);
        }
    }

    // ------------------------------------------------------------ a parked emitter (Waits, W1)

    boolean registerWaiter(Thread t) {
        return WAITER.compareAndSet(this, (Thread) null, t);
    }

    void clearWaiter(Thread t) {
        WAITER.compareAndSet(this, t, (Thread) null);
    }

    /** After taking items out: unparks an emitter waiting for room (a full fence first, W1). */
    void wakeWaiter() {
        VarHandle.fullFence();
        Thread t = (Thread) WAITER.getVolatile(this);
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * One feeder's SPSC lane into this input.
     *
     * @param <I> the item type
     */
    static final class Lane<I> {
        final MessagePassingQueue<I> queue;
        /** Set by the feeder after its last offer (L1). */
        volatile boolean closed;

        Lane(MessagePassingQueue<I> queue) {
            this.queue = queue;
        }
    }
}
