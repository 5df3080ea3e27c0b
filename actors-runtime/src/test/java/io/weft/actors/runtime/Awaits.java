package io.weft.actors.runtime;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Bounded waits for tests that, when the bound runs out, fail with every thread's stack. */
public final class Awaits {

    private Awaits() {
    }

    /**
     * Waits for {@code future} at most {@code seconds}.
     *
     * @param future what to wait for
     * @param seconds the bound
     * @param what what was awaited, for the failure message
     * @param <T> the result type
     * @return the result
     * @throws AssertionError naming {@code what}, with a dump of all threads, if the bound runs out
     * @throws ExecutionException if the future failed
     * @throws InterruptedException if interrupted
     */
    public static <T> T getOrDumpThreads(Future<T> future, long seconds, String what)
            throws ExecutionException, InterruptedException {
        try {
            return future.get(seconds, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            StringBuilder dump = new StringBuilder(what + " (not within " + seconds + " s)\n");
            Thread.getAllStackTraces().forEach((th, st) -> {
                dump.append(th.getName()).append(' ').append(th.getState()).append('\n');
                for (int i = 0; i < Math.min(8, st.length); i++) {
                    dump.append("    ").append(st[i]).append('\n');
                }
            });
            throw new AssertionError(dump.toString(), e);
        }
    }
}
