package io.weft.actors.cluster.internal;

import io.weft.actors.cluster.Member;
import java.util.Collection;
import java.util.Collections;
import java.util.Set;

/** The keep-majority rule as a pure function, so it is tested without a network. */
public final class KeepMajority {

    private KeepMajority() {
    }

    /**
     * Whether the side that sees {@code view} must down itself.
     *
     * @param stable the last stable membership (empty before the first view: never down)
     * @param view the members of the new view
     * @return true if fewer than half of {@code stable} are in {@code view}, or exactly half and
     *     the lowest member of {@code stable} is not among them
     */
    public static boolean mustDown(Set<Member> stable, Collection<Member> view) {
        if (stable.isEmpty()) {
            return false;
        }
        int kept = 0;
        for (Member m : view) {
            if (stable.contains(m)) {
                kept++;
            }
        }
        int twice = 2 * kept;
        if (twice != stable.size()) {
            return twice < stable.size();
        }
        return !view.contains(Collections.min(stable));
    }
}
