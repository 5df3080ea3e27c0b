package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.runtime.internal.ActivationWord;
import io.weft.actors.spi.Frame;

/**
 * A frame that takes part in the ForkJoin scheduler's hand-off chains: it may wait in a worker's
 * one-slot mini-queue instead of a pool task (lazy scheduling, Prokopec 2016, §5.2), its turns are
 * tracked for the blocking watchdog, and speculation keeps a profile per {@link #profileClass()}.
 * An extension of the scheduler SPI's {@link Frame} that a frame of the runtime may extend (actor
 * cells do; stream stages and plain frames run as ordinary pool tasks); the scheduler never looks
 * at what the frame is beyond this class.
 */
public abstract class PoolFrame extends ActivationWord implements Frame {

    /* design
     * An abstract class rather than an interface: the scheduler tests every frame it is handed
     * (schedule) and runs every frame of a hand-off chain (Worker.runTracked) through this type,
     * once per message on the actor-to-actor path. A class test is one load and compare of the
     * class's supertype display, and a call to a method of a class with one concrete subclass
     * binds without a guard; an interface would be a search of the secondary supertypes and an
     * interface call.
     */

    /** For subclasses. */
    protected PoolFrame() {
    }

    @Override
    public abstract void execute();

    /**
     * The class whose speculation profile this frame shares (Prokopec 2016, §5.4): frames of one
     * class tend to wait alike.
     *
     * @return the class, or null for a profile of its own kind
     */
    public abstract Class<?> profileClass();

    /**
     * A failure escaped {@link #execute()} (which should never throw): report it. Never throws.
     *
     * @param failure what escaped
     */
    public abstract void executeFailed(Throwable failure);
}
