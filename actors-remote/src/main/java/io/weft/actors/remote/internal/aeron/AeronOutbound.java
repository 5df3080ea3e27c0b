package io.weft.actors.remote.internal.aeron;

import io.aeron.ExclusivePublication;
import io.aeron.Publication;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteOrder;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import org.agrona.concurrent.UnsafeBuffer;

/** An outbound link of the Aeron engine: one exclusive publication per lane, one session id for all. */
final class AeronOutbound implements OutboundLink {

    /* design
     * Each lane is an ExclusivePublication guarded by its own ReentrantLock, so send may be called
     * from any thread and a frame's chunks are never interleaved with another frame's. A frame is
     * one or more Aeron messages, each a 4-byte little-endian marker and a payload: the first
     * carries the frame's total length, the others CONTINUATION; the receiver reassembles them
     * (AeronInbound). Aeron fragments each message to the MTU and reassembles it itself.
     *
     * After a frame is offered, send wakes the media driver's thread if it is parked
     * (WakeableIdle), so the frame leaves at once rather than when the driver's park times out.
     *
     * Back pressure: offer returning BACK_PRESSURED, NOT_CONNECTED or ADMIN_ACTION is retried with
     * a backoff (spin, then parks of 1 us doubling to 1 ms), so a sender waits while the term
     * buffer and the receiver's window are full, and while the link is not yet connected. The wait
     * is bounded by the engine's liveness check: a link never connected within peerTimeout, or no
     * longer connected after it was, or refused by the receiver (an error frame), is LOST, and a
     * waiting send then throws IllegalStateException. A send is interruptible until its first
     * message is accepted; after that it finishes the frame (keeping the interrupt), because a
     * half-sent frame would break the receiver's reassembly.
     *
     * State: OPEN -> CLOSED (close(), no onLost) or OPEN -> LOST (onLost once). Publications are
     * closed under their lane's lock, after the state has left OPEN, so no offer runs on a closed
     * publication. Whoever leaves OPEN closes the lanes it can lock at once; a sender holding a
     * lane closes it when it lets go (it re-reads the state after unlocking, and the state was
     * written before the failed tryLock), so the poller never blocks on a sender.
     */

    static final int OPEN = 0;
    static final int CLOSED = 1;
    static final int LOST = 2;

    /** The marker of a message that continues the frame begun by an earlier one. */
    static final int CONTINUATION = -1;

    private static final long MAX_PARK_NS = 1_000_000;

    private final InetSocketAddress peer;
    private final ExclusivePublication[] publications;
    private final ReentrantLock[] locks;
    private final UnsafeBuffer[] headers;
    private final UnsafeBuffer[] bodies;
    private final int maxFrameBytes;
    private final Consumer<Throwable> onLost;
    private final AtomicInteger state = new AtomicInteger(OPEN);
    private final long createdNs;
    private final boolean[] wasConnected;
    /** Told once every publication is closed: the engine keeps the link until then. */
    private final Consumer<AeronOutbound> onEnd;
    /** Wakes the media driver's thread, which sends what the publications hold. */
    private final Runnable wakeDriver;

    AeronOutbound(InetSocketAddress peer, ExclusivePublication[] publications, int maxFrameBytes,
            Consumer<Throwable> onLost, Consumer<AeronOutbound> onEnd, Runnable wakeDriver) {
        this.wakeDriver = wakeDriver;
        this.peer = peer;
        this.publications = publications;
        this.maxFrameBytes = maxFrameBytes;
        this.onLost = onLost;
        this.onEnd = onEnd;
        this.locks = new ReentrantLock[publications.length];
        this.headers = new UnsafeBuffer[publications.length];
        this.bodies = new UnsafeBuffer[publications.length];
        this.wasConnected = new boolean[publications.length];
        for (int i = 0; i < publications.length; i++) {
            locks[i] = new ReentrantLock();
            headers[i] = new UnsafeBuffer(new byte[Integer.BYTES]);
            bodies[i] = new UnsafeBuffer(new byte[0]);
        }
        this.createdNs = System.nanoTime();
    }

    @Override
    public InetSocketAddress peer() {
        return peer;
    }

