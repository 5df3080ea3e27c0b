package io.weft.actors.runtime;

import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A scheduler, written against the public SPI only, that checks the runtime's side of the
 * {@link Scheduler} contract as its Javadoc states it, on a pool of {@code threads} threads:
 * <ol>
 *   <li>{@code initSchedule(frame)} comes before any {@code schedule(frame)};
 *   <li>one {@code schedule(frame)} at a time: the next one comes only after the {@code execute()}
 *       of the previous one has started;
 *   <li>turns never overlap: once an {@code execute()} of a frame has started, an earlier
 *       {@code execute()} of the same frame that may still be returning makes no further call on
 *       the frame's scheduler state and no further {@code schedule(frame)}.
 * </ol>
 * Each broken rule is counted in {@link #violations} with a description in {@link #reports}. It
 * also counts {@link #overlappingExecutes}: starts of an {@code execute()} while an earlier one of
 * the same frame had not yet returned, which the contract allows.
 */
final class ContractCheckingScheduler implements Scheduler {

    final AtomicInteger violations = new AtomicInteger();
    final Queue<String> reports = new ConcurrentLinkedQueue<>();
    final AtomicLong overlappingExecutes = new AtomicLong();
    final AtomicLong executes = new AtomicLong();
    final List<Checked> states = new CopyOnWriteArrayList<>();
    private final ExecutorService pool;
    private final int budget;
    /** The frame and execute() generation the current thread is running; state null when none. */
    private final ThreadLocal<Running> running = ThreadLocal.withInitial(Running::new);

    /** What one pool thread is running. */
    private static final class Running {
        Checked state;
        long generation;
    }

    ContractCheckingScheduler(int threads, int budget) {
        this.budget = budget;
        this.pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "contract-checker");
            t.setDaemon(true);
            return t;
        });
    }

    /** Per-frame record of the protocol. */
    final class Checked implements SchedulerState {
        final Frame frame;
        /** schedule calls not yet followed by the start of their execute. */
        final AtomicInteger outstanding = new AtomicInteger();
        /** execute calls in progress (started, not returned). */
        final AtomicInteger inExecute = new AtomicInteger();
        /** Incremented at each execute start: the newest execute owns the turn. */
        final AtomicLong generation = new AtomicLong();

        Checked(Frame frame) {
            this.frame = frame;
        }

        @Override
        public void onBatchStart() {
            checkCurrent("onBatchStart");
        }

        @Override
        public boolean onBatchEvent(EventQueue queue, int handledInBatch) {
            checkCurrent("onBatchEvent");
            return handledInBatch < budget;
        }

        /** A call made by a frame's turn must come from the newest execute of that frame. */
        void checkCurrent(String what) {
            Running r = running.get();
            long mine = r.state == this ? r.generation : 0;
            long newest = generation.get();
            if (mine != newest) {
                violation(what + " of " + frame.ref() + " from execute #" + mine + " while execute #" + newest
                        + " had started (turns overlapped)");
            }
        }
    }

    private void violation(String what) {
        violations.incrementAndGet();
        if (reports.size() < 20) {
            reports.add(what);
        }
    }

    @Override
    public void initSchedule(Frame frame) {
        Checked state = new Checked(frame);
        states.add(state);
        frame.schedulerState(state);
    }

    @Override
    public void schedule(Frame frame) {
        if (!(frame.schedulerState() instanceof Checked state) || state.frame != frame) {
            violation("schedule(" + frame.ref() + ") before initSchedule");
            return;
        }
        if (running.get().state == state) {
            // called from inside an execute of this frame: that execute must still own the turn
            state.checkCurrent("schedule (from inside execute)");
        }
        if (state.outstanding.incrementAndGet() > 1) {
            violation("schedule(" + frame.ref() + ") again before the execute of the previous schedule started");
        }
        pool.execute(() -> run(state));
    }

    private void run(Checked state) {
        state.outstanding.decrementAndGet();
        long gen = state.generation.incrementAndGet();
        if (state.inExecute.getAndIncrement() > 0) {
            overlappingExecutes.incrementAndGet();
        }
        executes.incrementAndGet();
        Running r = running.get();
        r.state = state;
        r.generation = gen;
        try {
            state.frame.execute();
        } finally {
            r.state = null;
            r.generation = 0;
            state.inExecute.decrementAndGet();
        }
    }

    @Override
    public Queue<EventQueue> newPendingQueue() {
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public String name() {
        return "contract-checker";
    }

    @Override
    public void shutdown() {
        pool.shutdownNow();
        try {
            pool.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
