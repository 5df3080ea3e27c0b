package io.weft.actors.runtime.internal.cell;

import io.weft.actors.runtime.internal.schedule.Joins;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;
import org.jctools.queues.atomic.unpadded.MpscLinkedAtomicUnpaddedQueue;
import org.slf4j.LoggerFactory;

/**
 * Gives every actor a thread of its own (Prokopec 2016, §4, {@code ThreadScheduler}): a dedicated platform
 * thread, or a virtual thread. Event-based actors on it drain their channels until empty and then
 * park; thread-based actors block in {@code receive} on it.
 */
public class ThreadPerActorScheduler implements Scheduler {

    /* design
     * State per frame: the thread (created at initSchedule, started by the first schedule). The
     * state is also the actor's OwnThreadPart (the fields of thread mode), so a thread-based actor
     * has no cell extras of its own.
     * The thread's loop (OwnThreadPart.run, the state's run): execute(); then, while the frame is not active, park. A sender activates
     * the frame (active 0 -> 1) and calls schedule, which unparks the thread, so a wake-up is never
     * lost: park returns at once if the unpark came first. The loop ends when the frame stops or
     * moves to another scheduler (its state is no longer ours).
     *
     * The state is also the thread's uncaught-exception handler. That slot exists on every thread,
     * so it lets WeftSystem.current() find the frame of an actor-owned thread without a
     * ThreadLocal (whose map would cost each parked virtual thread about 140 bytes). execute()
     * never throws, so the handler only logs what cannot happen.
     *
     * Shutdown: waits (bounded) until every thread has left its loop, then joins the platform
     * threads, which are kept in `platformThreads` from start until a later start prunes the ended
     * ones (platform threads are few, and each costs a stack of its own anyway); virtual threads are only counted, since a set entry would add about 40 bytes
     * to every parked thread-based actor, and a virtual thread past its loop holds nothing of the
     * system. A thread whose actor was ended from outside after the stop grace period (Cell.
     * endFromOutside, which logs a warning naming it) is abandoned: shutdown does not wait for it.
     */

    private final Thread.Builder threads;
    private final String name;
    /** Each actor's thread is named this plus the actor's name; null keeps the builder's names. */
    private final String threadNamePrefix;
    /** {@code threadNamePrefix} followed by the {@code $} of an unnamed actor's name ({@code $<id>}). */
    private final String unnamedThreadPrefix;
    /** Threads started and not yet finished, and those whose actor was ended from outside ({@link #abandon}). */
    private final LiveBodies live = new LiveBodies();
    /** Platform threads started and not yet ended (pruned as they end); null for virtual threads. */
    private final Set<Thread> platformThreads;

    private static final VarHandle STARTED;
    private static final VarHandle FATE;
    private static final int RUNNING = 0;
    private static final int ABANDONED = 1;
    private static final int EXITED = 2;

