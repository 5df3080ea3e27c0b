package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorSystem;
import io.weft.actors.Channel;
import io.weft.actors.DeadLetter;
import io.weft.actors.Mailbox;
import io.weft.actors.MailboxFullException;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The bound of a bounded mailbox is exact under concurrent senders: with the actor held inside a
 * handler, several platform threads started together flood it, and it never holds more than its
 * capacity per channel (main channel and opened channels), for DROP_NEW, FAIL and BLOCK.
 */
class BoundedMailboxRaceTest {

    private static final int SENDERS = 6;
    private static final int MAX_ROUNDS = 500;
    private static final long BUDGET_NANOS = TimeUnit.SECONDS.toNanos(12);

    static Stream<Arguments> refusingCases() {
        List<Arguments> cases = new ArrayList<>();
        for (int capacity : new int[] {1, 2}) {
            for (Mailbox.Overflow overflow : new Mailbox.Overflow[] {Mailbox.Overflow.DROP_NEW, Mailbox.Overflow.FAIL}) {
                for (boolean onChannel : new boolean[] {false, true}) {
                    cases.add(Arguments.of(capacity, overflow, onChannel));
                }
            }
        }
        return cases.stream();
    }

    static Stream<Arguments> blockingCases() {
        return Stream.of(Arguments.of(1, false), Arguments.of(2, false), Arguments.of(1, true), Arguments.of(2, true));
    }

    /** One actor of a round: held in its first handler until released; counts what it handles. */
    private static final class Held {
        final CountDownLatch entered = new CountDownLatch(1);
        final CountDownLatch release = new CountDownLatch(1);
        final AtomicInteger handled = new AtomicInteger();
        final AtomicInteger maxDepthInHandler = new AtomicInteger();
        final CompletableFuture<Channel<Integer>> target = new CompletableFuture<>();

        Held(ActorSystem system, Mailbox mailbox, boolean onChannel) {
            system.spawn(Props.defaults().withMailbox(mailbox), (ActorContext<Object> self) -> {
                Channel<Integer> channel = onChannel ? self.open(Integer.class) : null;
                Receive.HandlerBuilder<Object> h = Receive.<Object>handler()
                        .match(String.class, gate -> {
                            entered.countDown();
                            await(release);
                        });
                if (channel != null) {
                    h = h.on(channel, Integer.class, n -> count(system, self));
                } else {
                    h = h.match(Integer.class, n -> count(system, self));
                }
                Receive<Object, Void> handler = h.build();
                self.loop(() -> self.react(handler));
                @SuppressWarnings("unchecked")
                Channel<Integer> main = (Channel<Integer>) (Channel<?>) self.self();
                target.complete(channel != null ? channel : main);
                self.self().tell("gate");
            });
        }

        private void count(ActorSystem system, ActorContext<Object> self) {
            handled.incrementAndGet();
            maxDepthInHandler.accumulateAndGet(system.metrics().mailboxDepth(self.self()), Math::max);
        }
    }

    @ParameterizedTest(name = "capacity {0}, {1}, opened channel {2}")
    @MethodSource("refusingCases")
    void neverHoldsMoreThanItsCapacityUnderConcurrentSenders(int capacity, Mailbox.Overflow overflow, boolean onChannel)
            throws Exception {
        int each = 200;
        try (ActorSystem system = ActorSystem.builder().name("bound-" + capacity + "-" + overflow).parallelism(2).build()) {
            long deadline = System.nanoTime() + BUDGET_NANOS;
            for (int round = 0; round < MAX_ROUNDS && System.nanoTime() - deadline < 0; round++) {
                Held held = new Held(system, Mailbox.bounded(capacity, overflow), onChannel);
                try {
                    runRound(system, held, round, capacity, overflow, onChannel, each);
                } finally {
                    held.release.countDown(); // also when an assertion failed: close() then does not wait for the handler
                }
            }
        }
    }

