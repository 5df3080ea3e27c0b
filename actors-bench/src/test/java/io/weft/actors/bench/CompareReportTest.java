package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** compare's summary (ratios and geometric means), its default output files, and the chart's axis. */
class CompareReportTest {

    private static final List<Compare.Row> ROWS = List.of(
            new Compare.Row("a", "weft", List.of(10.0), true, null),
            new Compare.Row("a", "pekko", List.of(20.0), true, null),
            new Compare.Row("a", "threads", List.of(2500.0), true, null),
            new Compare.Row("b", "weft", List.of(10.0), true, null),
            new Compare.Row("b", "pekko", List.of(80.0), true, null),
            new Compare.Row("b", "loop", List.of(0.5), true, null),
            new Compare.Row("c", "weft", List.of(10.0), true, null),
            new Compare.Row("c", "pekko", List.of(), false, "ValidationException: wrong"));

    @Test
    void ratiosAndGeometricMeanLeaveOutFailedRuns() {
        Map<String, Map<String, Double>> r = Compare.ratios(ROWS);
        assertEquals(List.of("pekko", "threads", "loop"), List.copyOf(r.keySet()), "in the order of Impl");
        assertEquals(Map.of("a", 2.0, "b", 8.0), r.get("pekko"), "c failed on pekko, so it has no ratio");
        assertEquals(4.0, Compare.geomean(r.get("pekko")), 1e-12);
        assertEquals(250.0, Compare.geomean(r.get("threads")), 1e-9);
        assertTrue(Double.isNaN(Compare.geomean(Map.of())));
    }

    @Test
    void summaryShowsEachPeerAndTheGeometricMean() {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Compare.printSummary(ROWS, new PrintStream(bytes, true, StandardCharsets.UTF_8));
        String s = bytes.toString(StandardCharsets.UTF_8);
        assertTrue(s.contains("geometric mean"), s);
        assertTrue(Pattern.compile("geometric mean\\s+4\\.00x\\s+250x\\s+0\\.05x").matcher(s).find(), s);
        assertTrue(s.contains("Weft react vs pekko: faster on 2 of 2 workloads"), s);
        assertTrue(s.contains("loop is faster"), s);
    }

    @Test
    void compareWritesTableCsvAndChartToTheOutDirectory(@TempDir Path dir) throws Exception {
        int status = Compare.run(new String[] {"--quick", "--only", "pingpong", "--impl", "weft,loop", "--runs", "1",
            "--warmup", "0", "--out", dir.toString()});
        assertEquals(0, status);
        for (String f : List.of("quick.txt", "quick.csv", "quick.svg")) {
            assertTrue(Files.size(dir.resolve(f)) > 0, f);
        }
        assertTrue(Files.readString(dir.resolve("quick.txt")).contains("geometric mean"));
        assertTrue(Files.readString(dir.resolve("quick.svg")).contains(">loop</text>"));
    }

    @Test
    void baseSetsTheImplementationTheRatiosAreTakenAgainst(@TempDir Path dir) throws Exception {
        int status = Compare.run(new String[] {"--quick", "--only", "pingpong", "--impl", "weft-thread,fibry,vthreads",
            "--runs", "1", "--warmup", "0", "--base", "weft-thread", "--out", dir.toString()});
        assertEquals(0, status);
        String s = Files.readString(dir.resolve("quick.txt"));
        assertTrue(s.contains("median time / weft-thread's"), s);
        assertTrue(s.contains("weft-thread vs fibry: faster on"), s);
        assertTrue(s.contains("weft-thread vs vthreads: faster on"), s);
        assertTrue(Compare.ratios(ROWS).containsKey("pekko"), "after the run, ratios are against Weft react again");
    }

    @Test
    void withoutOutTheFilesGoToTargetCompare() throws Exception {
        Path csv = Path.of(Compare.DEFAULT_OUT, "quick.csv");
        FileTime before = FileTime.from(Instant.now().minusSeconds(1));
        int status = Compare.run(new String[] {"--quick", "--only", "pingpong", "--impl", "weft", "--runs", "1",
            "--warmup", "0"});
        assertEquals(0, status);
        assertTrue(Files.getLastModifiedTime(csv).compareTo(before) > 0, "fresh " + csv);
        assertTrue(Files.exists(Path.of(Compare.DEFAULT_OUT, "quick.svg")));
    }

    @Test
    void chartAxisCoversEveryRatioAndTheLegendEveryImplementation() {
        String svg = Chart.svg(ROWS, "t");
        for (String impl : List.of("weft", "pekko", "threads", "loop")) {
            assertTrue(svg.contains(">" + impl + "</text>"), impl);
        }
        assertTrue(svg.contains(">0.01x</text>"), "axis down to the loop's 0.05x");
        assertTrue(svg.contains(">1,000x</text>"), "axis up to threads' 250x");
        assertTrue(svg.contains("from 0.01x to 1,000x"), "the note states the axis");
        assertFalse(svg.contains("0.1x;"), "no stale axis note");
        Matcher m = Pattern.compile("<rect x=\"140\" y=\"\\d+\" width=\"([0-9.]+)\" height=\"11\"").matcher(svg);
        int bars = 0;
        while (m.find()) {
            bars++;
            assertTrue(Double.parseDouble(m.group(1)) <= 640.0, "bar inside the plot: " + m.group(1));
        }
        assertEquals(7, bars, "one bar per validated row");
    }
}
