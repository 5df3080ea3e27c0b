package io.weft.actors.cluster;

/**
 * The states a cluster member passes through, in order; a member never goes back.
 *
 * <ul>
 *   <li>{@link #JOINING}: this node's own state from {@link Cluster#join} until its first view.
 *       Other members appear as {@link #UP} directly: JGroups admits a member atomically with the
 *       view that contains it.</li>
 *   <li>{@link #UP}: in the current view.</li>
 *   <li>{@link #LEAVING}: announced a graceful leave ({@link Cluster#leave}); still in the view.</li>
 *   <li>{@link #DOWN}: left the view without announcing it (crash, kill, partition), or, for this
 *       node itself, downed by the split-brain rule.</li>
 *   <li>{@link #REMOVED}: out of the view for good; its remote incarnation is quarantined.</li>
 * </ul>
 */
public enum MemberStatus {
    /** Joining: this node, before its first view. */
    JOINING,
    /** In the view. */
    UP,
    /** Announced a graceful leave, still in the view. */
    LEAVING,
    /** Gone without a graceful leave, or downed by the split-brain rule. */
    DOWN,
    /** Out of the view for good and quarantined. */
    REMOVED
}
