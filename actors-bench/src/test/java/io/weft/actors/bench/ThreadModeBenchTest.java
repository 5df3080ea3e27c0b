package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.bench.loom.ThreadModeBench;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** {@code thread-mode} runs its four cases at a tiny size and prints every row, the cold first round apart. */
class ThreadModeBenchTest {

    @Test
    void printsSelectiveReceiveAndModeSwitchRows() throws Exception {
        PrintStream saved = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            ThreadModeBench.main(new String[] {"--n", "200", "--kept", "10", "--runs", "1", "--warmup", "0"});
        } finally {
            System.setOut(saved);
        }
        String s = bytes.toString(StandardCharsets.UTF_8);
        for (String row : new String[] {"receive, skipping none", "receive, skipping 10 kept", "ratio", "keeping one message",
            "keeping and skipping 10", "with the keeping), steady state", "with the keeping), cold round",
            "receive only (thread mode)", "one switch each", "cost per switch"}) {
            assertTrue(s.contains(row), row + " in\n" + s);
        }
    }
}
