package io.weft.actors.remote;

import io.weft.actors.ActorRef;

import java.lang.invoke.MethodHandles;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/** Message types and fakes shared by the codec tests. */
final class Fixtures {

    private Fixtures() {
    }

    sealed interface Shape permits Circle, Square, Group {
    }

    record Circle(double radius) implements Shape {
    }

    record Square(int side, String label) implements Shape {
    }

    record Group(List<Shape> members, Optional<Shape> focus) implements Shape {
    }

    enum Color {
        RED,
        GREEN {
            @Override
            public String toString() {
                return "green";
            }
        },
        BLUE
    }

    record Prims(boolean z, byte b, short s, char c, int i, long l, float f, double d) {
    }

    record Boxes(Boolean z, Byte b, Short s, Character c, Integer i, Long l, Float f, Double d) {
    }

    record Everything(String text, byte[] bytes, Shape shape, Color color, List<Integer> ints, Set<String> tags,
            Map<String, List<Shape>> index, Optional<String> note, Object any, ActorRef<?> ref) {

        @Override
        public boolean equals(Object o) {
            return o instanceof Everything e && Objects.equals(text, e.text) && Arrays.equals(bytes, e.bytes)
                    && Objects.equals(shape, e.shape) && color == e.color && Objects.equals(ints, e.ints)
                    && Objects.equals(tags, e.tags) && Objects.equals(index, e.index) && Objects.equals(note, e.note)
                    && Objects.equals(any, e.any) && Objects.equals(ref, e.ref);
        }

        @Override
        public int hashCode() {
            return Objects.hash(text, Arrays.hashCode(bytes), shape, color, ints, tags, index, note, any, ref);
        }
    }

    /** A record whose constructor validates. */
    record Positive(int n) {
        Positive {
            if (n <= 0) {
                throw new IllegalArgumentException("n must be positive, was " + n);
            }
        }
    }

    /** A record with a generic component, checked element by element. */
    record Holder(List<Shape> shapes) {
    }

    /** A plain class, encoded by a plugged codec. */
    static final class Point {
        final int x;
        final int y;

        Point(int x, int y) {
            this.x = x;
            this.y = y;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Point p && p.x == x && p.y == y;
        }

        @Override
        public int hashCode() {
            return 31 * x + y;
        }
    }

    static final class PointCodec implements MessageCodec<Point> {
        @Override
        public void write(Point value, CodecOutput out) {
            out.writeInt(value.x);
            out.writeInt(value.y);
        }

        @Override
        public Point read(CodecInput in) {
            return new Point(in.readInt(), in.readInt());
        }
    }

    /** An interface with a plugged codec, covering its implementations. */
    interface Blob {
        String content();
    }

    record TextBlob(String content) implements Blob {
    }

    static final class BlobCodec implements MessageCodec<Blob> {
        @Override
        public void write(Blob value, CodecOutput out) {
            out.writeString(value.content());
            out.writeValue(Optional.of(value.content().length()));
        }

        @Override
        public Blob read(CodecInput in) {
            String s = in.readString();
            in.readValue(Optional.class);
            return new TextBlob(s);
        }
    }

    /** A fake ref: equal by address. */
    static final class FakeRef implements ActorRef<Object> {
        private final String address;

        FakeRef(String address) {
            this.address = address;
        }

        @Override
        public long id() {
            return 1;
        }

        @Override
        public String name() {
            return address;
        }

        @Override
        public String address() {
            return address;
        }

        @Override
        public boolean isTerminated() {
            return false;
        }

        @Override
        public void tell(Object message) {
        }

        @Override
        public void tell(Object message, ActorRef<?> replyTo) {
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FakeRef r && r.address.equals(address);
        }

        @Override
        public int hashCode() {
            return address.hashCode();
        }

        @Override
        public String toString() {
            return "FakeRef[" + address + "]";
        }
    }

    /** Resolves any weft:// address to a FakeRef and counts the calls; refuses other addresses. */
    static final class FakeResolver implements RefResolver {
        final Map<String, Integer> calls = new HashMap<>();

        @Override
        public ActorRef<?> resolve(String address) {
            if (!address.startsWith("weft://")) {
                throw new IllegalArgumentException("not a weft address: " + address);
            }
            calls.merge(address, 1, Integer::sum);
            return new FakeRef(address);
        }
    }

    static CodecRegistry.Builder builder() {
        return CodecRegistry.builder(MethodHandles.lookup())
                .register(64, Circle.class)
                .register(65, Square.class)
                .register(66, Group.class)
                .register(67, Color.class)
                .register(68, Prims.class)
                .register(69, Boxes.class)
                .register(70, Everything.class)
                .register(71, Point.class, new PointCodec())
                .register(72, Positive.class)
                .register(73, Holder.class)
                .register(74, Blob.class, new BlobCodec());
    }

    static final CodecRegistry REGISTRY = builder().build();

    static Everything everything() {
        Shape group = new Group(List.of(new Circle(1.5), new Square(3, "sq")), Optional.of(new Circle(-0.0)));
        return new Everything("héllo 🎉", new byte[] {0, -1, 127, -128}, group, Color.GREEN, Arrays.asList(1, null, -7),
                Set.of("a"), Map.of("k", List.of(new Square(1, null))), Optional.empty(), Color.BLUE,
                new FakeRef("weft://sys/a#1"));
    }

    /** Valid messages of every kind, for truncation and fuzzing. */
    static List<Object> samples() {
        return List.of(
                everything(),
                new Prims(true, (byte) -1, Short.MIN_VALUE, '\uFFFF', Integer.MIN_VALUE, Long.MAX_VALUE, Float.NaN, -0.0),
                new Boxes(false, (byte) 7, (short) 300, 'x', -1, 1L << 40, 1.25f, Double.MAX_VALUE),
                new Holder(List.of(new Circle(2), new Group(List.of(), Optional.empty()))),
                new Positive(5),
                List.of("a", 1, 2L, Map.of(1, Set.of(Color.RED))),
                new Point(-3, 1 << 20),
                new TextBlob("blob"),
                "a string with ünïcode",
                Optional.of(new byte[] {1, 2, 3}));
    }
}
