package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorSystem;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Seed 000 §4.2 three ways: thread-based actors, react actors with a selector thread, plain threads. */
class PipesTest {

    @Test
    void theThreeVersionsOfThePipesExampleGiveTheSameOutput() throws Exception {
        List<String> plain;
        List<String> threadActors;
        List<String> reactActors;
        PipesExample.Pipes pipes = PipesExample.Pipes.open();
        try (ActorSystem system = ActorSystem.builder().name("pipes").parallelism(2).build()) {
            plain = PipesExample.plainThreads(pipes);
            threadActors = PipesExample.threadActors(system, pipes);
            reactActors = PipesExample.reactActors(system, pipes);
        } finally {
            pipes.close();
        }
        assertEquals(4, plain.size());
        // A wrote, A read, B read, B wrote
        assertEquals(plain.get(0).replace("A wrote", "B read"), plain.get(2), "A's bytes arrived intact at B");
        assertEquals(plain.get(1).replace("A read", "B wrote"), plain.get(3), "B's bytes arrived intact at A");
        assertEquals(plain, threadActors);
        assertEquals(plain, reactActors);
    }
}
