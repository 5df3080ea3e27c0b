package io.weft.actors.remote.internal.grpc;

import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.ManagedChannel;
import io.grpc.Metadata;
import io.grpc.Status;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import java.net.InetSocketAddress;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

/** An outbound link of the gRPC engine: one channel and one bidirectional call per lane. */
final class GrpcOutbound implements OutboundLink {

    /* design
     * Each lane's call is started at once, so an unreachable peer fails the calls with UNAVAILABLE
     * and the link is reported lost without waiting for a send. A ClientCall is not thread-safe:
     * every use of one lane's call (start, isReady, sendMessage, cancel) holds that lane's lock.
     * send waits on the lane's condition while gRPC's buffer for the call is above its ready
     * threshold (1 MiB); onReady and onClose signal it. The first lane to close with a status
     * other than our own cancel marks the link lost and calls onLost once.
     */

    private static final int READY_THRESHOLD = 1 << 20;

    private final InetSocketAddress peer;
    private final ManagedChannel[] channels;
    private final int maxFrameBytes;
    private final Consumer<Throwable> onLost;
    private final Consumer<GrpcOutbound> onClosed;
    private final LaneCall[] calls = new LaneCall[Lane.values().length];
    private final AtomicBoolean ended = new AtomicBoolean();
    private final String id = UUID.randomUUID().toString();

    GrpcOutbound(InetSocketAddress peer, ManagedChannel[] channels, int maxFrameBytes, Consumer<Throwable> onLost,
            Consumer<GrpcOutbound> onClosed) {
        this.peer = peer;
        this.channels = channels;
        this.maxFrameBytes = maxFrameBytes;
        this.onLost = onLost;
        this.onClosed = onClosed;
    }

    void start() {
        for (Lane lane : Lane.values()) {
            calls[lane.ordinal()] = new LaneCall(lane);
        }
        for (LaneCall c : calls) {
            c.start();
        }
    }

    @Override
    public InetSocketAddress peer() {
        return peer;
    }

    @Override
    public void send(Lane lane, byte[] frame) throws InterruptedException {
        if (frame.length == 0 || frame.length > maxFrameBytes) {
            throw new IllegalArgumentException("a frame of " + frame.length + " bytes cannot be sent to " + peer
                    + ": frames hold 1 to " + maxFrameBytes + " bytes (GrpcSettings.maxFrameBytes)");
        }
        calls[lane.ordinal()].send(frame);
    }

    @Override
    public boolean isOpen() {
        return !ended.get();
    }

    @Override
    public void close() {
        end(null);
    }

    /** Ends the link once: cancels the calls, shuts the channels down, reports a loss if {@code cause} is set. */
    private void end(Throwable cause) {
        if (!ended.compareAndSet(false, true)) {
            return;
        }
        for (LaneCall c : calls) {
            if (c != null) {
                c.cancel();
            }
        }
        for (ManagedChannel ch : channels) {
            ch.shutdownNow();
        }
        onClosed.accept(this);
        if (cause != null) {
            onLost.accept(cause);
        }
    }

    void awaitClosed() {
        for (ManagedChannel ch : channels) {
            try {
                ch.awaitTermination(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public String toString() {
        return "GrpcOutbound[" + peer + "]";
    }

    /** One lane's call. */
    private final class LaneCall extends ClientCall.Listener<byte[]> {
        private final Lane lane;
        private final ReentrantLock lock = new ReentrantLock();
        private final Condition ready = lock.newCondition();
        private final ClientCall<byte[], byte[]> call;
        private boolean started;
        private boolean cancelled;

        LaneCall(Lane lane) {
            this.lane = lane;
            this.call = channels[lane.ordinal()].newCall(GrpcEngine.method(lane),
                    CallOptions.DEFAULT.withOnReadyThreshold(READY_THRESHOLD));
        }

        void start() {
            Metadata headers = new Metadata();
            headers.put(GrpcEngine.LINK_ID, id);
            lock.lock();
            try {
                if (cancelled) {
                    return;
                }
                started = true;
                call.start(this, headers);
                call.request(Integer.MAX_VALUE);
            } finally {
                lock.unlock();
            }
        }

        void send(byte[] frame) throws InterruptedException {
            lock.lockInterruptibly();
            try {
                while (!started || !call.isReady()) {
                    if (ended.get() || cancelled) {
                        throw new IllegalStateException("the link to " + peer + " is closed; lane " + lane);
                    }
                    ready.await(100, TimeUnit.MILLISECONDS);
                }
                if (ended.get()) {
                    throw new IllegalStateException("the link to " + peer + " is closed; lane " + lane);
                }
                call.sendMessage(frame);
            } finally {
                lock.unlock();
            }
        }

        void cancel() {
            lock.lock();
            try {
                cancelled = true;
                if (started) {
                    call.cancel("link closed", null);
                }
                ready.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void onReady() {
            lock.lock();
            try {
                ready.signalAll();
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void onClose(Status status, Metadata trailers) {
            lock.lock();
            try {
                ready.signalAll();
            } finally {
                lock.unlock();
            }
            end(status.asRuntimeException(trailers));
        }
    }
}
