package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Bounded mailboxes of any capacity can be created (small ones used to fail in the queue's constructor). */
class SmallBoundedMailboxTest {

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 4, 5, 10, 16, 64, 65, 100})
    void boundedMailboxHoldsExactlyItsCapacity(int capacity) throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("small-" + capacity).parallelism(1).build()) {
            CountDownLatch release = new CountDownLatch(1);
            ActorRef<Integer> held = system.spawn(Props.named("held").withMailbox(Mailbox.bounded(capacity, Mailbox.Overflow.DROP_NEW)), self -> {
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> { }).build()));
            });
            for (int i = 0; i < capacity + 1; i++) {
                held.tell(i);
            }
            assertEquals(capacity, system.metrics().mailboxDepth(held));
            assertEquals(1, system.metrics().messagesDropped());
            release.countDown();
        }
    }
}
