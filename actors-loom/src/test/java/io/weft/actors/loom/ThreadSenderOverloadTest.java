package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** A thread-based (virtual-thread) sender may block on a full BLOCK mailbox; nothing is lost. */
class ThreadSenderOverloadTest {

    @Test
    void virtualThreadActorBlocksOnAFullMailboxAndEverythingArrives() throws Exception {
        int flood = 10_000;
        try (ActorSystem system = ActorSystem.builder().name("loom-block").parallelism(2).build()) {
            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch all = new CountDownLatch(flood + 1);
            AtomicInteger last = new AtomicInteger(-1);
            AtomicInteger outOfOrder = new AtomicInteger();
            ActorRef<Integer> slow = system.spawn(Props.defaults().withMailbox(Mailbox.bounded(8, Mailbox.Overflow.BLOCK)),
                    self -> self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> {
                        if (n == 0) {
                            entered.countDown();
                            try {
                                release.await(60, TimeUnit.SECONDS);
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        }
                        if (last.getAndSet(n) >= n) {
                            outOfOrder.incrementAndGet();
                        }
                        all.countDown();
                    }).build())));
            AtomicInteger progress = new AtomicInteger();
            system.spawnThread("flooder", self -> {
                for (int i = 0; i <= flood; i++) {
                    slow.tell(i);
                    progress.set(i);
                }
            });
            assertTrue(entered.await(60, TimeUnit.SECONDS));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (progress.get() < 8 && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            assertTrue(progress.get() <= 9, "the thread-based sender must block while the mailbox is full: " + progress.get());
            release.countDown();
            assertTrue(all.await(60, TimeUnit.SECONDS), "every message arrives");
            assertEquals(0, outOfOrder.get());
            assertEquals(0, system.deadLetters().count());
        }
    }
}
