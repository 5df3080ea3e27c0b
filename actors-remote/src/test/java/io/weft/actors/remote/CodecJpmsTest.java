package io.weft.actors.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.weft.actors.remote.fixtures.HiddenTypes;

import org.junit.jupiter.api.Test;

class CodecJpmsTest {

    @Test
    void aPackagePrivateRecordIsBuiltThroughThePassedLookup() {
        Class<?> hidden = HiddenTypes.hiddenType();
        CodecRegistry registry = CodecRegistry.builder(HiddenTypes.LOOKUP).register(100, hidden).build();
        Object original = HiddenTypes.make("through the lookup", 3);
        Object back = registry.decode(registry.encode(original), null);
        assertSame(hidden, back.getClass());
        assertNotSame(original, back);
        assertEquals(original, back);
    }

    @Test
    void theCodecRunsAsANamedModule() {
        // surefire runs the tests on the module path, patched into the codec's module
        assertEquals("io.weft.actors.remote", CodecRegistry.class.getModule().getName());
        assertEquals("io.weft.actors.api", io.weft.actors.ActorRef.class.getModule().getName());
    }
}
