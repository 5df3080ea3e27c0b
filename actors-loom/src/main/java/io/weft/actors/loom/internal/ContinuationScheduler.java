package io.weft.actors.loom.internal;

import io.weft.actors.runtime.internal.cell.LiveBodies;
import io.weft.actors.runtime.internal.cell.OwnThreadPart;
import io.weft.actors.runtime.internal.schedule.TimerWheel;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.Arrays;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import org.slf4j.LoggerFactory;

/**
 * Runs each thread-based actor's body as a continuation on a few shared carrier virtual threads
 * instead of a virtual thread per actor (the opt-in {@code -Dweft.threadActors=continuations}).
 */
final class ContinuationScheduler implements Scheduler {

    /* design
     * Each actor is a ContinuationBody: its OwnThreadPart (the fields of thread mode), its
     * scheduler state and the target of its continuation, one object. Its continuation runs the
     * same loop as a virtual thread per actor (OwnThreadPart.run), but a wait (receive's pause,
     * the loop's idle) yields the continuation back to the carrier that ran it instead of parking
     * a thread. A hop between two actors is then a queue offer and a yield on the same carrier,
     * with no park, unpark or thread switch (as a react hop), where a virtual thread per actor
     * pays an unpark and a park through the JDK's scheduler. The body's run word (exactly one
     * carrier runs it, no wake-up lost) is in ContinuationBody's design block.
     *
     * Carriers and affinity: `base` virtual threads (one per core), started with the first body.
     * A body runs on one carrier for its whole life, the first one that runs it (its home): the
     * JIT treats Thread.currentThread() as a constant within a compiled method (only the JDK's
     * own mount code is exempt), so a compiled frame of a body that moved to another carrier
     * across a yield would go on seeing the old carrier as its thread, with that thread's
     * ThreadLocals, owner checks and CurrentActor. With a fixed home every frame of a body sees
     * one thread. Each carrier runs the bodies bound to it from its own queue (`local`, FIFO). A
     * new body is placed at its first schedule: on the spawner's carrier if a body spawned it,
     * else on the carrier of its run of spawns (runs of FRESH_BATCH consecutive spawns from outside
     * the carriers, carriers in turn), so actors spawned together (a ping-pong pair, a ring, a
     * parent and its children) share a carrier and a burst of spawns is spread in runs. The run
     * length (FRESH_BATCH, -Dweft.continuationSpawnRun) trades cross-carrier hops for cores: runs of
     * 1,024 put the whole of a Savina workload on one carrier and took 0.49-0.64x the time of runs
     * of 32 on big, chameneos, pingpong and threadring (2 cores, docs/benchmarks.md "Thread-based
     * actors"), but bind as many actors to one core for life, and a body that has run cannot move
     * (below), so a run that turns out to need two cores is never split: 32 stays the default. A wake of
     * a body offers it to its home's queue and unparks the home only if it is parked: a hand-off
     * between two bodies of one carrier is an offer and a yield, with no park or unpark.
     *
     * Blocking: a body that blocks outside receive (I/O, a lock, sleep) keeps its carrier (the
     * carrier virtual thread parks with it, inside the continuation), and the bodies bound to that
     * carrier wait until it returns. The watchdog, a periodic timer on the system's timer wheel
     * armed while bodies run, finds a carrier that ran the same body since its last look: it
     * moves that carrier's never-run bodies to the shared `fresh` queue (they have no frames yet,
     * so moving them is safe; a carrier with an empty queue takes up to FRESH_BATCH of them and
     * binds them to itself), wakes an idle carrier for them, and starts an extra carrier when
     * fewer than `base` carriers are free; an extra carrier ends when no body is bound to it.
     * Moving the never-run bodies takes every body out of the carrier's queue for a moment, so a
     * carrier that finds its queue empty meanwhile may park: releaseUnstarted wakes it after
     * putting the others back (without that, a forked compare run of pingpong hung with both
     * carriers parked). A carrier counts its bound bodies that have not run yet (`unstarted`),
     * and releaseUnstarted walks its queue only while that count is above zero: on loaded cores
     * a carrier descheduled by the OS for one watchdog period looks stuck in its body, and in a
     * close of 1,000,000 parked bodies (all started, all queued again by the stop) the walk of
     * a queue of hundreds of thousands every 5 ms took a fifth of the close's CPU samples. As a net under the whole protocol, the watchdog also wakes, and logs
     * once, any carrier it finds parked with bodies in its queue.
     *
     * Limits (docs/scheduling.md): a body that holds a monitor (synchronized) or a native frame
     * across receive cannot yield: receive fails with an IllegalStateException naming the actor
     * and the fix. What a body keeps per thread across receive (a ThreadLocal, a ReentrantLock it
     * holds) belongs to the carrier, shared by every body bound to it. A body that waits outside
     * receive for another thread-based actor bound to the same carrier (ask(...).join() on a
     * body) waits until its timeout: receive the reply instead.
     *
     * Sources: the one-shot continuations of the JDK (JEP 444's implementation, `jdk.internal.vm.
     * Continuation`); the run word: ContinuationBody.
     */

