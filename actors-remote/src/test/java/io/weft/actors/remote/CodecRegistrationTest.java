package io.weft.actors.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.remote.Fixtures.Circle;
import io.weft.actors.remote.Fixtures.Color;
import io.weft.actors.remote.Fixtures.Point;
import io.weft.actors.remote.Fixtures.PointCodec;
import io.weft.actors.remote.Fixtures.Shape;
import io.weft.actors.remote.Fixtures.Square;

import java.lang.invoke.MethodHandles;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

class CodecRegistrationTest {

    record UsesCircle(Circle circle) {
    }

    record UsesShape(Shape shape) {
    }

    record UsesColor(Color color) {
    }

    record UsesIntArray(int[] values) {
    }

    record UsesArrayList(ArrayList<String> values) {
    }

    record UsesMapOfPoints(Map<String, List<Point>> points) {
    }

    record UsesAnything(Object any, CharSequence text, Number number) {
    }

    static final class NotARecord {
    }

    private static CodecRegistry.Builder builder() {
        return CodecRegistry.builder(MethodHandles.lookup());
    }

    private static void assertRefused(Executable e, String... parts) {
        IllegalArgumentException x = assertThrows(IllegalArgumentException.class, e);
        for (String part : parts) {
            assertTrue(x.getMessage().contains(part), () -> "'" + x.getMessage() + "' should contain '" + part + "'");
        }
    }

    @Test
    void idsOutsideTheUserRangeAreRefused() {
        assertRefused(() -> builder().register(63, Circle.class), Circle.class.getName(), "id 63", "from 64 to 16383");
        assertRefused(() -> builder().register(0, Circle.class), "id 0", "pick an id");
        assertRefused(() -> builder().register(16_384, Circle.class), "id 16384", "from 64 to 16383");
        assertRefused(() -> builder().register(-5, Point.class, new PointCodec()), "id -5", "from 64 to 16383");
    }

    @Test
    void duplicateIdsAndTypesAreRefused() {
        assertRefused(() -> builder().register(64, Circle.class).register(64, Square.class),
                Square.class.getName(), "id 64", "already taken by " + Circle.class.getName(), "its own id");
        assertRefused(() -> builder().register(64, Circle.class).register(65, Circle.class),
                Circle.class.getName(), "id 65", "already registered under id 64", "once");
    }

    @Test
    void builtInTypesCannotBeRegistered() {
        assertRefused(() -> builder().register(64, String.class), "java.lang.String", "id 64", "built-in", "reserved id 10",
                "remove this registration");
        assertRefused(() -> builder().register(64, List.class, null), "java.util.List", "built-in");
        assertRefused(() -> builder().register(64, Fixtures.FakeRef.class), "built-in");
    }

    @Test
    void classesThatAreNeitherRecordsNorEnumsNeedACodec() {
        assertRefused(() -> builder().register(80, NotARecord.class), NotARecord.class.getName(), "id 80",
                "neither a record nor an enum", "MessageCodec", "register(80, NotARecord.class, codec)");
        assertRefused(() -> builder().register(80, Shape.class), Shape.class.getName(), "id 80", "sealed interface",
                "register each of its record implementations");
    }