    static {
        try {
            STARTED = MethodHandles.lookup().findVarHandle(State.class, "started", int.class);
            FATE = MethodHandles.lookup().findVarHandle(State.class, "fate", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * @param name the scheduler's name
     * @param threads how to make each actor's thread
     */
    public ThreadPerActorScheduler(String name, Thread.Builder threads) {
        this(name, threads, null);
    }

    /**
     * @param name the scheduler's name
     * @param threads how to make each actor's thread
     * @param threadNamePrefix each actor's thread is named this followed by the actor's name
     *     ({@code weft-<system>-actor-<actor>}, so a thread dump names the actor); null keeps the
     *     names {@code threads} gives
     */
    public ThreadPerActorScheduler(String name, Thread.Builder threads, String threadNamePrefix) {
        this.name = name;
        this.threads = threads;
        this.threadNamePrefix = threadNamePrefix;
        this.unnamedThreadPrefix = threadNamePrefix + "$";
        this.platformThreads = threads instanceof Thread.Builder.OfVirtual ? null : ConcurrentHashMap.newKeySet();
    }

    /**
     * Per-frame state, the actor's thread-mode part, and the body of the frame's thread: one object,
     * and one stack frame under the actor's own frames (a parked virtual thread's footprint is
     * mostly its stack).
     */
    private final class State extends OwnThreadPart implements SchedulerState, Runnable, Thread.UncaughtExceptionHandler {
        final Thread thread;
        @SuppressWarnings("unused") // through STARTED
        volatile int started;
        /** RUNNING, then ABANDONED (the frame was ended from outside) or EXITED (the loop ended); CAS only. */
        @SuppressWarnings("unused") // through FATE
        volatile int fate;

        int lvStarted() {
            return (int) STARTED.getVolatile(this);
        }

        boolean casStarted(int expected, int next) {
            return STARTED.compareAndSet(this, expected, next);
        }

        int lvFate() {
            return (int) FATE.getVolatile(this);
        }

        boolean casFate(int expected, int next) {
            return FATE.compareAndSet(this, expected, next);
        }

        boolean abandoned() {
            return lvFate() == ABANDONED;
        }

        State(Frame frame) {
            super(frame, false);
            this.thread = threads.unstarted(this);
            if (threadNamePrefix != null) {
                // one String per thread, made in one concatenation (an unnamed actor's name,
                // "$" + id, is not made first)
                this.thread.setName(frame.ref() instanceof LocalRef<?> r && !r.hasGivenName()
                        ? unnamedThreadPrefix + r.id() : threadNamePrefix + frame.ref().name());
            }
            this.thread.setUncaughtExceptionHandler(this);
        }

        ThreadPerActorScheduler owner() {
            return ThreadPerActorScheduler.this;
        }

        @Override
        protected void endedFromOutside() {
            abandon(frame);
        }

        @Override
        public void uncaughtException(Thread t, Throwable e) {
            LoggerFactory.getLogger(ThreadPerActorScheduler.class).error("thread {} of {} ended with an exception", t, frame.ref(), e);
        }

        @Override
        public void onBatchStart() {
        }

        @Override
        public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
            return true;
        }

        @Override
        protected void ended() {
            live.ended(!casFate(RUNNING, EXITED));
        }
    }

    @Override
    public void initSchedule(Frame frame) {
        frame.schedulerState(new State(frame));
    }

    /**
     * The frame whose own thread {@code thread} is: a thread whose uncaught-exception handler is an
     * actor's thread-mode part (this scheduler's threads; a continuation scheduler's carrier while
     * it runs a body).
     *
     * @param thread a thread
     * @return its frame, or null
     */
    public static Frame frameOf(Thread thread) {
        return thread.getUncaughtExceptionHandler() instanceof OwnThreadPart p ? p.frame() : null;
    }

    @Override
    public void schedule(Frame frame) {
        State s = (State) frame.schedulerState();
        if (s.lvStarted() == 0 && s.casStarted(0, 1)) {
            live.started();
            if (platformThreads != null) {
                if (platformThreads.size() > 2 * live.live() + 16) {
                    platformThreads.removeIf(t -> !t.isAlive()); // amortized: at most every other start
                }
                platformThreads.add(s.thread);
            }
            s.thread.start();
        } else {
            LockSupport.unpark(s.thread);
        }
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new MpscLinkedAtomicUnpaddedQueue<>();
    }

    @Override
    public boolean ownsThread() {
        return true;
    }

    @Override
    public String name() {
        return name;
    }

    /** @return how many actor threads of this scheduler are alive */
    public int liveThreads() {
        return live.live();
    }

    /**
     * The frame was ended from outside while its thread still runs the body: shutdown will not wait
     * for that thread.
     *
     * @param frame a frame of this scheduler
     */
    public void abandon(Frame frame) {
        if (frame.schedulerState() instanceof ThreadPerActorScheduler.State s && s.owner() == this
                && s.casFate(RUNNING, ABANDONED)) {
            live.abandon();
        }
    }

    /**
     * Waits, at most 10 seconds, until every thread of this scheduler has ended, except those whose
     * actor was ended from outside ({@link #abandon}); logs a warning naming any that has not.
     */
    @Override
    public void shutdown() {
        long deadline = live.awaitEnded(Duration.ofSeconds(10), LoggerFactory.getLogger(ThreadPerActorScheduler.class), name, "actor threads");
        if (platformThreads != null) {
            for (Thread t : platformThreads) {
                if (t == Thread.currentThread() || !(t.getUncaughtExceptionHandler() instanceof ThreadPerActorScheduler.State s)
                        || s.abandoned()) {
                    continue;
                }
                Joins.join(t, deadline, "actor thread of " + s.frame().ref());
            }
        }
    }
}
