package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class SmokeTest {

    @Test
    void becomeKeepsHandlerAndReexaminesSavedMessagesWhenGuardsChange() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("become").parallelism(2).build()) {
            // a one-slot buffer: put is disabled while full, get while empty (guards on state)
            record Put(int value) { }
            record Get() { }
            ActorRef<Object> buffer = system.spawn("buffer", self -> {
                Integer[] slot = {null};
                self.become(Receive.<Object>handler()
                        .match(Put.class, p -> slot[0] == null, p -> {
                            slot[0] = p.value();
                            self.reply("ok");
                        })
                        .match(Get.class, g -> slot[0] != null, g -> {
                            self.reply(slot[0]);
                            slot[0] = null;
                        })
                        .build());
            });
            Duration t = Duration.ofSeconds(30);
            var got1 = system.<Object, Object>ask(buffer, new Get(), t); // waits: buffer empty
            var put1 = system.<Object, Object>ask(buffer, new Put(1), t);
            var put2 = system.<Object, Object>ask(buffer, new Put(2), t); // waits: buffer full
            var got2 = system.<Object, Object>ask(buffer, new Get(), t);
            assertEquals(1, got1.get(30, TimeUnit.SECONDS));
            assertEquals("ok", put1.get(30, TimeUnit.SECONDS));
            assertEquals("ok", put2.get(30, TimeUnit.SECONDS));
            assertEquals(2, got2.get(30, TimeUnit.SECONDS));
        }
    }

    @Test
    void pingPongAndAsk() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("smoke").parallelism(2).build()) {
            AtomicInteger count = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            ActorRef<Integer> counter = system.spawn("counter", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, n -> n >= 0, n -> {
                        if (count.incrementAndGet() == 100_000) {
                            done.countDown();
                        }
                    })
                    .match(Integer.class, n -> self.reply(count.get()))
                    .build())));
            for (int i = 0; i < 100_000; i++) {
                counter.tell(i);
            }
            done.await(30, TimeUnit.SECONDS);
            Integer answer = system.<Integer, Integer>ask(counter, -1, Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS);
            assertEquals(100_000, answer);
        }
    }
}
