package io.weft.actors.remote.internal.grpc;

import io.grpc.Drainable;
import io.grpc.KnownLength;
import io.grpc.MethodDescriptor;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/** Carries a frame as the raw bytes of a gRPC message: no protobuf, no copy on the way out. */
final class ByteMarshaller implements MethodDescriptor.Marshaller<byte[]> {

    /* design
     * Out: the frame's own array is the stream, drained into gRPC's buffer in one write.
     * In: gRPC's deframer hands over a stream that knows its length (KnownLength; its available()
     * is the whole message), so parse allocates one array of exactly the frame's size and reads
     * into it. InputStream.readAllBytes would allocate a 16 KiB chunk per frame and then copy the
     * frame out of it (and copy chunks again for frames over 16 KiB); it is kept only for a stream
     * without a known length.
     */

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

    /** Reads a stream that announced n bytes into one array of n bytes; a stream that lied is still read whole. */
    private static byte[] readKnown(InputStream stream, int n) throws IOException {
        byte[] frame = new byte[n];
        int read = stream.readNBytes(frame, 0, n);
        if (read < n) {
            return Arrays.copyOf(frame, read);
        }
        int next = stream.read();
        if (next < 0) {
            return frame;
        }
        byte[] rest = stream.readAllBytes();
        byte[] all = Arrays.copyOf(frame, n + 1 + rest.length);
        all[n] = (byte) next;
        System.arraycopy(rest, 0, all, n + 1, rest.length);
        return all;
    }

    @Override
    public byte[] parse(InputStream stream) {
        try {
            if (stream instanceof KnownLength) {
                return readKnown(stream, stream.available());
            }
            return stream.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
