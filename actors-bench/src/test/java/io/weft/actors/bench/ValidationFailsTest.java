package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.workload.Scale;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A wrong result fails the run; the table, CSV and chart report it. */
class ValidationFailsTest {

    @Test
    void wrongResultIsReportedAndFailsTheRun(@TempDir Path dir) throws Exception {
        ByteArrayOutputStream progress = new ByteArrayOutputStream();
        List<Compare.Row> rows = Compare.run(List.of(new WrongAnswer()), List.of(Impl.WEFT), Scale.TINY, 0, 1,
                new PrintStream(progress, true, StandardCharsets.UTF_8));
        assertEquals(1, rows.size());
        assertFalse(rows.get(0).validated());
        assertTrue(progress.toString(StandardCharsets.UTF_8).contains("FAILED"));
        Path csv = dir.resolve("r.csv");
        Compare.writeCsv(rows, csv);
        assertTrue(Files.readString(csv).contains("wrong,weft,"));
        assertFalse(Compare.readCsv(csv).get(0).validated());
        Path svg = dir.resolve("r.svg");
        Chart.write(Compare.readCsv(csv), svg, "t");
        assertTrue(Files.readString(svg).contains("FAILED"));
    }

    @Test
    void rightResultValidatesAndChartHasABar(@TempDir Path dir) throws Exception {
        List<Compare.Row> rows = Compare.run(Compare.select(java.util.Set.of("pingpong")),
                List.of(Impl.WEFT, Impl.VTHREADS), Scale.TINY, 0, 1, new PrintStream(new ByteArrayOutputStream(), true,
                        StandardCharsets.UTF_8));
        assertEquals(2, rows.size());
        assertTrue(rows.stream().allMatch(Compare.Row::validated));
        Path svg = dir.resolve("c.svg");
        Chart.write(rows, svg, "t");
        String text = Files.readString(svg);
        assertTrue(text.startsWith("<svg") && text.contains("pingpong vthreads"));
    }
}
