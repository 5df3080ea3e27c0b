package io.weft.actors.remote.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.ServerCall;
import io.grpc.Status;
import io.weft.actors.remote.transport.InboundHandler;
import io.weft.actors.remote.transport.InboundLink;
import io.weft.actors.remote.transport.Lane;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** How many frames a lane's server call requests ahead of its handler (counted on a recording call). */
class GrpcInboundWindowTest {

    /** A server call that counts the messages requested from it. */
    private static final class RecordingCall extends ServerCall<byte[], byte[]> {
        private final Lane lane;
        int requested;
        Status closedWith;

        RecordingCall(Lane lane) {
            this.lane = lane;
        }

        @Override
        public void request(int n) {
            requested += n;
        }

        @Override
        public void sendHeaders(Metadata headers) {
        }

        @Override
        public void sendMessage(byte[] message) {
        }

        @Override
        public void close(Status status, Metadata trailers) {
            closedWith = status;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public MethodDescriptor<byte[], byte[]> getMethodDescriptor() {
            return GrpcEngine.method(lane);
        }
    }

    /** Records each frame with the number of frames requested and not yet handled while it is handled. */
    private static final class Recorder implements InboundHandler {
        final List<byte[]> frames = new ArrayList<>();
        final List<Integer> outstanding = new ArrayList<>();
        RecordingCall call;

        @Override
        public void onFrame(InboundLink from, Lane lane, byte[] frame) {
            frames.add(frame);
            // frames requested minus those handled before this one: what gRPC may still deliver
            outstanding.add(call.requested - (frames.size() - 1));
        }

        @Override
        public void onRefused(InboundLink from, String reason) {
        }

        @Override
        public void onClosed(InboundLink link, Throwable cause) {
        }
    }

    private static ServerCall.Listener<byte[]> start(GrpcInbound in, Lane lane, RecordingCall call) {
        Metadata headers = new Metadata();
        headers.put(GrpcEngine.LINK_ID, "link-1");
        return in.handler(lane).startCall(call, headers);
    }

    @ParameterizedTest
    @EnumSource(value = Lane.class, names = {"CONTROL", "ORDINARY"})
    void theControlAndOrdinaryLanesKeepAWindowOfFramesRequestedAndRefillItOnlyAsFramesAreHandled(Lane lane) {
        Recorder handler = new Recorder();
        RecordingCall call = new RecordingCall(lane);
        handler.call = call;
        ServerCall.Listener<byte[]> listener = start(new GrpcInbound(handler, 1 << 20), lane, call);
        assertEquals(GrpcInbound.WINDOW, call.requested, "frames requested before the first arrives");
        assertTrue(GrpcInbound.WINDOW >= 16, "window " + GrpcInbound.WINDOW);
        int n = 1000;
        for (int i = 0; i < n; i++) {
            assertTrue(call.requested > i, "frame " + i + " arrives only if requested (" + call.requested + " requested)");
            listener.onMessage(new byte[] {(byte) i, (byte) (i >> 8)});
            int ahead = call.requested - (i + 1);
            assertTrue(ahead > 0 && ahead <= GrpcInbound.WINDOW, "after frame " + i + ": " + ahead + " requested ahead");
        }
        assertEquals(n, handler.frames.size());
        for (int i = 0; i < n; i++) {
            assertArrayEquals(new byte[] {(byte) i, (byte) (i >> 8)}, handler.frames.get(i), "frame " + i + " in order");
            assertTrue(handler.outstanding.get(i) <= GrpcInbound.WINDOW,
                    "while frame " + i + " is handled at most the window is requested: " + handler.outstanding.get(i));
        }
        // a request per REFILL frames, not one per frame
        assertEquals(GrpcInbound.WINDOW + (n / GrpcInbound.REFILL) * GrpcInbound.REFILL, call.requested);
    }

    @Test
    void theLargeLaneRequestsOneFrameAtATime() {
        Recorder handler = new Recorder();
        RecordingCall call = new RecordingCall(Lane.LARGE);
        handler.call = call;
        ServerCall.Listener<byte[]> listener = start(new GrpcInbound(handler, 1 << 20), Lane.LARGE, call);
        assertEquals(1, call.requested);
        for (int i = 0; i < 20; i++) {
            listener.onMessage(new byte[] {(byte) i});
            assertEquals(i + 2, call.requested, "after frame " + i);
        }
        assertEquals(20, handler.outstanding.stream().filter(o -> o == 1).count(), "one frame requested while each is handled");
    }

    @Test
    void aClosedCallRequestsNoMore() {
        Recorder handler = new Recorder();
        RecordingCall call = new RecordingCall(Lane.ORDINARY);
        handler.call = call;
        ServerCall.Listener<byte[]> listener = start(new GrpcInbound(handler, 1 << 20), Lane.ORDINARY, call);
        listener.onHalfClose();
        assertEquals(Status.Code.OK, call.closedWith.getCode());
        int before = call.requested;
        for (int i = 0; i < GrpcInbound.WINDOW; i++) {
            listener.onMessage(new byte[] {1});
        }
        assertEquals(before, call.requested);
        assertEquals(0, handler.frames.size(), "frames after the link ended are not handled");
    }
}
