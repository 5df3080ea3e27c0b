package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.bench.kit.Impl;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code compare --forks}: each implementation in child JVMs, their runs pooled. */
class ForkedCompareTest {

    @Test
    void forksPoolTheRunsOfEveryChild() throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        List<Compare.Row> rows = Compare.runForked(Compare.select(java.util.Set.of("pingpong")), List.of(Impl.WEFT, Impl.PEKKO),
                true, 0, 2, 2, false, new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertEquals(2, rows.size(), progress.toString(StandardCharsets.UTF_8));
        for (Compare.Row r : rows) {
            assertTrue(r.validated(), r.impl() + ": " + r.error());
            assertEquals(4, r.ms().size(), "2 forks x 2 measured runs for " + r.impl());
        }
    }

    @Test
    void aFailedChildsStandardErrorIsKeptFromBothEnds(@TempDir Path dir) throws Exception {
        Path err = dir.resolve("child.err");
        assertEquals(List.of(), Compare.headAndTail(err, 2), "no file, no lines");
        Files.write(err, List.of("Exception in thread \"main\" java.lang.StackOverflowError", "\tat a", "\tat b"));
        assertEquals(3, Compare.headAndTail(err, 2).size(), "short enough to keep whole");
        Files.write(err, List.of("Exception in thread \"main\" java.lang.StackOverflowError", "\tat a", "\tat b", "\tat c",
                "\tat d", "\tat e"));
        assertEquals(List.of("Exception in thread \"main\" java.lang.StackOverflowError", "\tat a", "... (2 lines left out)",
                "\tat d", "\tat e"), Compare.headAndTail(err, 2));
    }

    @Test
    void rawFileRoundTripsTimesAndFailures(@TempDir Path dir) throws Exception {
        List<Compare.Row> rows = List.of(
                new Compare.Row("count", "weft", List.of(1.5, 2.25), true, null),
                new Compare.Row("count", "pekko", List.of(), false, "ValidationException: counter, was 3, expected 4"));
        Path raw = dir.resolve("r.raw");
        Compare.writeRaw(rows, raw);
        List<Compare.Row> back = Compare.readRaw(raw);
        assertEquals(2, back.size());
        assertEquals(List.of(1.5, 2.25), back.get(0).ms());
        assertTrue(back.get(0).validated());
        assertFalse(back.get(1).validated());
        assertEquals("ValidationException: counter, was 3, expected 4", back.get(1).error());
    }
}
