package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.spi.Frame;

/**
 * A frame that takes part in the ForkJoin scheduler's hand-off chains: it may wait in a worker's
 * one-slot mini-queue instead of a pool task (lazy scheduling, Prokopec 2016, §5.2), its turns are
 * tracked for the blocking watchdog, and speculation keeps a profile per {@link #profileClass()}.
 * An extension of the scheduler SPI's {@link Frame} that any frame may implement (actor cells do;
 * stream stages, plain frames, run as ordinary pool tasks); the scheduler never looks at what the
 * frame is beyond this interface.
 */
public interface PoolFrame extends Frame {

    /**
     * The class whose speculation profile this frame shares (Prokopec 2016, §5.4): frames of one
     * class tend to wait alike.
     *
     * @return the class, or null for a profile of its own kind
     */
    Class<?> profileClass();

    /**
     * A failure escaped {@link #execute()} (which should never throw): report it. Never throws.
     *
     * @param failure what escaped
     */
    void executeFailed(Throwable failure);
}
