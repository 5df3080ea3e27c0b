package io.weft.actors.cluster;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.jgroups.Address;
import org.jgroups.Event;
import org.jgroups.Message;
import org.jgroups.ObjectMessage;
import org.jgroups.View;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;

/**
 * A test protocol, put at the top of a member's stack, that forces the order JGroups allows but
 * rarely shows: a member's leave announcement ({@code "weft.leaving"}) is held on its delivery
 * thread until the view without the leaver has passed up to the channel (so the cluster handles
 * that view first), or until {@code hold} has passed (a leaver that waits for an answer before
 * it disconnects never produces that view while its announcement is held).
 */
final class ReorderLeave extends Protocol {

    private final Duration hold;
    private final CountDownLatch held = new CountDownLatch(1);
    private volatile Address leaver;
    private final CountDownLatch viewWithoutLeaver = new CountDownLatch(1);

    ReorderLeave(Duration hold) {
        this.hold = hold;
    }

    /**
     * Waits until an announcement has been held.
     *
     * @return whether one was within 30 s
     */
    boolean awaitHeld() throws InterruptedException {
        return held.await(30, TimeUnit.SECONDS);
    }

    private static boolean isLeaving(Message m) {
        return m instanceof ObjectMessage om && "weft.leaving".equals(om.getObject());
    }

    private void holdFor(Address from) {
        leaver = from;
        held.countDown();
        try {
            viewWithoutLeaver.await(hold.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public Object up(Message msg) {
        if (isLeaving(msg)) {
            holdFor(msg.getSrc());
        }
        return up_prot.up(msg);
    }

    @Override
    public void up(MessageBatch batch) {
        for (Message m : batch) {
            if (isLeaving(m)) {
                holdFor(m.getSrc());
                break;
            }
        }
        up_prot.up(batch);
    }

    @Override
    public Object up(Event evt) {
        Object r = up_prot.up(evt);
        if (evt.getType() == Event.VIEW_CHANGE) {
            View v = evt.getArg();
            Address l = leaver;
            if (l != null && !v.containsMember(l)) {
                viewWithoutLeaver.countDown(); // after the channel's viewAccepted has run
            }
        }
        return r;
    }
}
