package io.weft.actors.bench.kit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The pool size of the pool-based kits follows {@link Kit#PARALLELISM_PROPERTY}. */
class KitParallelismTest {

    @AfterEach
    void clearProperty() {
        System.clearProperty(Kit.PARALLELISM_PROPERTY);
    }

    @Test
    void defaultsToTheAvailableProcessors() {
        System.clearProperty(Kit.PARALLELISM_PROPERTY);
        assertEquals(Runtime.getRuntime().availableProcessors(), Kit.parallelism());
    }

    @Test
    void takesThePropertyAndRejectsWhatIsNotAPositiveInteger() {
        System.setProperty(Kit.PARALLELISM_PROPERTY, " 3 ");
        assertEquals(3, Kit.parallelism());
        for (String bad : new String[] {"0", "-2", "two", ""}) {
            System.setProperty(Kit.PARALLELISM_PROPERTY, bad);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, Kit::parallelism, bad);
            assertTrue(e.getMessage().contains(Kit.PARALLELISM_PROPERTY), e.getMessage());
        }
    }

    @Test
    void theForkJoinKitsPoolHasThatSizeAndEveryKitStillRuns() throws Exception {
        System.setProperty(Kit.PARALLELISM_PROPERTY, "1");
        try (FjKit fj = new FjKit()) {
            assertEquals(1, fj.pool().getParallelism());
        }
        for (Impl impl : new Impl[] {Impl.WEFT, Impl.PEKKO}) {
            try (Kit kit = impl.create()) {
                CompletableFuture<Object> got = new CompletableFuture<>();
                kit.spawn((m, c) -> got.complete(m)).tell("ping");
                assertEquals("ping", got.get(60, TimeUnit.SECONDS), impl.cliName());
            }
        }
    }
}
