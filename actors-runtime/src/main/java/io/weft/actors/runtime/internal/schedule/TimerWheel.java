package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.spi.Ticker;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One system's timer facility: a hashed timing wheel (Varghese and Lauck 1987) that fires
 * {@link Timeout}s at tick resolution, driven by one thread of its own or, with a manual
 * {@link Ticker}, by the thread that advances the ticker.
 */
public final class TimerWheel {

    /* design
     * Structure: `buckets` is a ring of WHEEL_SIZE doubly linked lists of Timeout nodes (the node
     * is the timer: no wrapper per timer). Tick t covers the due times in
     * (origin + (t-1)*tick, origin + t*tick]; a timer due at tick t is in bucket t & MASK and
     * fires when the wheel processes tick t, or the first tick after it that sees it (a timer due
     * more than one revolution away stays in its bucket for later revolutions: each visit fires
     * only the nodes whose tick has come).
     *
     * Ownership: the buckets, the node links (next, prev, bucket) and `tick` belong to the driver
     * (the wheel thread, or in manual mode whoever holds `driveLock`); other threads never touch
     * them. Other threads hand timers in through `adds` and cancellations through `cancels` (MPSC
     * queues), which the driver drains at every tick before firing, adds first.
     *
     * Cancellation: a node's `state` goes ARMED -> CANCELLED once (CAS, any thread). The driver
     * skips a cancelled node when it takes it from `adds`, unlinks it when it takes it from
     * `cancels`, and never fires it. A periodic timer re-armed by the driver after its firing
     * (Timeout.expire returns the next due time) is linked, then its state is read again: a
     * cancel that came before the link is seen there and unlinks it; one after it is in
     * `cancels` and unlinks it at the next tick. So a cancelled timer leaves the wheel at the
     * next tick at the latest and never fires after the cancel is visible to the driver (the
     * owner's check at delivery covers the window before that, Cell's design block).
     *
     * Threading: the wheel thread starts on the first timer and parks while the wheel holds no
     * timer (`count == 0` and no adds: `idle` set, then the queues are checked again before
     * parking; an adder offers, then reads `idle` and unparks: one of the two sees the other).
     * While timers are pending it wakes once per tick. A firing runs on the driver; a Timeout's
     * expire must be short (a send), and one that throws is logged and dropped.
     *
     * Memory: per pending timer one node (its subclass adds its own fields) and, until the driver
     * takes it, one queue node in `adds`.
     *
     * Cost per tick: one bucket is walked, so a tick visits about count / WHEEL_SIZE nodes (the
     * ones due at it and the ones due in later revolutions). With 512 buckets, 1,000,000 timers
     * due 5 to 8 s ahead made every tick walk about 2,000 nodes, and on the loaded 2-core bench
     * machine the wheel thread fell behind real time (the first timer fired 305 ms late); 4,096
     * buckets cut that to about 250, and a revolution covers the usual short timeouts (4 s) in one
     * pass.
     */

    private static final Logger LOG = LoggerFactory.getLogger(TimerWheel.class);
    /** Buckets: 4,096 ticks (about 4 s at 1 ms) per revolution. */
    private static final int WHEEL_SIZE = 4096;
    private static final int MASK = WHEEL_SIZE - 1;
    /** The tick, in nanoseconds; system property {@code weft.timerTickMicros} (default 1000). */
    static final long DEFAULT_TICK_NANOS = TimeUnit.MICROSECONDS.toNanos(Math.max(10, Long.getLong("weft.timerTickMicros", 1000)));

    private static final int ARMED = 0;
    private static final int CANCELLED = 1;

    /**
     * A timer: the node the wheel links into its buckets. Subclasses hold what to do when it fires.
     */
    public abstract static class Timeout {
        private static final VarHandle STATE;

