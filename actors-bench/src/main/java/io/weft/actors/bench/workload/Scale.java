package io.weft.actors.bench.workload;

/** How big a workload runs. */
public enum Scale {
    /** Seconds in total for all tests: proves the result is right, times nothing. */
    TINY,
    /** {@code compare --quick}: the whole set in under three minutes on two cores. */
    QUICK,
    /** The published sizes (Savina defaults, Benchmarks Game, the experiments of the papers in docs/references.md). */
    FULL;

    /**
     * Picks the value for this scale.
     *
     * @param tiny at {@link #TINY}
     * @param quick at {@link #QUICK}
     * @param full at {@link #FULL}
     * @return one of them
     */
    public int pick(int tiny, int quick, int full) {
        return switch (this) {
            case TINY -> tiny;
            case QUICK -> quick;
            case FULL -> full;
        };
    }
}
