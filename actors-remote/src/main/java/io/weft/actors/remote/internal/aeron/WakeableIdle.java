package io.weft.actors.remote.internal.aeron;

import java.util.concurrent.locks.LockSupport;
import org.agrona.concurrent.IdleStrategy;

/** The idle strategy of the engine's driver and poller: spins, yields, parks with backoff, and can be woken from its park. */
final class WakeableIdle implements IdleStrategy {

    /* design
     * Backoff as Agrona's BackoffIdleStrategy: after work, MAX_SPINS spins, MAX_YIELDS yields,
     * then parks of 1 us doubling to 1 ms, so an idle engine wakes about a thousand times a
     * second per thread and burns no core (a busy-spin or yield strategy on two cores starves
     * the application, and takes throughput from it under load).
     *
     * A parked thread wakes late: on Linux a parkNanos of 1 us returns after the kernel's timer
     * slack, 50 us by default (66 us measured on the 2-core bench machine), and one that has doubled to hundreds of microseconds later still. A
     * frame that reaches a parked thread waits for that wake-up, once per thread it crosses. So
     * whoever hands this thread work wakes it: wake() unparks the thread if it is parked (the
     * parked flag is set before and cleared after each park). A sender that offered a frame wakes
     * the driver (which sends it); the driver, after a duty cycle that did work (it may have
     * received data), wakes the poller, through onWork. A wake that races the flag is missed and
     * costs what the park would have cost anyway; nothing depends on it for correctness.
     *
     * One thread calls idle (the agent's); wake may be called from any thread.
     */

    private static final int MAX_SPINS = 10;
    private static final int MAX_YIELDS = 20;
    private static final long MIN_PARK_NS = 1_000;
    private static final long MAX_PARK_NS = 1_000_000;

    private final Runnable onWork;
    private volatile Thread owner;
    private volatile boolean parked;
    private int spins;
    private int yields;
    private long parkNs;

    /**
     * @param onWork run after each idle call that follows work (the driver wakes the poller), or null
     */
    WakeableIdle(Runnable onWork) {
        this.onWork = onWork;
    }

    /** Unparks the idling thread if it is parked; cheap when it is not. */
    void wake() {
        if (parked) {
            Thread t = owner;
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
            if (onWork != null) {
                onWork.run();
            }
        } else {
            idle();
        }
    }

    @Override
    public void idle() {
        if (spins < MAX_SPINS) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < MAX_YIELDS) {
            yields++;
            Thread.yield();
        } else {
            parkNs = parkNs == 0 ? MIN_PARK_NS : Math.min(MAX_PARK_NS, parkNs * 2);
            if (owner == null) {
                owner = Thread.currentThread();
            }
            parked = true;
            LockSupport.parkNanos(parkNs);
            parked = false;
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNs = 0;
    }

    @Override
    public String alias() {
        return "weft-wakeable-backoff";
    }
}
