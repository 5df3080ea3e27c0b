package io.weft.actors.bench.scheduling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.bench.WrongAnswer;
import io.weft.actors.bench.workload.Scale;
import io.weft.actors.bench.workload.Workload;
import io.weft.actors.bench.workload.Workloads;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The scheduling bench's loop at the tiny size, one rep, no warm-up: every variant is a row, every
 * workload a column, and a wrong result fails the run (no timing is checked).
 */
class SchedulingBenchTest {

    /** A stream the bench prints to, and what it printed. */
    private static final class Capture {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final PrintStream stream = new PrintStream(bytes, true, StandardCharsets.UTF_8);

        String text() {
            return bytes.toString(StandardCharsets.UTF_8);
        }

        /** The table's body: its lines starting with "| ", without the header. */
        List<String> rows() {
            List<String> lines = text().lines().filter(l -> l.startsWith("| ")).toList();
            return lines.subList(1, lines.size());
        }
    }

    @Test
    @Timeout(120)
    void everyVariantRunsTheKitWorkloadsAndIsARow() {
        List<Workload> workloads = SchedulingBench.OPTIMIZATION_WORKLOADS.stream().map(Workloads::named).toList();
        List<SchedulingBench.Variant> variants = SchedulingBench.optimizationVariants();
        Capture progress = new Capture();
        SchedulingBench.Results r = SchedulingBench.measure(workloads, variants, Scale.TINY, 0, 1, progress.stream);
        assertTrue(r.validated(), () -> String.join("\n", r.failures()));

        Capture out = new Capture();
        SchedulingBench.print(r, Scale.TINY, "t", "variant", "defaults", out.stream);
        List<String> rows = out.rows();
        assertEquals(variants.stream().map(SchedulingBench.Variant::name).toList(),
                rows.stream().map(l -> l.substring(2, l.indexOf(" |")).trim()).toList());
        assertTrue(variants.stream().anyMatch(v -> v.name().equals("fair") && v.config().fair()));
        assertTrue(variants.stream().anyMatch(v -> v.name().equals("watchdog=off")));
        for (Workload w : workloads) {
            assertTrue(out.text().lines().anyMatch(l -> l.startsWith("| variant") && l.contains(" " + w.name() + " ")),
                    w.name() + " is a column");
        }
        for (String row : rows) {
            assertEquals(workloads.size(), row.split("\\(").length - 1, "a (ratio) per workload: " + row);
        }
        assertEquals(workloads.size(), rows.get(0).split("\\(1\\.00\\)").length - 1, rows.get(0));
        assertFalse(out.text().contains("FAILED"));
    }

    @Test
    @Timeout(60)
    void aWrongResultIsShownAsFailedAndNotRepeated() {
        List<SchedulingBench.Variant> variants = Stream.of("defaults", "fair")
                .flatMap(n -> SchedulingBench.optimizationVariants().stream().filter(v -> v.name().equals(n)))
                .toList();
        Capture progress = new Capture();
        SchedulingBench.Results r = SchedulingBench.measure(List.of(new WrongAnswer(), Workloads.named("pingpong")),
                variants, Scale.TINY, 0, 2, progress.stream);
        assertFalse(r.validated());
        assertEquals(2, r.failures().size(), () -> String.join("\n", r.failures()));
        assertEquals(2, progress.text().lines().filter(l -> l.contains("FAILED wrong")).count(), progress.text());

        Capture out = new Capture();
        SchedulingBench.print(r, Scale.TINY, "t", "variant", "defaults", out.stream);
        for (String row : out.rows()) {
            String[] cells = row.split("\\|");
            assertEquals("FAILED", cells[2].trim(), row);
            assertFalse(cells[3].contains("FAILED"), "pingpong validated: " + row);
        }
    }

    @Test
    @Timeout(60)
    void commandLineRunsTheBatchCurveAndRejectsBadOptions() {
        Capture out = new Capture();
        int status = SchedulingBench.run(new String[] {"--reps", "1", "--warmup", "0", "--scale", "tiny", "--only", "batch,count"},
                out.stream, new Capture().stream);
        assertEquals(0, status, out.text());
        assertFalse(out.text().contains("optimizations"));
        assertEquals(SchedulingBench.BATCH_SIZES.length, out.rows().size(), out.text());
        assertTrue(out.text().lines().anyMatch(l -> l.startsWith("| batchSize") && l.contains(" count ")));

        assertThrows(IllegalArgumentException.class, () -> SchedulingBench.run(new String[] {"--only", "nosuch"}));
        assertThrows(IllegalArgumentException.class, () -> SchedulingBench.run(new String[] {"--scale", "0.05"}));
    }
}
