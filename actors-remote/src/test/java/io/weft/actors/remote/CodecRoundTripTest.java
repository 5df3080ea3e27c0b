package io.weft.actors.remote;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.remote.Fixtures.Blob;
import io.weft.actors.remote.Fixtures.Boxes;
import io.weft.actors.remote.Fixtures.Circle;
import io.weft.actors.remote.Fixtures.Color;
import io.weft.actors.remote.Fixtures.Everything;
import io.weft.actors.remote.Fixtures.FakeRef;
import io.weft.actors.remote.Fixtures.FakeResolver;
import io.weft.actors.remote.Fixtures.Group;
import io.weft.actors.remote.Fixtures.Point;
import io.weft.actors.remote.Fixtures.Prims;
import io.weft.actors.remote.Fixtures.Square;
import io.weft.actors.remote.Fixtures.TextBlob;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.RandomAccess;
import java.util.Set;
import java.util.TreeMap;

import org.junit.jupiter.api.Test;

class CodecRoundTripTest {

    private final CodecRegistry registry = Fixtures.REGISTRY;
    private final FakeResolver resolver = new FakeResolver();

    private Object roundTrip(Object value) {
        byte[] frame = registry.encode(value);
        return registry.decode(frame, resolver);
    }

    private void assertRoundTrip(Object value) {
        Object back = roundTrip(value);
        assertEquals(value, back, () -> "round trip of " + value);
        if (value != null) {
            assertSame(value.getClass(), back.getClass());
        }
    }

    @Test
    void boxesAtTheirEdges() {
        for (Object v : List.<Object>of(true, false,
                (byte) 0, (byte) -1, Byte.MIN_VALUE, Byte.MAX_VALUE,
                (short) 0, (short) -1, Short.MIN_VALUE, Short.MAX_VALUE,
                (char) 0, '\uFFFF', '\uD800', 'é',
                0, -1, 1, Integer.MIN_VALUE, Integer.MAX_VALUE, 63, -64, 64,
                0L, -1L, Long.MIN_VALUE, Long.MAX_VALUE,
                0f, -0f, Float.NaN, Float.MIN_VALUE, Float.MAX_VALUE, Float.NEGATIVE_INFINITY,
                0d, -0d, Double.NaN, Double.MIN_VALUE, Double.MAX_VALUE, Double.POSITIVE_INFINITY)) {
            assertRoundTrip(v);
        }
        // -0.0 keeps its sign and a NaN keeps its payload bits
        assertEquals(Double.doubleToRawLongBits(-0.0), Double.doubleToRawLongBits((Double) roundTrip(-0.0)));
        float oddNaN = Float.intBitsToFloat(0x7fc00123);
        assertEquals(0x7fc00123, Float.floatToRawIntBits((Float) roundTrip(oddNaN)));
    }

    @Test
    void primitiveRecordComponentsAtTheirEdges() {
        assertRoundTrip(new Prims(true, Byte.MIN_VALUE, Short.MIN_VALUE, '\u0000', Integer.MIN_VALUE, Long.MIN_VALUE,
                Float.NEGATIVE_INFINITY, -0.0));
        assertRoundTrip(new Prims(false, Byte.MAX_VALUE, Short.MAX_VALUE, '\uFFFF', Integer.MAX_VALUE, Long.MAX_VALUE,
                Float.NaN, Double.NaN));
        assertRoundTrip(new Prims(false, (byte) -1, (short) -1, 'a', -1, -1, -1f, -1d));
        assertRoundTrip(new Boxes(true, (byte) 1, (short) 2, 'c', 4, 5L, 6f, 7d));
        assertRoundTrip(new Boxes(null, null, null, null, null, null, null, null));
    }

    @Test
    void strings() {
        StringBuilder longOne = new StringBuilder();
        for (int i = 0; i < 100_000; i++) {
            longOne.append((char) ('a' + i % 26));
            if (i % 1000 == 0) {
                longOne.append("ç€😀");
            }
        }
        for (String s : List.of("", "a", "ASCII only", "ünïcödé", "日本語", "😀 surrogate pair 𝄞", "\u0000nul",
                "x".repeat(200), longOne.toString())) {
            assertRoundTrip(s);
        }
    }

