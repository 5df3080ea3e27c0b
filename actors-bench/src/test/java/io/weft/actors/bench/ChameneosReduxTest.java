package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.workload.Chameneos;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Chameneos-redux for N=600 prints the Benchmarks Game's expected output. How the 1,200 meetings of
 * a game split between the creatures depends on scheduling (as in every implementation of the
 * game), so those numbers are replaced by {@code #} and checked separately: they must add up to
 * 1,200 (the spelled total) and no creature may meet itself ("zero").
 */
class ChameneosReduxTest {

    private static final String EXPECTED = """
            blue + blue -> blue
            blue + red -> yellow
            blue + yellow -> red
            red + blue -> yellow
            red + red -> red
            red + yellow -> blue
            yellow + blue -> red
            yellow + red -> blue
            yellow + yellow -> yellow

             blue red yellow
            # zero
            # zero
            # zero
             one two zero zero

             blue red yellow red yellow blue red yellow red blue
            # zero
            # zero
            # zero
            # zero
            # zero
            # zero
            # zero
            # zero
            # zero
            # zero
             one two zero zero
            """;

    private static final Pattern CREATURE = Pattern.compile("(?m)^(\\d+)( .*)$");

    @ParameterizedTest
    @EnumSource(value = Impl.class, names = {"WEFT", "WEFT_FAIR", "WEFT_THREAD", "PEKKO", "THREADS", "VTHREADS"})
    void n600MatchesTheBenchmarksGameOutput(Impl impl) throws Exception {
        String out;
        try (Kit kit = impl.create()) {
            out = Chameneos.reduxOutput(kit, 600);
        }
        assertEquals(EXPECTED, CREATURE.matcher(out).replaceAll("#$2"));
        List<String> games = List.of(out.split("\n\n"));
        assertEquals(3, games.size());
        for (String game : games.subList(1, 3)) {
            Matcher m = CREATURE.matcher(game);
            int sum = 0;
            while (m.find()) {
                sum += Integer.parseInt(m.group(1));
            }
            assertEquals(1200, sum, game);
        }
        assertTrue(out.endsWith(" one two zero zero\n"));
    }

    @org.junit.jupiter.api.Test
    void spellsDigitByDigit() {
        assertEquals(" one two zero zero", Chameneos.spell(1200));
        assertEquals(" zero", Chameneos.spell(0));
    }
}
