package io.weft.actors.runtime.internal.schedule;

import java.util.concurrent.TimeUnit;
import org.slf4j.LoggerFactory;

/** Bounded joins of the system's threads at close, with a warning naming any thread that has not ended. */
public final class Joins {

    private Joins() {
    }

    /**
     * Waits until {@code thread} has ended or {@code deadline} (System.nanoTime) has passed; never
     * waits for the calling thread itself. Keeps the caller's interrupt status.
     *
     * @param thread the thread, or null (nothing to wait for)
     * @param deadline when to give up, in System.nanoTime
     * @param what what the thread is, for the warning
     * @return true if the thread has ended (or is null or the caller)
     */
    public static boolean join(Thread thread, long deadline, String what) {
        if (thread == null || thread == Thread.currentThread()) {
            return true;
        }
        boolean interrupted = false;
        try {
            while (thread.isAlive()) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                try {
                    thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(left)));
                } catch (InterruptedException e) {
                    interrupted = true; // keep waiting (bounded); the status is restored below
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
        if (thread.isAlive()) {
            LoggerFactory.getLogger(Joins.class).warn("{} (thread {}, {}) has not ended; close returns without it",
                    what, thread.getName(), thread.getState());
            return false;
        }
        return true;
    }
}
