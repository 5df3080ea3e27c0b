package io.weft.actors.remote.internal.remoting;

import io.weft.actors.remote.internal.Output;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.ReentrantLock;

/** One Association's system messages (watch, unwatch, terminated): numbered, resent until acknowledged, delivered once in order. */
final class SystemMessages {

    /* design
     * System messages carry a sequence number, stay in `unacked` until the peer's cumulative ACK
     * and are resent on every tick; the receiver delivers only the next expected number
     * (`lastDelivered` + 1), so each is delivered once and in order. They are sent only once the
     * Association is established; establishing it resends the unacknowledged ones.
     *
     * Invariants: numbers are taken and frames put into `unacked` under `lock`, so they enter in
     * number order; reset (a handshake timeout: the peer never received any) clears `unacked` and
     * restarts numbering at 1 under the same lock; `lastDelivered` is read and advanced only under
     * `lock`.
     */

    private final Association association;
    private final ReentrantLock lock = new ReentrantLock();
    private final AtomicLong nextSeq = new AtomicLong();
    private final ConcurrentSkipListMap<Long, byte[]> unacked = new ConcurrentSkipListMap<>();
    private long lastDelivered;

    SystemMessages(Association association) {
        this.association = association;
    }

    void send(int op, String target, String watcher) {
        byte[] frame;
        lock.lock();
        try {
            long seq = nextSeq.incrementAndGet();
            Output out = Frames.start(Frames.SYSTEM, 64 + target.length() + watcher.length());
            out.writeLong(association.core.incarnation);
            out.writeLong(seq);
            out.writeInt(op);
            out.writeString(target);
            out.writeString(watcher);
            frame = out.toByteArray();
            unacked.put(seq, frame);
        } finally {
            lock.unlock();
        }
        if (association.isEstablished()) {
            association.sendControl(frame);
        }
    }

    void resendUnacked() {
        if (association.isEstablished()) {
            for (byte[] f : unacked.values()) {
                association.sendControl(f);
            }
        }
    }

    void acked(long seq) {
        unacked.headMap(seq, true).clear();
    }

    /** @return true if the system message with this number is the next one, to be delivered */
    boolean accept(long seq) {
        lock.lock();
        try {
            if (seq == lastDelivered + 1) {
                lastDelivered = seq;
                return true;
            }
            return false;
        } finally {
            lock.unlock();
        }
    }

    long lastDelivered() {
        lock.lock();
        try {
            return lastDelivered;
        } finally {
            lock.unlock();
        }
    }

    /** The peer received none of them: forget the unacknowledged ones and number from 1 again. */
    void reset() {
        lock.lock();
        try {
            unacked.clear();
            nextSeq.set(0);
        } finally {
            lock.unlock();
        }
    }

    /** Quarantined: nothing more is resent. */
    void clear() {
        unacked.clear();
    }
}
