package io.weft.actors.stream.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.Channel;
import io.weft.actors.stream.Stage;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import io.weft.actors.spi.SchedulerState;
import io.weft.actors.runtime.internal.ActivationWord;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.ReentrantLock;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.atomic.MpscChunkedAtomicArrayQueue;
import org.jctools.queues.atomic.SpscChunkedAtomicArrayQueue;

/**
 * Runs one {@link Stage} as a {@link Frame} of the scheduler SPI: a typed bounded input queue
 * (JCTools SPSC when exactly one stage feeds it, MPSC otherwise) drained in batches by
 * {@code consume}. The ForkJoin scheduler runs it, like an actor's cell, through a fresh pool task
 * per schedule.
 *
 * @param <I> the input type
 * @param <O> the output type
 */
public final class StageFrame<I, O> extends ActivationWord implements Frame, EventQueue, Runnable {

    /* design
     * The activation protocol of Cell (Prokopec 2016, Fig. 1-3), for a single typed queue and no
     * behaviours (Rinaldi et al. 2020, §4, SeqNode), on the same ActivationWord (its A1-A3 are the
     * I1 and I2 below): `active` 0 = idle, 1 = owned by exactly one thread.
     *
     *   offer:   queue.offer(item) then [full fence] if active == 0 and CAS(0, 1): schedule.
     *            MPSC offer is a CAS (a full fence); SPSC offer is only a release store, so the
     *            SPSC path adds VarHandle.fullFence() before reading `active` (I2 below).
     *   end:     each producer's EOS is an atomic increment of `ended` (after its last offer),
     *            then the same activation.
     *   execute: onStart once; then poll/consume until the batch budget (SchedulerState) ends or
     *            the queue is empty. An empty queue with ended == producers and still empty after
     *            that read means end of stream: onStop, propagate EOS downstream, terminate.
     *            Then: work left -> schedule again (still active); else active = 0 (volatile),
     *            re-check, and CAS(0, 1) + schedule if work appeared.
     *
     * Invariants:
     *   I1: consume/onStart/onStop run only on the thread that owns `active` = 1: one at a time.
     *   I2: no lost wake-up: the producer's offer precedes its read of `active` (full fence); the
     *       owner's write of 0 precedes its re-read of the queue; one of them sees the other.
     *   I3: EOS after all items: a producer increments `ended` after its last offer, so a
     *       consumer that reads ended == producers and then finds the queue empty has seen all.
     *   I4: stop (failure or cancel) is a flag on the shared network; every frame is activated
     *       once more, sees it, moves its queue to dead letters and terminates without onStop.
     *   I5: a conditional offer (emitIfBelow, offerIfBelow) never takes the queue above its limit
     *       when every producer offers conditionally: on an MPSC queue the length check and the
     *       offer run under `conditional` (a ReentrantLock, never a monitor: a virtual thread may
     *       emit), so no two conditional producers pass the check for the same free place; the
     *       consumer only shrinks the queue meanwhile. Unconditional offers (emit, put) never take
     *       the lock and are bounded by the queue's capacity only. An SPSC queue has one producer.
     */

