package io.weft.actors.runtime.internal.cell;

import io.weft.actors.spi.Scheduler;

/**
 * The supervision of one supervised actor, as its cell sees it: what to do when it fails, and
 * where it restarts. Implemented by supervision.Supervision, a layer above the cell.
 */
public interface Supervisor {

    /**
     * Decides on a failure of {@code cell} (owner, during its turn): resume, restart (the cell is
     * prepared for it), stop or escalate.
     *
     * @param cell the failed actor
     * @param failure what it threw
     * @return true if the actor goes on (resumed or restarting), false if it stops
     */
    boolean onFailure(Cell<?> cell, Throwable failure);

    /** @return whether the actor restarts as a thread-based actor */
    boolean threadMode();

    /** @return the scheduler the actor restarts on */
    Scheduler home();
}