    @Override
    public void send(Lane lane, byte[] frame) throws InterruptedException {
        Objects.requireNonNull(lane, "lane");
        Objects.requireNonNull(frame, "frame");
        if (frame.length == 0 || frame.length > maxFrameBytes) {
            throw new IllegalArgumentException("a frame must have 1 to " + maxFrameBytes + " bytes, this one has "
                    + frame.length + "; raise AeronSettings.maxFrameBytes or send less per frame");
        }
        checkOpen();
        int i = lane.ordinal();
        ReentrantLock lock = locks[i];
        lock.lockInterruptibly();
        try {
            checkOpen();
            ExclusivePublication pub = publications[i];
            UnsafeBuffer header = headers[i];
            UnsafeBuffer body = bodies[i];
            body.wrap(frame);
            int chunk = pub.maxMessageLength() - Integer.BYTES;
            boolean interrupted = false;
            try {
                for (int off = 0; off < frame.length; off += chunk) {
                    int n = Math.min(chunk, frame.length - off);
                    header.putInt(0, off == 0 ? frame.length : CONTINUATION, ByteOrder.LITTLE_ENDIAN);
                    interrupted |= offer(pub, header, body, off, n, off == 0);
                }
            } finally {
                body.wrap(header.byteArray());
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        } finally {
            lock.unlock();
        }
        wakeDriver.run();
        if (state.get() != OPEN) {
            closePublication(i);
        }
    }

    /** Offers one message until accepted; returns whether an interrupt was seen and kept. */
    private boolean offer(ExclusivePublication pub, UnsafeBuffer header, UnsafeBuffer body, int off, int n,
            boolean interruptible) throws InterruptedException {
        long park = 0;
        int spins = 0;
        boolean interrupted = false;
        while (true) {
            long r = pub.offer(header, 0, Integer.BYTES, body, off, n, null);
            if (r >= 0) {
                return interrupted;
            }
            if (r == Publication.CLOSED || r == Publication.MAX_POSITION_EXCEEDED) {
                lose(new IOException("the Aeron publication to " + peer + " ended (" + Publication.errorString(r) + ")"));
            }
            checkOpen();
            if (Thread.interrupted()) {
                if (interruptible) {
                    throw new InterruptedException("interrupted while waiting to send to " + peer);
                }
                interrupted = true;
            }
            if (spins < 20) {
                spins++;
                Thread.onSpinWait();
            } else {
                park = park == 0 ? 1_000 : Math.min(MAX_PARK_NS, park * 2);
                LockSupport.parkNanos(park);
            }
        }
    }

    private void checkOpen() {
        int s = state.get();
        if (s == CLOSED) {
            throw new IllegalStateException("the Aeron link to " + peer + " is closed");
        }
        if (s == LOST) {
            throw new IllegalStateException("the Aeron link to " + peer + " is lost; open a new link with Transport.connect");
        }
    }

    @Override
    public boolean isOpen() {
        return state.get() == OPEN;
    }

    @Override
    public void close() {
        if (state.compareAndSet(OPEN, CLOSED)) {
            release();
        }
    }

    /**
     * Declares the link lost and calls onLost, once; the caller must not be inside an Aeron
     * callback.
     *
     * @param cause why
     * @return whether this call lost it
     */
    boolean lose(Throwable cause) {
        if (!state.compareAndSet(OPEN, LOST)) {
            return false;
        }
        release();
        onLost.accept(cause);
        return true;
    }

    private void release() {
        for (int i = 0; i < publications.length; i++) {
            closePublication(i);
        }
    }

    /**
     * Closes a lane's publication unless a sender holds the lane: that sender sees the state and
     * closes it after it lets go of the lane (send's last step), so the poller never waits here.
     */
    private void closePublication(int i) {
        if (locks[i].tryLock()) {
            try {
                publications[i].close();
            } finally {
                locks[i].unlock();
            }
        }
        for (ExclusivePublication pub : publications) {
            if (!pub.isClosed()) {
                return;
            }
        }
        onEnd.accept(this);
    }

    /**
     * Waits until no sender is inside a lane and closes every publication: the engine's close calls
     * this after the state left OPEN, before it closes the Aeron client, so no offer runs on an
     * unmapped buffer.
     */
    void awaitSenders() {
        for (int i = 0; i < publications.length; i++) {
            locks[i].lock();
            try {
                publications[i].close();
            } finally {
                locks[i].unlock();
            }
        }
    }

    /**
     * The liveness check, run by the engine's poller: the cause of a loss, or null while the link
     * is fine.
     *
     * @param nowNs the time
     * @param timeoutNs the peer timeout
     * @return the cause, or null
     */
    Throwable checkAlive(long nowNs, long timeoutNs) {
        if (state.get() != OPEN) {
            return null;
        }
        for (int i = 0; i < publications.length; i++) {
            ExclusivePublication pub = publications[i];
            boolean connected = pub.isConnected();
            if (connected) {
                wasConnected[i] = true;
            } else if (wasConnected[i] || pub.isClosed()) {
                return new IOException("the peer at " + peer + " stopped answering on the " + Lane.values()[i]
                        + " lane (no status from it for " + timeoutNs / 1_000_000 + " ms, or it went away)");
            } else if (nowNs - createdNs > timeoutNs) {
                return new IOException("no peer answered at " + peer + " within " + timeoutNs / 1_000_000
                        + " ms (AeronSettings.peerTimeout): nothing is bound there, or it is unreachable");
            }
        }
        return null;
    }

    /**
     * Whether a publication of this link has the registration id.
     *
     * @param registrationId an Aeron publication's registration id
     * @return whether it is one of this link's
     */
    boolean owns(long registrationId) {
        for (ExclusivePublication pub : publications) {
            if (pub.registrationId() == registrationId || pub.originalRegistrationId() == registrationId) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return "AeronOutbound[" + peer + ", session " + publications[0].sessionId() + "]";
    }
}