        static {
            try {
                STATE = MethodHandles.lookup().findVarHandle(Timeout.class, "state", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        long deadline;
        Timeout next;
        Timeout prev;
        /** The bucket it is linked in, or -1. */
        int bucket = -1;
        @SuppressWarnings("unused") // through STATE
        private volatile int state;

        /** For subclasses. */
        protected Timeout() {
        }

        /**
         * Fires: runs on the driver.
         *
         * @param now the time of the tick being processed
         * @param due the time it was due at
         * @return the next due time of a periodic timer, or {@link Long#MIN_VALUE} when it is done
         */
        protected abstract long expire(long now, long due);

        /** @return whether it was cancelled */
        public final boolean isCancelled() {
            return (int) STATE.getVolatile(this) == CANCELLED;
        }

        final boolean casCancelled() {
            return STATE.compareAndSet(this, ARMED, CANCELLED);
        }
    }

    private final Ticker ticker;
    private final boolean manual;
    private final long tickNanos;
    private final String threadName;
    /** Made by the driver with the first timer it links (16 KB), so a system without timers pays nothing. */
    private Timeout[] buckets;
    private final MpscLinkedAtomicUnpaddedQueue<Timeout> adds = new MpscLinkedAtomicUnpaddedQueue<>();
    private final MpscLinkedAtomicUnpaddedQueue<Timeout> cancels = new MpscLinkedAtomicUnpaddedQueue<>();
    private final ReentrantLock driveLock = new ReentrantLock();
    private final ReentrantLock startLock = new ReentrantLock();
    private final long origin;
    /** The last tick processed; driver-owned. */
    private long tick;
    /** Timers linked in the buckets; driver-owned. */
    private long count;
    private volatile Thread thread;
    private volatile boolean idle;
    private volatile boolean shutdown;

    /**
     * @param ticker the time source; a manual one drives the wheel through its listeners
     * @param tickNanos the resolution, positive
     * @param threadName the name of the wheel's thread (not used with a manual ticker)
     */
    public TimerWheel(Ticker ticker, long tickNanos, String threadName) {
        if (tickNanos <= 0) {
            throw new IllegalArgumentException("tickNanos: must be positive, was " + tickNanos);
        }
        this.ticker = ticker;
        this.manual = ticker.isManual();
        this.tickNanos = tickNanos;
        this.threadName = threadName;
        this.origin = ticker.nanoTime();
        if (manual) {
            ticker.onAdvance(this::advanceManually);
        }
    }

    /**
     * @param ticker the time source
     * @param threadName the name of the wheel's thread
     * @return a wheel with the default tick (1 ms)
     */
    public static TimerWheel withDefaultTick(Ticker ticker, String threadName) {
        return new TimerWheel(ticker, DEFAULT_TICK_NANOS, threadName);
    }

    /** @return the current time of the wheel's ticker */
    public long now() {
        return ticker.nanoTime();
    }

    /** @return the tick, in nanoseconds */
    public long tickNanos() {
        return tickNanos;
    }

    /**
     * Arms {@code t} to fire at {@code deadline}; any thread. A node is armed once.
     *
     * @param t a new node
     * @param deadline the due time, on the ticker's scale
     * @throws java.util.concurrent.RejectedExecutionException if the wheel is shut down
     */
    public void schedule(Timeout t, long deadline) {
        if (shutdown) {
            throw new java.util.concurrent.RejectedExecutionException("the timer wheel (" + threadName + ") is shut down");
        }
        t.deadline = deadline;
        adds.offer(t);
        if (!manual) {
            Thread th = thread;
            if (th == null) {
                start();
            } else if (idle) {
                LockSupport.unpark(th);
            }
        }
    }

    /**
     * Cancels {@code t}; any thread; idempotent.
     *
     * @param t a node armed on this wheel
     * @return true if this call cancelled it
     */
    public boolean cancel(Timeout t) {
        if (!t.casCancelled()) {
            return false;
        }
        cancels.offer(t);
        return true;
    }

    /** Stops the wheel's thread and fires nothing more; pending timers are dropped. */
    public void shutdown() {
        shutdown = true;
        Thread th = thread;
        if (th != null) {
            LockSupport.unpark(th);
        }
    }

    /** @return the wheel's thread, or null if none was started */
    public Thread thread() {
        return thread;
    }

    private void start() {
        startLock.lock();
        try {
            if (thread == null && !shutdown) {
                Thread th = new Thread(this::runThread, threadName);
                th.setDaemon(true);
                thread = th;
                th.start();
            }
        } finally {
            startLock.unlock();
        }
    }

    private void runThread() {
        while (!shutdown) {
            long next = origin + (tick + 1) * tickNanos;
            long wait = next - ticker.nanoTime();
            if (wait > 0) {
                if (count == 0 && adds.isEmpty()) {
                    idle = true;
                    if (adds.isEmpty() && !shutdown) {
                        LockSupport.park(this);
                    }
                    idle = false;
                    // time went on while parked: ticks with no timers are skipped (nothing to fire)
                    long nowTick = (ticker.nanoTime() - origin) / tickNanos;
                    if (count == 0 && nowTick > tick) {
                        tick = nowTick;
                    }
                    continue;
                }
                LockSupport.parkNanos(this, wait);
                continue;
            }
            driveTo(ticker.nanoTime());
        }
    }

    /** The manual ticker moved: fire what fell due, on the advancing thread. */
    private void advanceManually() {
        driveLock.lock();
        try {
            driveTo(ticker.nanoTime());
        } finally {
            driveLock.unlock();
        }
    }

    /** Processes every tick up to {@code now}; the driver. */
    private void driveTo(long now) {
        long target = Math.floorDiv(now - origin, tickNanos);
        takeAdds();
        takeCancels();
        while (tick < target && !shutdown) {
            tick++;
            if (count == 0 && adds.isEmpty()) {
                tick = target; // nothing linked: skip the empty ticks
                break;
            }
            fireBucket(tick);
            takeAdds();
            takeCancels();
        }
    }

    private void takeAdds() {
        Timeout t;
        while ((t = adds.relaxedPoll()) != null) {
            if (!t.isCancelled()) {
                link(t);
            }
        }
    }

    private void takeCancels() {
        Timeout t;
        while ((t = cancels.relaxedPoll()) != null) {
            if (t.bucket >= 0) {
                unlink(t);
            }
        }
    }

    /** The tick of {@code deadline}: the first tick whose end is at or after it, and after the current one. */
    private long tickOf(long deadline) {
        long rel = deadline - origin;
        long due = rel <= 0 ? 0 : (rel + tickNanos - 1) / tickNanos;
        return Math.max(due, tick + 1);
    }

    private void link(Timeout t) {
        if (buckets == null) {
            buckets = new Timeout[WHEEL_SIZE];
        }
        int b = (int) (tickOf(t.deadline) & MASK);
        Timeout head = buckets[b];
        t.prev = null;
        t.next = head;
        if (head != null) {
            head.prev = t;
        }
        buckets[b] = t;
        t.bucket = b;
        count++;
    }

    private void unlink(Timeout t) {
        int b = t.bucket;
        if (t.prev != null) {
            t.prev.next = t.next;
        } else {
            buckets[b] = t.next;
        }
        if (t.next != null) {
            t.next.prev = t.prev;
        }
        t.next = null;
        t.prev = null;
        t.bucket = -1;
        count--;
    }

    private void fireBucket(long t) {
        long tickEnd = origin + t * tickNanos;
        int b = (int) (t & MASK);
        Timeout n = buckets == null ? null : buckets[b];
        while (n != null) {
            Timeout after = n.next;
            if (n.deadline - tickEnd <= 0) {
                unlink(n);
                if (!n.isCancelled()) {
                    fire(n, tickEnd);
                }
            }
            n = after;
        }
    }

    private void fire(Timeout n, long tickEnd) {
        long again;
        try {
            again = n.expire(manual ? tickEnd : Math.max(tickEnd, ticker.nanoTime()), n.deadline);
        } catch (RuntimeException | Error e) {
            LOG.warn("a timer of {} threw when it fired; it is dropped", threadName, e);
            return;
        }
        if (again != Long.MIN_VALUE && !shutdown) {
            n.deadline = again;
            link(n);
            if (n.isCancelled()) {
                unlink(n); // cancelled while it fired: its entry in `cancels` finds it unlinked
            }
        }
    }

    /** @return timers linked in the wheel now (read by the driver; approximate elsewhere) */
    public long pendingCount() {
        return count;
    }

    /**
     * Joins the wheel's thread, after {@link #shutdown()}.
     *
     * @param deadlineNanos the {@link System#nanoTime()} deadline
     */
    public void join(long deadlineNanos) {
        Thread th = thread;
        if (th != null && th != Thread.currentThread()) {
            Joins.join(th, deadlineNanos, "the timer wheel " + threadName);
        }
    }
}
