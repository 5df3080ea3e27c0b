package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Mailbox;
import io.weft.actors.MailboxFullException;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Bounded mailboxes under a flood: every message is handled, dropped to dead letters, or refused. */
class OverloadTest {

    private static final int CAPACITY = 16;
    private static final int FLOOD = 5_000;

    /** An actor that blocks in its first handler until released, then records what it handles. */
    private static final class Gated {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final List<Integer> handled = new ArrayList<>();
        final CountDownLatch done = new CountDownLatch(1);
        volatile int expectedLast = -1;

        ActorRef<Integer> spawn(ActorSystem system, Mailbox mailbox) {
            return system.spawn(Props.defaults().withMailbox(mailbox), self -> self.loop(() -> self.react(Receive.<Integer>handler()
                    .match(Integer.class, n -> {
                        if (n == 0) {
                            entered.countDown();
                            await(release);
                        }
                        handled.add(n);
                        if (n == expectedLast) {
                            done.countDown();
                        }
                    }).build())));
        }
    }

    static void await(CountDownLatch latch) {
        try {
            assertTrue(latch.await(60, TimeUnit.SECONDS), "timed out waiting");
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    @ParameterizedTest
    @EnumSource(value = Mailbox.Overflow.class, names = {"DROP_NEW", "DROP_OLD"})
    void droppingPoliciesCountEveryDropAsDeadLetter(Mailbox.Overflow overflow) {
        try (ActorSystem system = ActorSystem.builder().name("overload-" + overflow).parallelism(2).build()) {
            ConcurrentLinkedQueue<DeadLetter> dead = new ConcurrentLinkedQueue<>();
            system.deadLetters().subscribe(dead::add);
            Gated g = new Gated();
            ActorRef<Integer> ref = g.spawn(system, Mailbox.bounded(CAPACITY, overflow));
            ref.tell(0);
            await(g.entered);
            for (int i = 1; i <= FLOOD; i++) {
                ref.tell(i);
            }
            // exactly CAPACITY messages fit; the others were dropped while the sender ran
            assertEquals(FLOOD - CAPACITY, dead.size(), "dropped messages must all be dead letters");
            assertTrue(dead.stream().allMatch(d -> d.reason() == DeadLetter.Reason.MAILBOX_OVERFLOW && d.recipient().equals(ref)));
            assertEquals(FLOOD - CAPACITY, system.deadLetters().count(DeadLetter.Reason.MAILBOX_OVERFLOW));
            g.expectedLast = overflow == Mailbox.Overflow.DROP_NEW ? CAPACITY : FLOOD;
            g.release.countDown();
            await(g.done);
            List<Integer> expected = new ArrayList<>();
            expected.add(0);
            int from = overflow == Mailbox.Overflow.DROP_NEW ? 1 : FLOOD - CAPACITY + 1;
            for (int i = from; i < from + CAPACITY; i++) {
                expected.add(i);
            }
            // drop-new keeps the oldest, drop-old the newest; order is preserved either way
            assertEquals(expected, g.handled);
            long deadOnes = dead.stream().mapToInt(d -> (Integer) d.message()).filter(n -> !expected.contains(n)).count();
            assertEquals(FLOOD - CAPACITY, deadOnes, "no message both handled and dropped");
        }
    }

    @Test
    void failPolicyRefusesToTheSenderWithAClearMessage() {
        try (ActorSystem system = ActorSystem.builder().name("overload-fail").parallelism(2).build()) {
            Gated g = new Gated();
            ActorRef<Integer> ref = g.spawn(system, Mailbox.bounded(CAPACITY, Mailbox.Overflow.FAIL));
            ref.tell(0);
            await(g.entered);
            int refused = 0;
            for (int i = 1; i <= FLOOD; i++) {
                try {
                    ref.tell(i);
                } catch (MailboxFullException e) {
                    assertTrue(e.getMessage().contains("is full (capacity " + CAPACITY + ")") && e.getMessage().contains(ref.toString()),
                            e.getMessage());
                    refused++;
                }
            }
            assertEquals(FLOOD - CAPACITY, refused);
            g.expectedLast = CAPACITY;
            g.release.countDown();
            await(g.done);
            assertEquals(CAPACITY + 1, g.handled.size());
            assertEquals(0, system.deadLetters().count());
        }
    }

    @Test
    void blockPolicyBlocksAPlainThreadSenderAndLosesNothing() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("overload-block").parallelism(2).build()) {
            Gated g = new Gated();
            ActorRef<Integer> ref = g.spawn(system, Mailbox.bounded(CAPACITY, Mailbox.Overflow.BLOCK));
            ref.tell(0);
            await(g.entered);
            g.expectedLast = FLOOD;
            AtomicInteger sentSoFar = new AtomicInteger();
            Thread sender = Thread.ofPlatform().start(() -> {
                for (int i = 1; i <= FLOOD; i++) {
                    ref.tell(i);
                    sentSoFar.set(i);
                }
            });
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (sentSoFar.get() < CAPACITY && System.nanoTime() - deadline < 0) {
                Thread.onSpinWait();
            }
            // the gate is closed, so the sender cannot get past a full mailbox
            assertEquals(CAPACITY, sentSoFar.get());
            assertTrue(sender.isAlive(), "a BLOCK sender must wait while the mailbox is full");
            g.release.countDown();
            await(g.done);
            sender.join();
            assertEquals(FLOOD + 1, g.handled.size());
            assertEquals(0, system.deadLetters().count());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 3, 5, 17, 100, 129, 1000})
    void boundedMailboxesOfAnyCapacityWork(int capacity) throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("capacity-" + capacity).parallelism(1).build()) {
            for (Mailbox.Overflow overflow : Mailbox.Overflow.values()) {
                CountDownLatch got = new CountDownLatch(1);
                ActorRef<String> ref = system.spawn(Props.defaults().withMailbox(Mailbox.bounded(capacity, overflow)),
                        self -> self.react(Receive.<String>handler().match(String.class, s -> got.countDown()).build()));
                ref.tell("x");
                await(got);
            }
        }
    }

    @Test
    void blockPolicyRefusesToBlockAReactHandler() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("overload-block-react").parallelism(2).build()) {
            Gated g = new Gated();
            ActorRef<Integer> target = g.spawn(system, Mailbox.bounded(CAPACITY, Mailbox.Overflow.BLOCK));
            target.tell(0);
            await(g.entered);
            java.util.concurrent.CompletableFuture<Throwable> failure = new java.util.concurrent.CompletableFuture<>();
            system.lifecycle().subscribe(e -> {
                if (e.cause() != null) {
                    failure.complete(e.cause());
                }
            });
            ActorRef<String> flooder = system.spawn(self -> self.react(Receive.<String>handler().match(String.class, s -> {
                for (int i = 1; i <= FLOOD; i++) {
                    target.tell(i);
                }
            }).build()));
            flooder.tell("go");
            Throwable t = failure.get(60, TimeUnit.SECONDS);
            assertTrue(t instanceof IllegalStateException && t.getMessage().contains("policy is BLOCK")
                    && t.getMessage().contains("must not block"), String.valueOf(t));
            g.release.countDown();
        }
    }

    @Test
    void dropOldRejectsNothingFromManyConcurrentSenders() throws Exception {
        ActorSystem system = ActorSystem.builder().name("overload-dropold-mpsc").parallelism(2).build();
        {
            AtomicInteger handled = new AtomicInteger();
            AtomicInteger dead = new AtomicInteger();
            system.deadLetters().subscribe(d -> dead.incrementAndGet());
            int senders = 4;
            int each = 20_000;
            ActorRef<Integer> ref = system.spawn(Props.defaults().withMailbox(Mailbox.bounded(8, Mailbox.Overflow.DROP_OLD)),
                    self -> self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> handled.incrementAndGet()).build())));
            List<Thread> threads = new ArrayList<>();
            for (int s = 0; s < senders; s++) {
                threads.add(Thread.ofPlatform().start(() -> {
                    for (int i = 0; i < each; i++) {
                        ref.tell(i);
                    }
                }));
            }
            for (Thread t : threads) {
                t.join();
            }
            int total = senders * each;
            // close drains what is still queued to dead letters
            system.close();
            assertEquals(total, handled.get() + dead.get(), "sent = handled + dropped/closed");
        }
    }
}
