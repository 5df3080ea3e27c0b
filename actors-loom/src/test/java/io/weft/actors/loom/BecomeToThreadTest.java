package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A persistent handler ({@code become}) that calls {@code switchToThread}: the runtime keeps a
 * become handler installed while it runs, so it must notice that this one gave up its place, and
 * the following messages go to the actor's thread, not to the handler.
 */
class BecomeToThreadTest {

    @Test
    void switchToThreadInsideABecomeHandlerHandsTheNextMessagesToTheThread() throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        try (ActorSystem system = ActorSystem.builder().name("become-to-thread").parallelism(2).build()) {
            ActorRef<String> a = system.spawn(self -> self.become(Receive.<String>handler().match(String.class, m -> {
                seen.add("event " + m);
                if (m.equals("thread")) {
                    self.switchToThread(() -> {
                        String next;
                        do {
                            next = self.receive(Receive.<String, String>returning().match(String.class, n -> n).build());
                            seen.add("thread " + next);
                        } while (!next.equals("last"));
                        done.complete(null);
                    });
                }
            }).build()));
            for (String m : List.of("a", "thread", "b", "last")) {
                a.tell(m);
            }
            done.get(60, TimeUnit.SECONDS);
        }
        assertEquals(List.of("event a", "event thread", "thread b", "thread last"), seen);
    }
}
