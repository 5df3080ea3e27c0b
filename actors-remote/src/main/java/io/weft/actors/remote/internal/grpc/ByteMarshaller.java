package io.weft.actors.remote.internal.grpc;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;

/** Carries a frame as the raw bytes of a gRPC message: no protobuf, no copy on the way out. */
final class ByteMarshaller implements MethodDescriptor.Marshaller<byte[]> {

    static final ByteMarshaller INSTANCE = new ByteMarshaller();

    private ByteMarshaller() {
    }

    /** A stream over the frame that tells gRPC its length and writes itself out in one call. */
    private static final class FrameStream extends ByteArrayInputStream implements KnownLength, Drainable {
        FrameStream(byte[] frame) {
            super(frame);
        }

        @Override
        public int drainTo(OutputStream target) throws IOException {
            int n = count - pos;
            target.write(buf, pos, n);
            pos = count;
            return n;
        }
    }

    @Override
    public InputStream stream(byte[] value) {
        return new FrameStream(value);
    }

    @Override
    public byte[] parse(InputStream stream) {
        try {
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