    private static final VarHandle CARRIER_STATE;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            CARRIER_STATE = l.findVarHandle(Carrier.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Whether the watchdog has logged a carrier it found parked with bodies queued (once per JVM). */
    private static final java.util.concurrent.atomic.AtomicBoolean RESCUE_LOGGED = new java.util.concurrent.atomic.AtomicBoolean();

    /** Watchdog looks that found a carrier stuck in one body, JVM-wide (ContinuationWatchdogTest). */
    static final java.util.concurrent.atomic.LongAdder STUCK_LOOKS = new java.util.concurrent.atomic.LongAdder();

    /** Walks of a stuck carrier's queue by releaseUnstarted, JVM-wide (ContinuationWatchdogTest). */
    static final java.util.concurrent.atomic.LongAdder QUEUE_WALKS = new java.util.concurrent.atomic.LongAdder();

    /** How often the watchdog looks at the carriers while bodies run. */
    private static final long WATCHDOG_NANOS = TimeUnit.MILLISECONDS.toNanos(Long.getLong("weft.continuationWatchdogMillis", 5));

    private final String name;
    private final String systemName;
    private final TimerWheel wheel;
    private final int base;
    /** Bodies that have never run, taken off a blocked carrier by the watchdog (design block). */
    private final Queue<ContinuationBody> fresh = new ConcurrentLinkedQueue<>();
    /**
     * New bodies from outside the carriers go to one carrier in runs of this many, carriers in turn
     * ({@code -Dweft.continuationSpawnRun=N}, default 32, at least 1): longer runs keep more of a
     * burst of spawns that talk to each other on one carrier, and put more of them on one core.
     */
    private static final int FRESH_BATCH = Math.max(1, Integer.getInteger("weft.continuationSpawnRun", 32));
    /** How many bodies are in {@code fresh} (about). */
    private final AtomicInteger freshCount = new AtomicInteger();
    /** New bodies placed from threads outside the carriers: runs of FRESH_BATCH go to one carrier. */
    private final java.util.concurrent.atomic.AtomicLong spawns = new java.util.concurrent.atomic.AtomicLong();
    private final ReentrantLock carriersLock = new ReentrantLock();
    private volatile Carrier[] carriers = new Carrier[0];
    private final AtomicInteger idleCarriers = new AtomicInteger();
    /** Bodies started and not ended; shutdown waits for those not abandoned. */
    private final LiveBodies live = new LiveBodies();
    private final AtomicInteger watchdogArmed = new AtomicInteger();
    private volatile boolean shutdown;

    /**
     * @param systemName the system's name (carrier thread names)
     * @param wheel the system's timer wheel (timed waits, the watchdog)
     * @param carriers the number of carriers that run bodies (at least 1)
     */
    ContinuationScheduler(String systemName, TimerWheel wheel, int carriers) {
        this.name = "continuation";
        this.systemName = systemName;
        this.wheel = wheel;
        this.base = Math.max(1, carriers);
    }

    /** Looks at the carriers while bodies run (design block). */
    private final class Watchdog extends TimerWheel.Timeout {
        @Override
        protected long expire(long now, long due) {
            if (shutdown) {
                watchdogArmed.set(0);
                return Long.MIN_VALUE;
            }
            int stuck = 0;
            int busy = 0;
            boolean queued = false;
            for (Carrier c : carriers) {
                if (!c.local.isEmpty()) {
                    queued = true;
                    if ((int) CARRIER_STATE.getVolatile(c) == Carrier.PARKED && CARRIER_STATE.compareAndSet(c, Carrier.PARKED, Carrier.BUSY)) {
                        // a parked carrier with bodies to run: a wake-up went missing
                        idleCarriers.decrementAndGet();
                        LockSupport.unpark(c.thread);
                        if (RESCUE_LOGGED.compareAndSet(false, true)) {
                            LoggerFactory.getLogger(ContinuationScheduler.class).warn(
                                    "scheduler {}: carrier {} was parked with bodies queued; the watchdog woke it", name, c.thread.getName());
                        }
                    }
                }
                long m = c.mounts;
                if ((int) CARRIER_STATE.getVolatile(c) == Carrier.BUSY) {
                    busy++;
                    if (m == c.seenMounts && c.inBody) {
                        stuck++;
                        STUCK_LOOKS.increment();
                        c.releaseUnstarted();
                    }
                }
                c.seenMounts = m;
            }
            if (!fresh.isEmpty()) {
                if (!wakeIdleCarrier() && carriers.length - stuck < base) {
                    addCarrier(true);
                }
            } else if (busy == 0 && !queued) {
                watchdogArmed.set(0);
                if (fresh.isEmpty() || !watchdogArmed.compareAndSet(0, 1)) {
                    return Long.MIN_VALUE;
                }
            }
            return now + WATCHDOG_NANOS;
        }
    }

    /** A carrier virtual thread: runs the bodies bound to it, and takes fresh ones. */
    final class Carrier implements Runnable {
        static final int BUSY = 0;
        static final int PARKED = 1;

        final boolean extra;
        final Thread thread;
        /** Bodies bound to this carrier that are ready to run (any thread offers, this carrier polls). */
        final Queue<ContinuationBody> local = new ConcurrentLinkedQueue<>();
        /** Bodies bound to this carrier and not ended. */
        final AtomicInteger bound = new AtomicInteger();
        /**
         * Bodies bound to this carrier that have not run yet (no continuation): releaseUnstarted
         * walks the queue only if there are any (design block: the watchdog).
         */
        final AtomicInteger unstarted = new AtomicInteger();
        /** BUSY or PARKED; PARKED -> BUSY by whoever wakes it (CAS), BUSY -> PARKED by itself. */
        @SuppressWarnings("unused") // through CARRIER_STATE
        volatile int state;
        /** Bodies run so far (written by the carrier, read by the watchdog). */
        volatile long mounts;
        /** Whether a body is mounted now (the watchdog counts a carrier stuck in one). */
        volatile boolean inBody;
        /** The watchdog's last look at mounts. */
        long seenMounts = -1;
        /** The body this carrier ran last (its uncaught-exception handler), owner only. */
        ContinuationBody lastRun;

        Carrier(boolean extra, int index) {
            this.extra = extra;
            this.thread = Thread.ofVirtual().name("weft-" + systemName + "-carrier-" + index).unstarted(this);
        }

        @Override
        public void run() {
            try {
                for (;;) {
                    ContinuationBody b = local.poll();
                    if (b == null) {
                        b = takeFresh();
                    }
                    if (b != null) {
                        runBody(b);
                        continue;
                    }
                    if (shutdown || extra && bound.get() == 0 && removeExtra(this)) {
                        return;
                    }
                    CARRIER_STATE.setVolatile(this, PARKED);
                    idleCarriers.incrementAndGet();
                    if ((!local.isEmpty() || !fresh.isEmpty() || shutdown) && CARRIER_STATE.compareAndSet(this, PARKED, BUSY)) {
                        idleCarriers.decrementAndGet();
                        continue;
                    }
                    while ((int) CARRIER_STATE.getVolatile(this) == PARKED && !shutdown) {
                        LockSupport.park(this);
                    }
                }
            } finally {
                CARRIER_STATE.setVolatile(this, BUSY);
            }
        }

        /** Binds up to FRESH_BATCH fresh bodies to this carrier; returns the first, queues the rest here. */
        private ContinuationBody takeFresh() {
            ContinuationBody first = fresh.poll();
            if (first == null) {
                return null;
            }
            freshCount.decrementAndGet();
            first.home = this;
            bound.incrementAndGet();
            unstarted.incrementAndGet();
            for (int i = 1; i < FRESH_BATCH; i++) {
                ContinuationBody b = fresh.poll();
                if (b == null) {
                    break;
                }
                freshCount.decrementAndGet();
                b.home = this;
                bound.incrementAndGet();
                unstarted.incrementAndGet();
                local.offer(b);
            }
            return first;
        }

        /**
         * A body blocks this carrier: its bound bodies that have never run (no frames yet, so
         * nothing can have seen this carrier as its thread) go back to the fresh queue.
         */
        void releaseUnstarted() {
            if (unstarted.get() <= 0) {
                return; // every body bound here has run: none may move (a close of many parked bodies)
            }
            QUEUE_WALKS.increment();
            int n = local.size();
            boolean kept = false;
            for (int i = 0; i < n; i++) {
                ContinuationBody b = local.poll();
                if (b == null) {
                    break;
                }
                if (b.continuation == null) {
                    b.home = null;
                    bound.decrementAndGet();
                    unstarted.decrementAndGet();
                    fresh.offer(b);
                    freshCount.incrementAndGet();
                } else {
                    local.offer(b);
                    kept = true;
                }
            }
            // the carrier may have found its queue empty while a body was out of it here, and parked
            if (kept && (int) CARRIER_STATE.getVolatile(this) == PARKED && CARRIER_STATE.compareAndSet(this, PARKED, BUSY)) {
                idleCarriers.decrementAndGet();
                LockSupport.unpark(thread);
            }
        }

        private void runBody(ContinuationBody b) {
            mounts++;
            inBody = true;
            Thread me = thread;
            if (lastRun != b) {
                // WeftSystem.current() finds the actor through it (CurrentActor); kept after the
                // body yields, so a run of one body costs no write (the loop runs no actor code)
                me.setUncaughtExceptionHandler(b);
                lastRun = b;
            }
            try {
                Object c = b.continuation;
                if (c == null) {
                    c = JdkContinuations.create(b);
                    b.continuation = c;
                    unstarted.decrementAndGet();
                }
                JdkContinuations.run(c);
                if (!JdkContinuations.isDone(c)) {
                    b.afterYield();
                } else {
                    b.continuation = null;
                    lastRun = null;
                    me.setUncaughtExceptionHandler(null); // an ended body is no longer found here
                }
            } catch (Throwable t) {
                b.uncaughtException(me, t);
            } finally {
                inBody = false;
            }
        }
    }

    /** @return the system's timer wheel (timed waits of bodies) */
    TimerWheel wheel() {
        return wheel;
    }

    /** A body was ended from outside: shutdown does not wait for it. */
    void abandoned() {
        live.abandon();
    }

    /**
     * A body's loop ended: it is no longer bound to its carrier nor live.
     *
     * @param b the body
     * @param wasAbandoned whether {@link #abandoned()} counted it
     */
    void bodyEnded(ContinuationBody b, boolean wasAbandoned) {
        b.home.bound.decrementAndGet();
        live.ended(wasAbandoned);
    }

    /** Queues a woken body on its home carrier, placing a new one first (design block). */
    void submit(ContinuationBody b) {
        Carrier home = b.home;
        if (home != null) {
            home.local.offer(b);
            // the home carrier runs its bodies in turn: wake it only if it is parked
            if ((int) CARRIER_STATE.getVolatile(home) == Carrier.PARKED && CARRIER_STATE.compareAndSet(home, Carrier.PARKED, Carrier.BUSY)) {
                idleCarriers.decrementAndGet();
                LockSupport.unpark(home.thread);
            }
            armWatchdog();
            return;
        }
        // a new body: the spawner's carrier, or the carrier of this run of spawns (design block)
        Carrier c = spawnerCarrier();
        if (c == null) {
            Carrier[] all = carriers;
            int run = (int) ((spawns.getAndIncrement() / FRESH_BATCH) % Math.min(base, all.length));
            c = all[run];
        }
        b.home = c;
        c.bound.incrementAndGet();
        c.unstarted.incrementAndGet();
        submit(b);
    }

    private void armWatchdog() {
        if (watchdogArmed.get() == 0 && watchdogArmed.compareAndSet(0, 1)) {
            try {
                wheel.schedule(new Watchdog(), wheel.now() + WATCHDOG_NANOS);
            } catch (java.util.concurrent.RejectedExecutionException closing) {
                watchdogArmed.set(0); // the system is closing: the carriers still drain the queues
            }
        }
    }

    /** The carrier of this scheduler that the calling body runs on, or null. */
    private Carrier spawnerCarrier() {
        return Thread.currentThread().getUncaughtExceptionHandler() instanceof ContinuationBody b && b.owner() == this
                && b.runningThread() != null ? b.home : null;
    }

    private boolean wakeIdleCarrier() {
        if (idleCarriers.get() <= 0) {
            return false;
        }
        for (Carrier c : carriers) {
            if ((int) CARRIER_STATE.getVolatile(c) == Carrier.PARKED && CARRIER_STATE.compareAndSet(c, Carrier.PARKED, Carrier.BUSY)) {
                idleCarriers.decrementAndGet();
                LockSupport.unpark(c.thread);
                return true;
            }
        }
        return false;
    }

    private void addCarrier(boolean extra) {
        carriersLock.lock();
        try {
            if (shutdown) {
                return;
            }
            Carrier[] now = carriers;
            Carrier c = new Carrier(extra, now.length + 1);
            Carrier[] next = Arrays.copyOf(now, now.length + 1);
            next[now.length] = c;
            carriers = next;
            c.thread.start();
        } finally {
            carriersLock.unlock();
        }
    }

    /** An extra carrier that found no work leaves, if the base carriers remain. */
    private boolean removeExtra(Carrier c) {
        carriersLock.lock();
        try {
            Carrier[] now = carriers;
            if (now.length <= base) {
                return false;
            }
            Carrier[] next = new Carrier[now.length - 1];
            int j = 0;
            for (Carrier x : now) {
                if (x != c && j < next.length) {
                    next[j++] = x;
                }
            }
            carriers = next;
            return true;
        } finally {
            carriersLock.unlock();
        }
    }

    private void startCarriers() {
        carriersLock.lock();
        try {
            if (carriers.length == 0 && !shutdown) {
                for (int i = 0; i < base; i++) {
                    addCarrier(false);
                }
            }
        } finally {
            carriersLock.unlock();
        }
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(new ContinuationBody(this, frame));
    }

    @Override
    public void schedule(Frame frame) {
        ContinuationBody b = (ContinuationBody) frame.schedulerState();
        if (!b.started) {
            b.started = true; // the first schedule is the spawn's (or the move's), before any sender
            live.started();
            if (carriers.length == 0) {
                startCarriers();
            }
        }
        b.wake();
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public boolean ownsThread() {
        return true;
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * Waits, at most 10 seconds, until every body has ended except those ended from outside, then
     * ends the carriers.
     */
    @Override
    public void shutdown() {
        live.awaitEnded(Duration.ofSeconds(10), LoggerFactory.getLogger(ContinuationScheduler.class), name, "actor bodies");
        shutdown = true;
        for (Carrier c : carriers) {
            LockSupport.unpark(c.thread);
        }
    }
}
