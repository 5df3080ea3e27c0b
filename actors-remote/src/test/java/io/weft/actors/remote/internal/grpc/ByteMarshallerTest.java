package io.weft.actors.remote.internal.grpc;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.grpc.KnownLength;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What {@link ByteMarshaller#parse} allocates per frame, seen through the arrays it reads into. */
class ByteMarshallerTest {

    /** A stream like gRPC's deframed message: knows its length; records every array read into. */
    private static final class Recording extends InputStream implements KnownLength {
        private final byte[] data;
        private final int announced;
        private int pos;
        final List<byte[]> targets = new ArrayList<>();

        Recording(byte[] data, int announced) {
            this.data = data;
            this.announced = announced;
        }

        @Override
        public int available() {
            return Math.max(0, announced - pos);
        }

        @Override
        public int read() {
            return pos < data.length ? data[pos++] & 0xff : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (!targets.contains(b)) {
                targets.add(b);
            }
            if (len == 0) {
                return 0;
            }
            if (pos >= data.length) {
                return -1;
            }
            int n = Math.min(len, Math.min(data.length - pos, 3000)); // short reads, as a composite buffer gives
            System.arraycopy(data, pos, b, off, n);
            pos += n;
            return n;
        }
    }

    private static byte[] frame(int size) {
        byte[] f = new byte[size];
        for (int i = 0; i < size; i++) {
            f[i] = (byte) (i * 31 + 7);
        }
        return f;
    }

    @Test
    void aFrameIsReadIntoOneArrayOfItsOwnSize() {
        for (int size : new int[] {0, 1, 120, 16_383, 16_384, 40_000, 300_000}) {
            byte[] frame = frame(size);
            Recording in = new Recording(frame, size);
            byte[] parsed = ByteMarshaller.INSTANCE.parse(in);
            assertArrayEquals(frame, parsed, "frame of " + size + " bytes");
            for (byte[] target : in.targets) {
                assertEquals(size, target.length, "a frame of " + size + " bytes was read into an array of " + target.length);
            }
            if (size > 0) {
                assertEquals(1, in.targets.size(), "arrays read into for a frame of " + size + " bytes");
                assertSame(in.targets.get(0), parsed, "the array read into is the frame handed on, not copied");
            }
        }
    }

    @Test
    void aStreamThatAnnouncesTheWrongLengthIsStillReadWhole() {
        byte[] frame = frame(5000);
        assertArrayEquals(frame, ByteMarshaller.INSTANCE.parse(new Recording(frame, 1200)), "fewer announced");
        assertArrayEquals(frame, ByteMarshaller.INSTANCE.parse(new Recording(frame, 9000)), "more announced");
        assertArrayEquals(frame, ByteMarshaller.INSTANCE.parse(new ByteArrayInputStream(frame)), "no known length");
    }

    @Test
    void aFrameStreamsOutAsItsOwnBytes() throws Exception {
        byte[] frame = frame(777);
        InputStream out = ByteMarshaller.INSTANCE.stream(frame);
        assertEquals(777, out.available());
        assertArrayEquals(frame, out.readAllBytes());
    }
}