    @Test
    void bytes() {
        byte[] big = new byte[70_000];
        for (int i = 0; i < big.length; i++) {
            big[i] = (byte) (i * 31);
        }
        for (byte[] b : List.of(new byte[0], new byte[] {0}, new byte[] {-128, 127, -1}, big)) {
            assertArrayEquals(b, (byte[]) roundTrip(b));
        }
    }

    @Test
    void nestedRecordsSealedInterfacesEnumsAndCollections() {
        assertRoundTrip(new Circle(2.5));
        assertRoundTrip(new Square(4, "four"));
        assertRoundTrip(new Group(List.of(new Circle(1), new Square(2, null),
                new Group(List.of(new Circle(3)), Optional.of(new Square(5, "inner")))), Optional.empty()));
        for (Color c : Color.values()) {
            assertSame(c, roundTrip(c));
        }
        Everything e = Fixtures.everything();
        assertRoundTrip(e);
        assertEquals(Map.of("weft://sys/a#1", 1), resolver.calls);
    }

    @Test
    void collectionsKeepOrderAndNullsAndAreUnmodifiable() {
        List<Object> list = new ArrayList<>(Arrays.asList(3, null, "x", List.of(1, 2), new Circle(1)));
        Object back = roundTrip(list);
        assertEquals(list, back);
        assertInstanceOf(RandomAccess.class, back);
        assertThrows(UnsupportedOperationException.class, () -> ((List<?>) back).clear());

        Set<Object> set = new LinkedHashSet<>(Arrays.asList("z", "a", null, 5, Color.RED));
        Set<?> setBack = (Set<?>) roundTrip(set);
        assertEquals(new ArrayList<>(set), new ArrayList<>(setBack));
        assertTrue(setBack.contains(null));
        assertThrows(UnsupportedOperationException.class, () -> setBack.remove("z"));

        Map<Object, Object> map = new LinkedHashMap<>();
        map.put("b", 1);
        map.put(null, "null key");
        map.put("a", null);
        map.put(7, Map.of("nested", Set.of()));
        Map<?, ?> mapBack = (Map<?, ?>) roundTrip(map);
        assertEquals(new ArrayList<>(map.entrySet()), new ArrayList<>(mapBack.entrySet()));
        assertThrows(UnsupportedOperationException.class, () -> mapBack.clear());

        assertEquals(Map.of("x", 1), roundTrip(new TreeMap<>(Map.of("x", 1))));
        assertEquals(new HashSet<>(List.of(1, 2)), roundTrip(new HashSet<>(List.of(1, 2))));
        assertEquals(new HashMap<>(Map.of(1, 2)), roundTrip(new HashMap<>(Map.of(1, 2))));
        assertEquals(List.of(), roundTrip(List.of()));
        assertEquals(Optional.empty(), roundTrip(Optional.empty()));
        assertEquals(Optional.of(List.of(Optional.of("deep"))), roundTrip(Optional.of(List.of(Optional.of("deep")))));
    }

    @Test
    void nullAndRefs() {
        assertNull(roundTrip(null));
        FakeRef ref = new FakeRef("weft://sys/worker#42");
        assertEquals(ref, roundTrip(ref));
        assertEquals(List.of(ref, ref), roundTrip(List.of(ref, ref)));
        assertEquals(2, resolver.calls.get("weft://sys/worker#42") - 1);
    }

    @Test
    void pluggedCodecs() {
        assertRoundTrip(new Point(Integer.MIN_VALUE, Integer.MAX_VALUE));
        assertEquals(List.of(new Point(1, 2), new Point(-1, 0)), roundTrip(List.of(new Point(1, 2), new Point(-1, 0))));
        // a codec registered for an interface covers its implementations
        Object blob = roundTrip(new TextBlob("some text"));
        assertInstanceOf(Blob.class, blob);
        assertEquals("some text", ((Blob) blob).content());
        assertEquals(74, registry.idOf(Blob.class));
        assertEquals(74, registry.encode(new TextBlob("t"))[0]);
    }

