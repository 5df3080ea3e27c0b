package io.weft.actors.loom.internal;

import io.weft.actors.runtime.internal.cell.OwnThreadPart;
import io.weft.actors.runtime.internal.schedule.TimerWheel;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.SchedulerState;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.slf4j.LoggerFactory;

/**
 * One thread-based actor of the {@link ContinuationScheduler}: its thread-mode part, its scheduler
 * state and the target of its continuation, one object.
 */
final class ContinuationBody extends OwnThreadPart implements SchedulerState, Runnable, Thread.UncaughtExceptionHandler {

    /* design
     * The body's continuation runs OwnThreadPart's loop (run: execute, then wait while the frame
     * is inactive); its waits (receive's pause, the loop's idle) yield the continuation back to
     * the carrier that runs it instead of parking a thread.
     *
     * The run word (runWord, CAS only) keeps a body on one carrier at a time and loses no wake-up:
     *   IDLE    -> RUNNING  wake(): the body is queued (its home's queue, or placed), exactly once;
     *   RUNNING -> WOKEN    wake() while a carrier runs it: that carrier runs it again;
     *   RUNNING -> IDLE     the carrier, after the body yielded (it waits);
     *   WOKEN   -> RUNNING  the carrier, after the body yielded: back in its own queue.
     * The body re-checks its condition (the frame's activation, a deadline, the lifecycle) after
     * every resume, so a wake is only ever early, never lost: a sender activates the frame before
     * it calls schedule (wake), and the body gives the frame up before it yields (I2 of the cell).
     * A stop resumes a body waiting in receive through the same activation; nothing interrupts a
     * carrier (it runs other bodies), and the body is carried by no thread while it waits in
     * receive (OwnThreadPart.carriedBy(null)). A timed wait arms a timer on the system's wheel
     * that wakes it. Placement, affinity and the watchdog: ContinuationScheduler's design block.
     * The run word is the activation protocol of Prokopec 2016, §3 applied to a body instead of
     * a frame.
     */

    static final int IDLE = 0;
    static final int RUNNING = 1;
    static final int WOKEN = 2;

    private static final VarHandle RUN_WORD;

    static {
        try {
            RUN_WORD = MethodHandles.lookup().findVarHandle(ContinuationBody.class, "runWord", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ContinuationScheduler scheduler;
    /** The continuation, made by the first run. */
    Object continuation;
    /** IDLE, RUNNING or WOKEN (design block); CAS only. */
    @SuppressWarnings("unused") // through RUN_WORD
    private volatile int runWord;
    /** Whether the body has been started (the live count), owner only after the first schedule. */
    boolean started;
    /** The carrier that runs this body, from its first run on (affinity); null before. */
    volatile ContinuationScheduler.Carrier home;
    private volatile boolean abandoned;

    ContinuationBody(ContinuationScheduler scheduler, Frame frame) {
        super(frame, true);
        this.scheduler = scheduler;
    }

    ContinuationScheduler owner() {
        return scheduler;
    }

    /** Makes the body run (again): design block, the run word. */
    void wake() {
        for (;;) {
            int r = (int) RUN_WORD.getVolatile(this);
            if (r == IDLE) {
                if (RUN_WORD.compareAndSet(this, IDLE, RUNNING)) {
                    scheduler.submit(this);
                    return;
                }
            } else if (r == RUNNING) {
                if (RUN_WORD.compareAndSet(this, RUNNING, WOKEN)) {
                    return;
                }
            } else {
                return;
            }
        }
    }

    /** The carrier's step after the body yielded: park it, or queue it again if woken meanwhile. */
    void afterYield() {
        if (!RUN_WORD.compareAndSet(this, RUNNING, IDLE)) {
            RUN_WORD.setVolatile(this, RUNNING); // WOKEN: only this carrier moves it from WOKEN
            home.local.offer(this); // the carrier's own queue: it takes the body next round
        }
    }

    @Override
    protected void pause(Object blocker, long deadline) {
        WakeTimer timer = null;
        TimerWheel wheel = scheduler.wheel();
        if (deadline != Long.MAX_VALUE) {
            timer = new WakeTimer(this);
            wheel.schedule(timer, wheel.now() + Math.max(0, deadline - System.nanoTime()));
        }
        carriedBy(null);
        try {
            JdkContinuations.yieldBody();
        } catch (IllegalStateException pinned) {
            throw pinnedError(pinned);
        } finally {
            // no Thread.currentThread() here: the carrier is the home one (affinity), and the
            // JIT may keep a value read before the yield (ContinuationScheduler's design block)
            carriedBy(home.thread);
            if (timer != null) {
                wheel.cancel(timer);
            }
        }
    }

    private IllegalStateException pinnedError(IllegalStateException e) {
        return new IllegalStateException("thread-based actor " + frame.ref() + " cannot wait in receive: its body is pinned"
                + " to its carrier (" + e.getMessage() + "), which happens when it holds a monitor (synchronized) or runs"
                + " under a native frame across receive. Leave the synchronized block before receive (or use a"
                + " ReentrantLock released before it), or run without -Dweft.threadActors=continuations", e);
    }

    @Override
    protected void idle() {
        JdkContinuations.yieldBody();
    }

    @Override
    protected void wake(Thread t) {
        wake();
    }

    @Override
    protected void endedFromOutside() {
        if (!abandoned) {
            abandoned = true;
            scheduler.abandoned();
        }
    }

    @Override
    protected void ended() {
        scheduler.bodyEnded(this, abandoned);
    }

    @Override
    public void onBatchStart() {
    }

    @Override
    public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
        return true;
    }

    @Override
    public void uncaughtException(Thread t, Throwable e) {
        LoggerFactory.getLogger(ContinuationScheduler.class).error("carrier {} of {} ended with an exception", t, frame.ref(), e);
    }

    /** Wakes a body at the deadline of its timed wait. */
    private static final class WakeTimer extends TimerWheel.Timeout {
        private final ContinuationBody body;

        WakeTimer(ContinuationBody body) {
            this.body = body;
        }

        @Override
        protected long expire(long now, long due) {
            body.wake();
            return Long.MIN_VALUE;
        }
    }
}
