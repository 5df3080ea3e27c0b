package io.weft.actors.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.weft.actors.Receive;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * A handler built per message is allocated per message: one plain case (a consumer on the main
 * channel without a guard) is three references and nothing besides (24 bytes with compressed
 * references), later cases hang off the same field, and only the rarer parts take a side object.
 */
class CasesLayoutTest {

    private static Object more(Receive<?, ?> r) throws ReflectiveOperationException {
        Field f = Cases.class.getDeclaredField("more");
        f.setAccessible(true);
        return f.get(r);
    }

    @Test
    void aCasesIsThreeReferences() {
        Field[] instance = Arrays.stream(Cases.class.getDeclaredFields())
                .filter(f -> !Modifier.isStatic(f.getModifiers())).toArray(Field[]::new);
        assertEquals(3, instance.length, Arrays.toString(instance));
        for (Field f : instance) {
            assertFalse(f.getType().isPrimitive(), f + " is a reference");
        }
    }

    @Test
    void onlyTheRarerPartsTakeASideObject() throws ReflectiveOperationException {
        Receive<Object, Void> one = Receive.handler().match(String.class, s -> { }).build();
        assertNull(more(one), "one plain case: no side object");
        Receive<Object, Void> two = Receive.handler().match(String.class, s -> { }).match(Integer.class, i -> { }).build();
        assertEquals("Case", more(two).getClass().getSimpleName(), "a plain first case: the chain itself");
        Receive<Object, Void> guarded = Receive.handler().match(String.class, s -> !s.isEmpty(), s -> { }).build();
        assertEquals("More", more(guarded).getClass().getSimpleName(), "a guard: the side object");
        Receive<Object, Void> timed = Receive.handler().match(String.class, s -> { }).onTimeout(() -> { }).build();
        assertEquals("More", more(timed).getClass().getSimpleName(), "a timeout case: the side object");
    }
}