    @Test
    void wireFormatIsAsDocumented() {
        assertArrayEquals(new byte[] {1}, registry.encode(null));
        assertArrayEquals(new byte[] {2, 1}, registry.encode(true));
        assertArrayEquals(new byte[] {6, 1}, registry.encode(-1)); // zigzag
        assertArrayEquals(new byte[] {6, (byte) 0x80, 1}, registry.encode(64));
        assertArrayEquals(new byte[] {10, 2, 'h', 'i'}, registry.encode("hi"));
        assertArrayEquals(new byte[] {10, 2, (byte) 0xC3, (byte) 0xA9}, registry.encode("é"));
        assertArrayEquals(new byte[] {11, 2, 5, 6}, registry.encode(new byte[] {5, 6}));
        assertArrayEquals(new byte[] {12, 2, 1, 6, 2}, registry.encode(Arrays.asList(null, 1)));
        assertArrayEquals(new byte[] {14, 1, 10, 1, 'k', 2, 0}, registry.encode(Map.of("k", false)));
        assertArrayEquals(new byte[] {15, 1}, registry.encode(Optional.empty()));
        assertArrayEquals(new byte[] {67, 1}, registry.encode(Color.GREEN)); // ordinal, constant with a body
        // record: id, primitive int zigzag untagged, reference component tagged
        assertArrayEquals(new byte[] {65, 6, 10, 1, 's'}, registry.encode(new Square(3, "s")));
        assertArrayEquals(new byte[] {65, 6, 1}, registry.encode(new Square(3, null)));
        assertArrayEquals(new byte[] {64, 0x3F, (byte) 0xF0, 0, 0, 0, 0, 0, 0}, registry.encode(new Circle(1.0)));
        assertArrayEquals(new byte[] {16, 3, 'w', ':', '1'}, registry.encode(new FakeRef("w:1")));
    }

    @Test
    void aFrameBufferIsReusedAndKeepsFramesSideBySide() {
        FrameBuffer buffer = FrameBuffer.allocate(0);
        registry.encode("first", buffer);
        int firstEnd = buffer.length();
        registry.encode(new Square(1, "second"), buffer);
        int secondEnd = buffer.length();
        assertThrows(CodecException.class, () -> registry.encode(new Object(), buffer));
        assertEquals(secondEnd, buffer.length(), "a failed encode leaves the buffer as it was");
        byte[] bytes = buffer.array();
        assertEquals("first", registry.decode(bytes, 0, firstEnd, null));
        assertEquals(new Square(1, "second"), registry.decode(bytes, firstEnd, secondEnd - firstEnd, null));
        buffer.clear();
        assertEquals(0, buffer.length());
        registry.encode(7, buffer);
        assertArrayEquals(new byte[] {6, 14}, buffer.toByteArray());
    }

    @Test
    void manyThreadsShareOneRegistry() throws Exception {
        List<Thread> threads = new ArrayList<>();
        List<Throwable> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 4; t++) {
            int seed = t;
            threads.add(Thread.ofPlatform().start(() -> {
                try {
                    FrameBuffer buf = FrameBuffer.allocate(16);
                    for (int i = 0; i < 2_000; i++) {
                        Object msg = new Group(List.of(new Square(i, "t" + seed)), Optional.of(new Circle(i)));
                        buf.clear();
                        registry.encode(msg, buf);
                        Object back = registry.decode(buf.array(), 0, buf.length(), null);
                        if (!msg.equals(back)) {
                            throw new AssertionError("thread " + seed + " message " + i + " came back as " + back);
                        }
                    }
                } catch (Throwable e) {
                    failures.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join(60_000);
        }
        assertEquals(List.of(), failures);
    }
}
