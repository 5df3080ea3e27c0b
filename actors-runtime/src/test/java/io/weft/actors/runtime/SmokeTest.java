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
