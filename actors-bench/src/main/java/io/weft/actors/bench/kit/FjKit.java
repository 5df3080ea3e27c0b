package io.weft.actors.bench.kit;

import java.util.concurrent.ForkJoinPool;

/** Not actors: the plain {@code ForkJoinPool} baseline, for workloads that have a task version. */
public final class FjKit implements Kit {

    private final ForkJoinPool pool = new ForkJoinPool(Kit.parallelism());

    @Override
    public String name() {
        return Impl.FJ.cliName();
    }

    /**
     * The pool the task versions run on.
     *
     * @return a pool with parallelism = available processors, or {@link Kit#PARALLELISM_PROPERTY}
     */
    public ForkJoinPool pool() {
        return pool;
    }

    @Override
    public Ref spawn(Handler handler) {
        throw new UnsupportedOperationException("the fj baseline has no actors");
    }

    @Override
    public void close() {
        pool.shutdown();
    }
}
