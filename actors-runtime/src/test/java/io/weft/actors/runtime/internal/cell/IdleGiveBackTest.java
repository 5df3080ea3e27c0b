package io.weft.actors.runtime.internal.cell;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.Receive;
import io.weft.actors.runtime.internal.mailbox.AdaptiveQueue;
import io.weft.actors.runtime.testing.Conditions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * An actor whose mailbox a backlog switched to the chunked form gives that form back at its idle
 * transition (CellCore's mailboxIdle, AdaptiveQueue.idle), so an actor idle after a burst keeps
 * the small linked form; messages sent afterwards from two threads all arrive, each thread's in
 * order. An opened channel's queue, made like the mailbox, gives its chunked form back too.
 */
class IdleGiveBackTest {

    /** Messages queued behind the held first message: more than AdaptiveQueue's backlog of 256. */
    private static final int BURST = 600;

    private static final int AFTER = 5_000;

    @Test
    void anActorIdleAfterABurstIsBackInTheLinkedFormAndReceivesEverythingInOrder() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch burstHandled = new CountDownLatch(BURST);
        CountDownLatch afterHandled = new CountDownLatch(2 * AFTER);
        List<Integer> fromA = new ArrayList<>();
        List<Integer> fromB = new ArrayList<>();
        Receive<Object, Void> receive = Receive.<Object>handler()
                .match(String.class, s -> holdTurn(holding, release))
                .match(Integer.class, i -> {
                    if (i < 0) {
                        burstHandled.countDown();
                    } else {
                        (i < 1_000_000 ? fromA : fromB).add(i % 1_000_000);
                        afterHandled.countDown();
                    }
                })
                .build();
        Behavior<Object> behavior = self -> self.become(receive);
        try (ActorSystem system = ActorSystem.builder().name("idle-give-back").build()) {
            ActorRef<Object> ref = system.spawn(behavior);
            Cell<?> cell = ((LocalRef<?>) ref).cell();
            // run with -Dweft.mailbox=linked (by hand: the pom's linked-mailbox execution does not
            // include this class) the queue has one form only
            assumeTrue(cell.mailbox instanceof AdaptiveQueue, "the adaptive mailbox (the default)");
            AdaptiveQueue queue = (AdaptiveQueue) cell.mailbox;
            ref.tell("hold");
            assertTrue(holding.await(60, TimeUnit.SECONDS), "the actor did not start");
            for (int i = 0; i < BURST; i++) {
                ref.tell(-1 - i);
            }
            assertTrue(queue.isChunked(), "a backlog of " + BURST + " switches the mailbox to the chunked form");
            release.countDown();
            assertTrue(burstHandled.await(60, TimeUnit.SECONDS), "the burst was not handled");
            Conditions.await(Conditions.LONG, () -> !cell.isActive(), "the actor idle after the burst");
            assertFalse(queue.isChunked(), "an actor idle after a burst keeps the chunked form");
            assertTrue(queue.isEmpty());

            Thread a = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < AFTER; i++) {
                    ref.tell(i);
                }
            });
            Thread b = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < AFTER; i++) {
                    ref.tell(1_000_000 + i);
                }
            });
            a.join(TimeUnit.SECONDS.toMillis(60));
            b.join(TimeUnit.SECONDS.toMillis(60));
            assertTrue(afterHandled.await(60, TimeUnit.SECONDS), "messages after the give-back were lost");
            // the handler's lists are read after the latch, which orders the actor's writes before
            for (int i = 0; i < AFTER; i++) {
                assertEquals(i, fromA.get(i), "sender A's order");
                assertEquals(i, fromB.get(i), "sender B's order");
            }
            Conditions.await(Conditions.LONG, () -> !cell.isActive(), "the actor idle after the senders");
            assertFalse(queue.isChunked(), "idle again after two senders: the chunked form given back");
        }
    }

    @Test
    void anOpenedChannelIdleAfterABurstIsBackInTheLinkedForm() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch burstHandled = new CountDownLatch(BURST);
        CompletableFuture<Channel<Integer>> opened = new CompletableFuture<>();
        try (ActorSystem system = ActorSystem.builder().name("idle-give-back-channel").build()) {
            ActorRef<Object> ref = system.spawn((ActorContext<Object> self) -> {
                Channel<Integer> ints = self.open(Integer.class);
                self.become(Receive.<Object>handler()
                        .match(String.class, s -> holdTurn(holding, release))
                        .on(ints, Integer.class, i -> burstHandled.countDown())
                        .build());
                opened.complete(ints);
            });
            Channel<Integer> ints = opened.get(60, TimeUnit.SECONDS);
            Cell<?> cell = ((LocalRef<?>) ref).cell();
            ChannelQueue<?> channel = (ChannelQueue<?>) ints;
            assumeTrue(channel.queue instanceof AdaptiveQueue, "the adaptive mailbox (the default)");
            AdaptiveQueue queue = (AdaptiveQueue) channel.queue;
            ref.tell("hold");
            assertTrue(holding.await(60, TimeUnit.SECONDS), "the actor did not start");
            for (int i = 0; i < BURST; i++) {
                ints.tell(i);
            }
            assertTrue(queue.isChunked(), "a backlog of " + BURST + " switches the channel's queue to the chunked form");
            release.countDown();
            assertTrue(burstHandled.await(60, TimeUnit.SECONDS), "the burst was not handled");
            Conditions.await(Conditions.LONG, () -> !cell.isActive(), "the actor idle after the burst");
            assertFalse(queue.isChunked(), "an actor idle after a burst on a channel keeps the channel's chunked form");
            assertTrue(queue.isEmpty());
        }
    }

    /**
     * A handler's body that holds the actor's turn until the test releases it, so that a burst
     * queues up behind it (a bounded wait).
     */
    private static void holdTurn(CountDownLatch holding, CountDownLatch release) {
        holding.countDown();
        try {
            assertTrue(release.await(60, TimeUnit.SECONDS), "the test did not release the actor");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
