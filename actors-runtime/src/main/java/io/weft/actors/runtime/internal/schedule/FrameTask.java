package io.weft.actors.runtime.internal.schedule;

import io.weft.actors.spi.Frame;
import java.util.concurrent.ForkJoinTask;

/**
 * One submission of a frame to the ForkJoin scheduler's pool: a fresh task for every push, which
 * runs one {@link Frame#execute()} (a cell's turn, with the worker's turn tracking and hand-off
 * chain). Used once, then garbage.
 */
@SuppressWarnings("serial") // a ForkJoinTask only to be forked; never serialized
public final class FrameTask extends ForkJoinTask<Void> {

    /* design
     * Why a new object per push, never the frame itself forked again and again: ForkJoinTask.fork
     * says "it is a usage error to fork a task more than once unless it has completed and been
     * reinitialized", and a frame's task never completes. What goes wrong when it is done anyway:
     * a ForkJoinPool work queue (JDK 25) tells a thief's take from the owner's by a CAS on the
     * slot's reference, and that is ABA-safe only if no reference is pushed twice. A thief reads
     * base b and the task t in slot b, re-reads base, and is preempted before its CAS. The owner
     * runs on; the 128-slot array wraps; if the same object t is pushed into that slot again, the
     * thief's CAS succeeds and it stores base = b + 1, a whole lap behind the real base. Every slot
     * between is empty, and the owner, which waits for a thief that took slot `base` to advance
     * it, spins in nextLocalTask forever. With frames forked as themselves this hung `big` (120
     * actors, 2 workers) in one of about 70 forked benchmark JVMs: worker 1 spinning in nextLocalTask,
     * worker 2 parked, queue base 874147 and top 874275 over a 128-slot array that held 2 tasks.
     * A fresh object per push makes the stale CAS fail (the thief's old reference keeps the old
     * object alive, so no new one can have its address).
     *
     * Cost: one 24-byte object per push to the pool's queues. A hand-off through the worker's
     * mini-queue (Prokopec 2016, §5.2) pushes nothing, so chains still allocate nothing, as Prokopec 2016
     * intends: the task object is created only when the frame really goes to the pool. A cell is
     * 8 bytes smaller than when it was a ForkJoinTask (no status and aux fields).
     */

    private final Frame frame;

    /** @param frame the frame to run once; its activation is owned by this task until it runs */
    FrameTask(Frame frame) {
        this.frame = frame;
    }

    /** @return the frame this task runs */
    Frame frame() {
        return frame;
    }

    @Override
    public Void getRawResult() {
        return null;
    }

    @Override
    protected void setRawResult(Void value) {
    }

    @Override
    protected boolean exec() {
        Worker w = Thread.currentThread() instanceof Worker worker ? worker : null;
        if (frame instanceof PoolFrame f) {
            try {
                if (w != null) {
                    w.runTask(f);
                } else {
                    f.execute();
                }
            } catch (Throwable t) {
                f.executeFailed(t);
            }
        } else {
            frame.execute();
        }
        if (w != null) {
            w.afterTask(); // now and then, a task submitted from outside the pool
        }
        return true;
    }

    /**
     * Pool worker only: takes the next task this worker queued and has not run yet (asyncMode:
     * FIFO) without running it.
     *
     * @return the task, or null if its local queue is empty
     */
    static ForkJoinTask<?> pollLocalTask() {
        return pollNextLocalTask();
    }
}
