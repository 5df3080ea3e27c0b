package io.weft.actors.runtime.internal.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The cell's fields stay declared where CellIngress's design block places them: what every send
 * reads in CellIngress, the first class of the chain, and the owner's per-message writes in
 * CellTurn, with no instance field in the classes between CellCore and CellTurn or after it. HotSpot
 * lays out a superclass's fields before its subclass's, so this keeps the send-read fields at the
 * start of the cell and the per-message writes at its end; the offsets themselves are the JVM's
 * (the design block gives them as measured).
 */
class CellFieldOrderTest {

    @Test
    void sendReadFieldsComeFirstAndPerMessageWritesLast() {
        assertEquals(List.of("lifecycle", "system", "mailbox", "stampClock"), instanceFields(CellIngress.class));
        assertEquals(List.of(), instanceFields(CellSending.class));
        assertEquals(List.of(), instanceFields(CellStash.class));
        assertEquals(List.of("continuation", "sender"), instanceFields(CellTurn.class));
        assertEquals(List.of(), instanceFields(CellLifecycle.class));
        assertEquals(List.of(), instanceFields(CellThreadMode.class));
        assertEquals(List.of(), instanceFields(Cell.class));
    }

    private static List<String> instanceFields(Class<?> c) {
        List<String> names = new ArrayList<>();
        for (Field f : c.getDeclaredFields()) {
            if (!Modifier.isStatic(f.getModifiers()) && !f.isSynthetic()) {
                names.add(f.getName());
            }
        }
        return names;
    }
}
