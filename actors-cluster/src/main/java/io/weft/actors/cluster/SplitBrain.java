package io.weft.actors.cluster;

/** What a node does when a view shows that part of the last stable membership is gone. */
public enum SplitBrain {
    /**
     * Keep the majority (the default): a node whose view holds fewer than half of the last stable
     * membership downs itself; with exactly half, the side holding the lowest member of the last
     * stable membership ({@link Member#compareTo}) stays and the other downs itself.
     */
    KEEP_MAJORITY,
    /** Never down: each side of a partition goes on as its own cluster until JGroups merges them. */
    OFF
}