    @Test
    void recordComponentsMustBeEncodable() {
        assertRefused(() -> builder().register(90, UsesCircle.class).build(), UsesCircle.class.getName(), "id 90",
                "'circle'", Circle.class.getName(), "register Circle with its own id");
        // Color's constants have bodies, which makes the enum implicitly sealed: the fix still names Color
        assertRefused(() -> builder().register(90, UsesColor.class).build(), "'color'", Color.class.getName(),
                "register(id, Color.class)");
        assertRefused(() -> builder().register(90, UsesIntArray.class).build(), "'values'", "int[]", "declare a List");
        assertRefused(() -> builder().register(90, UsesArrayList.class).build(), "'values'", "java.util.ArrayList",
                "MessageCodec");
        assertRefused(() -> builder().register(90, UsesMapOfPoints.class).build(), "'points'", Point.class.getName());
        // with the component types registered, all of them build
        builder().register(90, UsesCircle.class).register(91, Circle.class).build();
        builder().register(90, UsesMapOfPoints.class).register(91, Point.class, new PointCodec()).build();
        // Object, interfaces and abstract classes are checked per value at encode time
        CodecRegistry open = builder().register(90, UsesAnything.class).build();
        assertEquals(new UsesAnything(1, "s", 2L), open.decode(open.encode(new UsesAnything(1, "s", 2L)), null));
        CodecException x = assertThrows(CodecException.class,
                () -> open.encode(new UsesAnything(new StringBuilder(), "s", 1)));
        assertEquals(CodecException.Reason.UNREGISTERED_TYPE, x.reason());
        assertTrue(x.getMessage().contains("java.lang.StringBuilder")
                && x.getMessage().contains("found in component 'any' of record " + UsesAnything.class.getName()), x.getMessage());
    }

    @Test
    void aSealedComponentNeedsEveryImplementationRegistered() {
        assertRefused(() -> builder().register(90, UsesShape.class).register(91, Circle.class).build(),
                UsesShape.class.getName(), "'shape'", "permits", Square.class.getName(), "register(id, Square.class)");
        builder().register(90, UsesShape.class).register(91, Circle.class).register(92, Square.class)
                .register(93, Fixtures.Group.class).build();
    }

    @Test
    void aLookupWithoutAccessIsRefusedWithTheFix() {
        Class<?> hidden = io.weft.actors.remote.fixtures.HiddenTypes.hiddenType();
        assertRefused(() -> CodecRegistry.builder(MethodHandles.publicLookup()).register(100, hidden),
                hidden.getName(), "id 100", "cannot access", "MethodHandles.lookup()");
    }

    @Test
    void limitsAreChecked() {
        assertRefused(() -> builder().maxDepth(0), "maxDepth");
        assertRefused(() -> builder().maxDepth(257), "maxDepth");
        assertRefused(() -> builder().maxLength(0), "maxLength");
        assertRefused(() -> builder().maxFrameBytes(15), "maxFrameBytes");
    }

    @Test
    void aBuilderBuildsOnce() {
        CodecRegistry.Builder b = builder().register(64, Color.class);
        b.build();
        assertThrows(IllegalStateException.class, b::build);
        assertThrows(IllegalStateException.class, () -> b.register(65, Circle.class));
    }

    @Test
    void unregisteredTypesAtEncodeTimeAreNamedWithTheFix() {
        CodecRegistry empty = builder().build();
        CodecException x = assertThrows(CodecException.class, () -> empty.encode(new Circle(1)));
        assertEquals(CodecException.Reason.UNREGISTERED_TYPE, x.reason());
        assertTrue(x.getMessage().contains(Circle.class.getName()) && x.getMessage().contains("register(id, Circle.class)"),
                x.getMessage());
        x = assertThrows(CodecException.class, () -> empty.encode(Color.GREEN)); // a constant with a body
        assertTrue(x.getMessage().contains("a " + Color.class.getName() + ":") && x.getMessage().contains("register(id, Color.class)"),
                x.getMessage());
        x = assertThrows(CodecException.class, () -> empty.encode(List.of(new NotARecord())));
        assertTrue(x.getMessage().contains(NotARecord.class.getName()) && x.getMessage().contains("MessageCodec"),
                x.getMessage());
        x = assertThrows(CodecException.class, () -> empty.encode(new int[] {1}));
        assertTrue(x.getMessage().contains("only byte[]"), x.getMessage());
        x = assertThrows(CodecException.class, () -> empty.encode(new java.util.ArrayDeque<>(List.of(1))));
        assertTrue(x.getMessage().contains("send a List or a Set"), x.getMessage());
    }
}
