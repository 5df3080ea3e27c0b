package io.weft.actors.cluster.internal;

import java.time.Duration;
import java.util.Collection;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;

/** The acknowledgments a leaving member waits for: one from every other member of its view. */
final class LeaveAcks {

    /* design
     * JGroups delivers a member's multicasts and the views on different threads, and does not
     * order the leaver's LEAVING announcement with the view that drops the leaver: a member may
     * handle that view first, see the leaver vanish without a graceful leave (DOWN) and, with
     * keep-majority and two members, down itself. So the leaver waits, before it disconnects,
     * until each other member has answered the announcement; a member answers only after it has
     * queued the LEAVING on its event thread, so the later view is queued after it.
     *
     * The leaver's own looped-back announcement is not an answer (a receiver skips it), or with
     * two members the leaver would count its own copy as the other's acknowledgment and not wait.
     * Answers are counted per address, so a duplicate cannot stand in for a missing member. The
     * wait is bounded by the failure timeout: a member that does not answer (crashed, cut off)
     * would be suspected within it anyway, and sees the leaver DOWN instead. A member that leaves
     * the leaver's view meanwhile is no longer waited for.
     *
     * Invariant: `pending` only shrinks; `done` opens once it is empty.
     */

    private final Set<Address> pending = ConcurrentHashMap.newKeySet();
    private final CountDownLatch done = new CountDownLatch(1);

    /**
     * @param others the other members' addresses when the leave starts (not the leaver's own)
     */
    LeaveAcks(Collection<Address> others) {
        pending.addAll(others);
        check();
    }

    /** An acknowledgment from a member; one from an address not waited for is ignored. */
    void acked(Address from) {
        if (pending.remove(from)) {
            check();
        }
    }

    /** A view seen while waiting: members no longer in it are not waited for. */
    void view(Collection<Address> members) {
        if (pending.retainAll(members)) {
            check();
        }
    }

    private void check() {
        if (pending.isEmpty()) {
            done.countDown();
        }
    }

    /**
     * Waits for the acknowledgments.
     *
     * @param bound the longest wait
     * @return the members that did not answer in time (empty when all did)
     * @throws InterruptedException if interrupted while waiting
     */
    Set<Address> await(Duration bound) throws InterruptedException {
        done.await(bound.toMillis(), TimeUnit.MILLISECONDS);
        return Set.copyOf(pending);
    }
}
