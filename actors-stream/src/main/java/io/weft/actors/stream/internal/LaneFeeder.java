package io.weft.actors.stream.internal;

import io.weft.actors.stream.Feeder;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;

/**
 * A {@link Feeder}: one thread's outlet into new SPSC lanes of a network's first stages.
 *
 * @param <I> the input type
 */
final class LaneFeeder<I> implements Feeder<I> {

    /* design
     * The lane is single-producer, so the feeder is bound to one thread: `owner` is claimed by a
     * CAS from null on the first call, and every call compares it with the calling thread (a plain
     * read: a thread that reads a stale null fails the CAS and is refused the same way). `closed`
     * is owner-only. close() completes the outlet, which marks each lane closed after the owner's
     * last offer (StageInput, L1).
     */

    private static final VarHandle OWNER;

    static {
        try {
            OWNER = MethodHandles.lookup().findVarHandle(LaneFeeder.class, "owner", Thread.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Network<I> network;
    private final Outlet<I> out;
    @SuppressWarnings("unused") // claimed through OWNER
    private Thread owner;
    private boolean closed;

    LaneFeeder(Network<I> network, Outlet<I> out) {
        this.network = network;
        this.out = out;
    }

    /** Per call: the owner and open checks inline, their rare outcomes in {@link #claimOrRefuse()}. */
    private void check() {
        if (owner != Thread.currentThread() || closed) {
            claimOrRefuse();
        }
    }

    /** The first call's claim of the feeder, or the refusal of another thread or a closed feeder. */
    private void claimOrRefuse() {
        Thread t = Thread.currentThread();
        if (owner != t && !OWNER.compareAndSet(this, (Thread) null, t)) {
            Thread o = (Thread) OWNER.getVolatile(this);
            throw new IllegalStateException("feeder of pipeline '" + network.name() + "' belongs to thread '"
                    + (o == null ? "?" : o.getName()) + "'; thread '" + t.getName()
                    + "' may not use it: a feeder is one thread's lane, take another with feeder()");
        }
        if (closed) {
            throw new IllegalStateException("feeder of pipeline '" + network.name()
                    + "' is closed; take a new one with feeder() before complete()");
        }
    }

    @Override
    public boolean put(I item) {
        Objects.requireNonNull(item, "item");
        check();
        return !network.deadIfStopped(item) && out.emit(item);
    }

    @Override
    public boolean offer(I item) {
        Objects.requireNonNull(item, "item");
        check();
        return !network.deadIfStopped(item) && out.tryEmit(item);
    }

    @Override
    public boolean offerIfBelow(I item, int limit) {
        Objects.requireNonNull(item, "item");
        if (limit < 1) {
            throw new IllegalArgumentException("limit: must be at least 1, was " + limit);
        }
        check();
        return !network.deadIfStopped(item) && out.emitIfBelow(item, limit);
    }

    @Override
    public void close() {
        Thread t = Thread.currentThread();
        if (owner != t && !OWNER.compareAndSet(this, (Thread) null, t)) {
            check(); // throws: another thread's feeder
        }
        if (!closed) {
            closed = true;
            out.complete();
        }
    }

    @Override
    public String toString() {
        return "Feeder[" + network.name() + (closed ? ", closed" : "") + "]";
    }
}
