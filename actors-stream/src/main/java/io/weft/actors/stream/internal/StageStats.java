package io.weft.actors.stream.internal;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * Process-wide counters of the stage item path, to tell per-item cost from scheduling in a
 * benchmark: how often stages are executed, go idle, are woken by producers, and how often a
 * blocking {@code put}/{@code emit} has to wait. Off unless the system property
 * {@code weft.stream.stats} is {@code true}; then every count is a {@link LongAdder} increment on
 * an event that happens at most once per turn or per wait, never per item.
 */
public final class StageStats {

    /** Whether counting is on ({@code -Dweft.stream.stats=true}); a constant the JIT folds. */
    static final boolean ON = Boolean.getBoolean("weft.stream.stats");

    static final LongAdder EXECUTES = new LongAdder();
    static final LongAdder TURNS = new LongAdder();
    static final LongAdder NESTED = new LongAdder();
    static final LongAdder WAKEUPS = new LongAdder();
    static final LongAdder SPIN_TIMEOUTS = new LongAdder();
    static final LongAdder IDLES = new LongAdder();
    static final LongAdder BLOCKED = new LongAdder();
    static final LongAdder PARKS = new LongAdder();
    static final LongAdder RESUBMITS = new LongAdder();
    static final LongAdder FUSED = new LongAdder();
    static final LongAdder REQUEUES = new LongAdder();

    private StageStats() {
    }

    /** @return whether counting is on */
    public static boolean enabled() {
        return ON;
    }

    /**
     * The counts so far, in a fixed order: {@code executes} (a stage run by its scheduler),
     * {@code turns} (drains of a stage's queue), {@code nested} (turns run on the producer's
     * thread, the hand-off), {@code wakeups} (a producer found the stage idle and scheduled it),
     * {@code spinTimeouts} (a drained stage waited for input in vain), {@code idles} (a stage
     * went idle), {@code blocked} (a blocking put or emit found the queue full after its spin and
     * yield and began to park), {@code parks} (parks of those), {@code resubmits} (a stage that
     * used its batch budget went back to its scheduler's queue, or a held hand-off stage that fell
     * behind was given a worker of its own), {@code fused} (items a stage consumed directly in its
     * holder's emit, not through its queue), {@code requeues} (a stage ended its run with input
     * left, such as an item still being written, and went back to its scheduler's queue).
     *
     * @return counter name to count; all zero when counting is off
     */
    public static Map<String, Long> snapshot() {
        Map<String, Long> m = new LinkedHashMap<>();
        m.put("executes", EXECUTES.sum());
        m.put("turns", TURNS.sum());
        m.put("nested", NESTED.sum());
        m.put("wakeups", WAKEUPS.sum());
        m.put("spinTimeouts", SPIN_TIMEOUTS.sum());
        m.put("idles", IDLES.sum());
        m.put("blocked", BLOCKED.sum());
        m.put("parks", PARKS.sum());
        m.put("resubmits", RESUBMITS.sum());
        m.put("fused", FUSED.sum());
        m.put("requeues", REQUEUES.sum());
        return m;
    }
}
