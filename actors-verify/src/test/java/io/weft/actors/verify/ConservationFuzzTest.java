package io.weft.actors.verify;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link ConservationFuzz} seeds: {@code -Dweft.fuzz.seeds=N} (default 500) from
 * {@code -Dweft.fuzz.first=S} (default 1), or exactly one seed with {@code -Dweft.fuzz.seed=S}.
 */
class ConservationFuzzTest {

    @Test
    void messagesAreConservedUnderFaults() {
        String one = System.getProperty("weft.fuzz.seed");
        long first = one != null ? Long.parseLong(one) : Long.getLong("weft.fuzz.first", 1);
        int count = one != null ? 1 : Integer.getInteger("weft.fuzz.seeds", 500);
        List<String> failures = new ArrayList<>();
        long sent = 0;
        for (long seed = first; seed < first + count; seed++) {
            ConservationFuzz.Result r = ConservationFuzz.run(seed);
            sent += r.sent();
            if (!r.ok()) {
                System.out.println("FAILED " + r + "\n  replay: ./mvnw -B -o verify -pl actors-verify -am -Dtest=ConservationFuzzTest"
                        + " -Dsurefire.failIfNoSpecifiedTests=false -Dweft.fuzz.seed=" + seed);
                failures.add(r.toString());
            }
        }
        System.out.println("conservation fuzz: " + count + " seeds from " + first + ", " + sent + " messages, " + failures.size() + " failed");
        assertTrue(failures.isEmpty(), () -> failures.size() + " seeds failed:\n" + String.join("\n", failures));
    }
}
