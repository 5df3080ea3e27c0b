package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Runs the Weft program of docs/coming-from-pekko.md and checks the page shows it. */
class ComingFromPekkoTest {

    @Test
    void theWeftCounterRunsAndIsThePageProgram() throws Exception {
        long result;
        // tag::weft-counter[]
        try (ActorSystem system = ActorSystem.create("demo")) {
            ActorRef<Object> counter = system.spawn("counter", self -> {
                long[] total = {0};
                self.loop(() -> self.react(Receive.<Object>handler()
                        .match(Integer.class, n -> total[0] += n)
                        .match(String.class, "total?"::equals, q -> self.reply(total[0]))
                        .build()));
            });
            counter.tell(40);
            counter.tell(2);
            long total = system.<Object, Long>ask(counter, "total?", Duration.ofSeconds(5)).join();
            // end::weft-counter[]
            result = total;
            // tag::weft-counter[]
        }
        // end::weft-counter[]
        assertEquals(42, result);
        String snippet = GuideMatchesSnippetsTest.snippets(Files.readAllLines(
                Path.of("src/test/java/io/weft/actors/testkit/ComingFromPekkoTest.java"))).get("weft-counter");
        String page = Files.readString(Path.of("../docs/coming-from-pekko.md"));
        assertEquals(true, page.contains("**Weft**\n\n```text\n" + snippet + "```"), "the page's Weft program must equal this test's");
    }
}
