package io.weft.actors.remote.internal.grpc;

import io.grpc.Grpc;
import io.grpc.Metadata;
import io.grpc.ServerCall;
import io.grpc.ServerCallHandler;
import io.grpc.ServerStreamTracer;
import io.grpc.Status;
import io.weft.actors.remote.transport.InboundHandler;
import io.weft.actors.remote.transport.InboundLink;
import io.weft.actors.remote.transport.Lane;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

/** The listening side of the gRPC engine: groups a peer's lane calls into one inbound link. */
final class GrpcInbound {

    /* design
     * Calls arrive with the link id header of their GrpcOutbound; links maps the id to one Link,
     * the InboundLink handed to the handler. A ServerCall is not thread-safe: each call's
     * request/close happen under its own lock, since Link.close() comes from another thread than
     * the call's serialized listener. The link ends (onClosed, once) when its first call ends or
     * when closed; later calls with the same id are refused, so a refused peer must reconnect with
     * a new link.
     *
     * Flow control: gRPC hands a call's messages to its listener one at a time, in order, on a
     * serializing executor, and deframes only as many as were requested. Requesting one frame after
     * each handled one makes every frame wait for a hop from the listener back to the transport's
     * event loop and another to the executor. So the control and ordinary lanes keep a window of
     * WINDOW frames requested: begin requests WINDOW, and after each REFILL handled frames onMessage
     * requests REFILL more, so between WINDOW - REFILL + 1 and WINDOW frames are requested and not
     * yet handled. A handler that blocks stops the re-requests: at most WINDOW frames wait in gRPC,
     * then the HTTP/2 window fills and the sender's link blocks (backpressure for that lane only).
     * The large lane keeps a window of one frame, so it buffers at most one large frame. A request
     * cannot be taken back, so the bound is in frames: up to WINDOW * maxFrameBytes per call from
     * a peer sending maximal frames (Weft's ordinary frames are batches of up to 256 KiB).
     */

    /** Frames requested and not yet handled on the control and ordinary lanes, at most. */
    static final int WINDOW = 16;
    /** Handled frames after which a call requests as many more. */
    static final int REFILL = WINDOW / 2;

    private final InboundHandler handler;
    private final int maxFrameBytes;
    private final ConcurrentHashMap<String, Link> links = new ConcurrentHashMap<>();

    GrpcInbound(InboundHandler handler, int maxFrameBytes) {
        this.handler = handler;
        this.maxFrameBytes = maxFrameBytes;
    }

    ServerCallHandler<byte[], byte[]> handler(Lane lane) {
        return (call, headers) -> start(lane, call, headers);
    }

    /** Reports calls closed by gRPC for an oversized message as refusals. */
    ServerStreamTracer.Factory tracers() {
        return new ServerStreamTracer.Factory() {
            @Override
            public ServerStreamTracer newServerStreamTracer(String fullMethodName, Metadata headers) {
                String id = headers.get(GrpcEngine.LINK_ID);
                return new ServerStreamTracer() {
                    @Override
                    public void streamClosed(Status status) {
                        if (status.getCode() == Status.Code.RESOURCE_EXHAUSTED) {
                            Link link = id == null ? null : links.get(id);
                            handler.onRefused(link, "a frame on " + fullMethodName + " exceeded the maximum of " + maxFrameBytes
                                    + " bytes (" + status.getDescription() + "); the lane's stream is closed");
                        }
                    }
                };
            }
        };
    }

    private ServerCall.Listener<byte[]> start(Lane lane, ServerCall<byte[], byte[]> call, Metadata headers) {
        String id = headers.get(GrpcEngine.LINK_ID);
        if (id == null || id.length() > 64) {
            call.close(Status.INVALID_ARGUMENT.withDescription("missing or malformed weft-link header"), new Metadata());
            handler.onRefused(null, "a call on lane " + lane + " from " + call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)
                    + " had no valid weft-link header; refused");
            return new ServerCall.Listener<>() {
            };
        }
        Link link = links.computeIfAbsent(id, k -> new Link(k, call.getAttributes().get(Grpc.TRANSPORT_ATTR_REMOTE_ADDR)));
        Call c = new Call(lane, call, link);
        if (!link.add(c)) {
            c.close(Status.CANCELLED.withDescription("link closed"));
            return new ServerCall.Listener<>() {
            };
        }
        c.begin();
        return c;
    }

    void closeAll() {
        for (Link l : links.values()) {
            l.close();
        }
    }

    /** One inbound link: the calls of one GrpcOutbound. */
    private final class Link implements InboundLink {
        private final String id;
        private final SocketAddress remote;
        private final List<Call> calls = new CopyOnWriteArrayList<>();
        private final AtomicBoolean ended = new AtomicBoolean();

        Link(String id, SocketAddress remote) {
            this.id = id;
            this.remote = remote;
        }

        boolean add(Call c) {
            calls.add(c);
            if (ended.get()) {
                calls.remove(c);
                return false;
            }
            return true;
        }

        @Override
        public SocketAddress remote() {
            return remote;
        }

        @Override
        public void close() {
            end(null);
        }

        void end(Throwable cause) {
            if (!ended.compareAndSet(false, true)) {
                return;
            }
            for (Call c : calls) {
                c.close(Status.CANCELLED.withDescription("link closed by the receiver"));
            }
            handler.onClosed(this, cause);
        }

        @Override
        public String toString() {
            return "GrpcInbound[" + remote + ", " + id + "]";
        }
    }

    /** One lane's call of a link, and its listener. */
    private final class Call extends ServerCall.Listener<byte[]> {
        private final Lane lane;
        private final ServerCall<byte[], byte[]> call;
        private final Link link;
        private final ReentrantLock lock = new ReentrantLock();
        private final int window;
        private final int refill;
        /** Frames handled since the last request; touched only by the serialized listener. */
        private int handled;
        private boolean closed;

        Call(Lane lane, ServerCall<byte[], byte[]> call, Link link) {
            this.lane = lane;
            this.call = call;
            this.link = link;
            this.window = lane == Lane.LARGE ? 1 : WINDOW;
            this.refill = lane == Lane.LARGE ? 1 : REFILL;
        }

        void begin() {
            lock.lock();
            try {
                call.sendHeaders(new Metadata());
                call.request(window);
            } finally {
                lock.unlock();
            }
        }

        void close(Status status) {
            lock.lock();
            try {
                if (!closed) {
                    closed = true;
                    call.close(status, new Metadata());
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void onMessage(byte[] frame) {
            if (!link.ended.get()) {
                handler.onFrame(link, lane, frame);
            }
            if (++handled < refill) {
                return;
            }
            handled = 0;
            lock.lock();
            try {
                if (!closed) {
                    call.request(refill);
                }
            } finally {
                lock.unlock();
            }
        }

        @Override
        public void onHalfClose() {
            close(Status.OK);
            link.end(null);
        }

        @Override
        public void onCancel() {
            lock.lock();
            try {
                closed = true;
            } finally {
                lock.unlock();
            }
            link.end(Status.CANCELLED.withDescription("the peer's call on lane " + lane + " ended").asRuntimeException());
        }

        @Override
        public void onComplete() {
            link.end(null);
        }
    }
}
