package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The memory command measures every kind of actor and reports a number for each. */
class MemoryTest {

    @Test
    void measuresEveryKind() throws Exception {
        Map<String, Double> r = Memory.measureAll(2_000, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8));
        assertEquals(6, r.size()); // weft-cont only when named (it needs the continuation export)
        assertTrue(r.keySet().containsAll(java.util.List.of("weft react (bare)", "weft thread-based", "fibry", "pekko classic",
                "virtual thread + queue")));
        r.values().forEach(v -> assertTrue(!v.isNaN()));
    }
}