    private static void runRound(ActorSystem system, Held held, int round, int capacity, Mailbox.Overflow overflow,
            boolean onChannel, int each) {
        Channel<Integer> target = await(held.target);
        await(held.entered);
        long droppedBefore = system.deadLetters().count(DeadLetter.Reason.MAILBOX_OVERFLOW);
        AtomicInteger refused = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            senders.add(Thread.ofPlatform().start(() -> {
                await(start);
                for (int i = 0; i < each; i++) {
                    try {
                        target.tell(i);
                    } catch (MailboxFullException e) {
                        refused.incrementAndGet();
                    }
                }
            }));
        }
        start.countDown();
        senders.forEach(Probes::join);
        int depth = system.metrics().mailboxDepth(target.owner());
        long dropped = system.deadLetters().count(DeadLetter.Reason.MAILBOX_OVERFLOW) - droppedBefore;
        int sent = SENDERS * each;
        long accepted = sent - dropped - refused.get();
        String where = "round " + round + ", capacity " + capacity + ", " + overflow + (onChannel ? ", opened channel" : "");
        assertTrue(depth <= capacity, where + ": mailbox depth " + depth + " above the capacity");
        assertEquals(capacity, accepted, where + ": accepted (sent " + sent + " - dropped " + dropped + " - refused "
                + refused.get() + ")");
        held.release.countDown();
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (held.handled.get() < accepted && System.nanoTime() - waitUntil < 0) {
            Thread.onSpinWait();
        }
        assertEquals(capacity, held.handled.get(), where + ": handled after release");
        assertTrue(held.maxDepthInHandler.get() <= capacity, where + ": depth seen in the handler "
                + held.maxDepthInHandler.get());
    }

    @ParameterizedTest(name = "capacity {0}, BLOCK, opened channel {1}")
    @MethodSource("blockingCases")
    void blockNeverLetsMoreThanItsCapacityIn(int capacity, boolean onChannel) throws Exception {
        int each = 20;
        try (ActorSystem system = ActorSystem.builder().name("bound-block-" + capacity).parallelism(2).build()) {
            long deadline = System.nanoTime() + BUDGET_NANOS;
            for (int round = 0; round < MAX_ROUNDS / 2 && System.nanoTime() - deadline < 0; round++) {
                Held held = new Held(system, Mailbox.bounded(capacity, Mailbox.Overflow.BLOCK), onChannel);
                try {
                    runBlockingRound(system, held, round, capacity, onChannel, each);
                } finally {
                    held.release.countDown();
                }
            }
        }
    }

    private static void runBlockingRound(ActorSystem system, Held held, int round, int capacity, boolean onChannel, int each) {
        Channel<Integer> target = await(held.target);
        await(held.entered);
        AtomicInteger returned = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        CountDownLatch sending = new CountDownLatch(SENDERS);
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            senders.add(Thread.ofPlatform().start(() -> {
                await(start);
                sending.countDown();
                for (int i = 0; i < each; i++) {
                    target.tell(i);
                    returned.incrementAndGet();
                }
            }));
        }
        start.countDown();
        await(sending);
        long waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (returned.get() < capacity && System.nanoTime() - waitUntil < 0) {
            Thread.onSpinWait();
        }
        // the actor is held: no sender can get past a full mailbox, whenever this is read
        int depth = system.metrics().mailboxDepth(target.owner());
        int in = returned.get();
        String where = "round " + round + ", capacity " + capacity + ", BLOCK" + (onChannel ? ", opened channel" : "");
        assertTrue(depth <= capacity, where + ": mailbox depth " + depth + " above the capacity");
        assertTrue(in <= capacity, where + ": " + in + " sends returned while the actor was held");
        held.release.countDown();
        senders.forEach(Probes::join);
        waitUntil = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (held.handled.get() < SENDERS * each && System.nanoTime() - waitUntil < 0) {
            Thread.onSpinWait();
        }
        assertEquals(SENDERS * each, held.handled.get(), where + ": handled");
        assertTrue(held.maxDepthInHandler.get() <= capacity, where + ": depth seen in the handler "
                + held.maxDepthInHandler.get());
    }
}