    private static final VarHandle ENDED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            ENDED = l.findVarHandle(StageFrame.class, "ended", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final String name;
    private final Stage<I, O> stage;
    private final Network<?> network;
    private final MessagePassingQueue<I> queue;
    private final boolean spsc;
    private final int producers;
    private final StreamRef<I> ref;
    private final Scheduler scheduler;
    private SchedulerState state;
    private Outlet<O> out;

    @SuppressWarnings("unused") // through ENDED
    private volatile int ended;
    /** Serializes conditional offers to an MPSC queue (I5); null for SPSC. */
    private final ReentrantLock conditional;
    private volatile boolean terminated;
    private volatile long consumed;
    private boolean started;

    StageFrame(String name, Stage<I, O> stage, Network<?> network, int producers, boolean external, Scheduler scheduler) {
        this.name = name;
        this.stage = stage;
        this.network = network;
        this.producers = producers;
        int capacity = Math.max(4, StageAccess.get().capacity(stage));
        int chunk = Math.max(2, Math.min(1024, Integer.highestOneBit(capacity - 1)));
        this.spsc = producers == 1 && !external;
        this.queue = spsc
                ? new SpscChunkedAtomicArrayQueue<>(chunk, capacity)
                : new MpscChunkedAtomicArrayQueue<>(chunk, capacity);
        this.conditional = spsc ? null : new ReentrantLock();
        this.scheduler = scheduler;
        this.ref = new StreamRef<>(name, this::put);
        scheduler.initSchedule(this);
    }

    void connect(Outlet<O> outlet) {
        this.out = outlet;
        StageAccess.get().bind(stage, this, outlet);
    }

    /** @return the stage's unique name in its network */
    public String name() {
        return name;
    }

    void dead(I item) {
        network.dead(item, ref);
    }

    boolean isStopped() {
        return network.stopped || terminated;
    }

    private boolean put(I item) {
        return offer(item) || Waits.offerBlocking(this, item);
    }

    /**
     * @param item the item
     * @return false if the queue is full
     */
    boolean offer(I item) {
        if (!queue.offer(item)) {
            return false;
        }
        if (spsc) {
            VarHandle.fullFence();
        }
        activate();
        return true;
    }

    /**
     * Offers {@code item} only if the queue holds fewer than {@code limit} items (emitIfBelow,
     * offerIfBelow). Conditional offers to an MPSC queue take {@link #conditional}, so two of them
     * cannot both pass the length check and together go over the limit (I5); unconditional offers
     * never take it.
     *
     * @param item the item
     * @param limit the refusal threshold
     * @return false if the queue held {@code limit} or more, or was full
     */
    boolean offerIfBelow(I item, int limit) {
        if (spsc) {
            return queue.size() < limit && offer(item); // one producer: nothing to race with
        }
        ReentrantLock lock = conditional;
        lock.lock();
        try {
            if (queue.size() >= limit || !queue.offer(item)) {
                return false;
            }
        } finally {
            lock.unlock();
        }
        activate(); // MPSC offer is a CAS (a full fence), as in offer (I2)
        return true;
    }

    void producerDone() {
        gaaEnded(1);
        activate();
    }

    void activate() {
        if (activateIfIdle()) {
            scheduler.schedule(this);
        }
    }

    private void gaaEnded(int delta) {
        ENDED.getAndAdd(this, delta);
    }

    private int lvEnded() {
        return (int) ENDED.getVolatile(this);
    }

    long consumed() {
        return consumed;
    }

    private boolean allEnded() {
        return lvEnded() >= producers;
    }

    @Override
    public void execute() {
        if (terminated) {
            return;
        }
        Stage<I, O> s = stage;
        MessagePassingQueue<I> q = queue;
        long count = consumed;
        try {
            if (!started) {
                started = true;
                Hooks.start(s);
            }
            SchedulerState st = state;
            st.onBatchStart();
            int n = 0;
            for (;;) {
                if (network.stopped) {
                    terminate();
                    return;
                }
                I x = q.relaxedPoll();
                if (x == null) {
                    if (allEnded() && q.isEmpty()) {
                        consumed = count;
                        Hooks.stop(s);
                        out.complete();
                        terminate();
                        return;
                    }
                    break;
                }
                Hooks.consume(s, x);
                count++;
                if (!st.onBatchEvent(this, ++n)) {
                    break;
                }
            }
        } catch (Throwable e) {
            consumed = count;
            network.failed(name, e);
            terminate();
            return;
        }
        consumed = count;
        if (workLeft()) {
            scheduler.schedule(this);
            return;
        }
        if (idleOrReclaim()) {
            scheduler.schedule(this);
        }
    }

    /** {@link ActivationWord#idleOrReclaim()}'s re-check (I2). */
    @Override
    protected boolean workPending() {
        return workLeft();
    }

    private boolean workLeft() {
        return !queue.isEmpty() || allEnded() || network.stopped;
    }

    private void terminate() {
        terminated = true;
        if (!queue.isEmpty()) { // only after a stop: the items go to dead letters, not silently away
            queue.drain(item -> network.dead(item, ref));
        }
        network.frameDone();
    }

    /** @return the current queue length (approximate while producers are active) */
    public int size() {
        return queue.size();
    }

    // ------------------------------------------------------------ Frame / EventQueue / FJ

    @Override
    public ActorRef<?> ref() {
        return ref;
    }

    @Override
    public Runnable task() {
        return this;
    }

    @Override
    public SchedulerState schedulerState() {
        return state;
    }

    @Override
    public void schedulerState(SchedulerState state) {
        this.state = state;
    }

    @Override
    public Scheduler scheduler() {
        return scheduler;
    }

    @Override
    public boolean isActive() {
        return lvActive();
    }

    @Override
    public boolean hasPending() {
        return !queue.isEmpty();
    }

    @Override
    public boolean isTerminated() {
        return terminated;
    }

    @Override
    public Channel<?> channel() {
        return ref;
    }

    @Override
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    @Override
    public void run() {
        execute();
    }

    @Override
    public String toString() {
        return "StageFrame[" + name + "]";
    }
}
