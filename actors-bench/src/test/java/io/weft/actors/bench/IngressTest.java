package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The ingress benchmark runs every part at a tiny size and reports every variant beside Pekko. */
class IngressTest {

    @Test
    void everyPartReportsEveryVariant() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Ingress.main(new String[] {"-n", "20000", "-r", "2", "-w", "1", "-k", "10", "-h", "5"});
        } finally {
            System.setOut(out);
        }
        String report = captured.toString(StandardCharsets.UTF_8);
        for (String part : new String[] {"one producer thread", "2 producer threads", "4 producer threads",
                "8 producer threads", "10 actors round-robin", "idle actor"}) {
            assertTrue(report.contains(part), part + " missing from:\n" + report);
        }
        for (String variant : new String[] {"weft loop/react ", "weft loop/react, one handler", "weft become",
                "weft Actor", "weft loop/react, BLOCK mailbox", "weft become, BLOCK mailbox",
                "weft p50", "weft p99", "pekko p50", "pekko p99", "floor threads+mpsc linked ",
                "floor threads+mpsc linked, 2 consumers", "floor threads+mpsc array, 2 consumers"}) {
            assertTrue(report.contains(variant), variant + " missing from:\n" + report);
        }
        // one ratio per Weft row: 4 styles and 2 BLOCK-mailbox rows in the first part, 2 in each of the
        // other four, 2 for the hop
        assertEquals(6 + 4 * 2 + 2, report.split("weft/pekko", -1).length - 1, report);
        // one floor row in the first part and in each of the three producer-count parts, 2 in the fan-out
        assertEquals(1 + 3 + 2, report.split("floor/pekko", -1).length - 1, report);
    }

    @Test
    void oneStyleRunsAlone() throws Exception {
        PrintStream out = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Ingress.main(new String[] {"--only", "one", "--style", "become", "-n", "20000", "-r", "2", "-w", "1"});
        } finally {
            System.setOut(out);
        }
        String report = captured.toString(StandardCharsets.UTF_8);
        assertTrue(report.contains("weft become"), report);
        for (String other : new String[] {"loop/react", "weft Actor", "  pekko", "producer threads", "floor"}) {
            assertFalse(report.contains(other), other + " ran with --style become:\n" + report);
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Ingress.main(new String[] {"--only", "one", "--style", "fast", "-n", "10"}));
        assertTrue(e.getMessage().contains("fast") && e.getMessage().contains("loop-one-handler"), e.getMessage());
    }

    @Test
    void anUnknownOptionIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Ingress.main(new String[] {"--fast"}));
        assertTrue(e.getMessage().contains("--fast") && e.getMessage().contains("-n N"), e.getMessage());
    }

    @Test
    void quantilesOfHops() {
        long[] v = {5, 1, 4, 2, 3, 9, 8, 7, 6, 10};
        assertEquals(6, Ingress.quantile(v, 0.5));
        assertEquals(10, Ingress.quantile(v, 0.99));
        assertEquals(1, Ingress.quantile(v, 0.0));
    }
}
