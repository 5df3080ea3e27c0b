package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.Mailbox;
import io.weft.actors.MailboxFullException;
import io.weft.actors.Receive;
import io.weft.actors.runtime.ContractMatrix.Fixture;
import io.weft.actors.runtime.ContractMatrix.MailboxKind;
import io.weft.actors.runtime.ContractMatrix.Mode;
import io.weft.actors.runtime.ContractMatrix.SchedulerKind;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The core contract (Prokopec 2016, Theorem 1: serializability; exactly-once delivery; FIFO per
 * sender), one body for every cell of {@link ContractMatrix} that draws it: SerializabilityContractTest
 * runs it over the event-based cells, actors-loom's ThreadSerializabilityContractTest over the
 * thread-based ones. Many threads send to one actor at once; the actor detects any concurrent
 * entry into its handler and checks every sender's sequence.
 */
public final class CoreContract {

    private static final int SENDERS = 4;
    private static final int PER_SENDER = 5_000;
    private static final int BATCH = 16;

    private CoreContract() {
    }

    /** One message: its sender's number and its place in that sender's sequence (from 1). */
    record Msg(int sender, int seq) {
    }

    /**
     * The end of the traffic, on a channel of its own: how many messages the actor must handle.
     *
     * @param expected the messages sent minus those counted as dropped or refused
     */
    record Done(long expected) {
    }

    /**
     * Under a mailbox kind the traffic always fits: one handler at a time, and every message of
     * every sender handled exactly once and in its sender's order.
     *
     * @param kind the scheduler
     * @param mailbox an ample mailbox kind
     * @param mode how the actor waits
     * @throws Exception on failure
     */
    public static void oneHandlerAtATimeAndEveryMessageExactlyOnce(SchedulerKind kind, MailboxKind mailbox, Mode mode)
            throws Exception {
        try (Fixture f = Fixture.open(kind, "serial", BATCH)) {
            int total = SENDERS * PER_SENDER;
            AtomicInteger inHandler = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            CompletableFuture<ActorRef<Msg>> self = new CompletableFuture<>();
            CompletableFuture<int[]> result = new CompletableFuture<>();
            Behavior<Msg> counter = mode.behavior((ActorContext<Msg> ctx) -> {
                int[] last = new int[SENDERS];
                int[] stats = new int[2]; // [handled, out-of-sequence]
                self.complete(ctx.self());
                return Receive.<Msg>handler().match(Msg.class, m -> {
                    if (inHandler.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    if (m.seq() != last[m.sender()] + 1) {
                        stats[1]++;
                    }
                    last[m.sender()] = m.seq();
                    stats[0]++; // a plain int: concurrent handlers would also lose updates
                    if ((stats[0] & 63) == 0) {
                        Thread.yield(); // widen the window a concurrent entry would hit
                    }
                    inHandler.decrementAndGet();
                    if (stats[0] == total) {
                        result.complete(stats.clone());
                        if (kind.spawnsOnCaller()) {
                            ctx.stop(); // gives the spawning thread back
                        }
                    }
                }).build();
            });
            f.start(mode, f.props("counter", mailbox), counter);
            ActorRef<Msg> ref = await(self);
            sendConcurrently(ref, new AtomicLong());

            int[] stats = await(result);
            String cell = kind + ", " + mailbox + ", " + mode + ": ";
            assertEquals(0, overlaps.get(), cell + "handlers of one actor overlapped");
            assertEquals(total, stats[0], cell + "messages handled");
            assertEquals(0, stats[1], cell + "messages lost, duplicated or out of per-sender order");
            assertEquals(0, f.system().metrics().messagesDropped(), cell + "messages dropped");
        }
    }

    /**
     * Under a small mailbox kind the senders outrun the actor: one handler at a time still, each
     * sender's handled messages in its order without duplicates, and every message either handled
     * or counted in {@code messagesDropped} (for FAIL: refused to its sender, and counted; for
     * BLOCK: none dropped, the senders wait).
     *
     * @param kind the scheduler
     * @param mailbox a small mailbox kind
     * @param mode how the actor waits (an event-based mode: it opens a channel for the end marker)
     * @throws Exception on failure
     */
    public static void everyMessageHandledOrCountedAsDropped(SchedulerKind kind, MailboxKind mailbox, Mode mode)
            throws Exception {
        try (Fixture f = Fixture.open(kind, "drops", BATCH)) {
            int total = SENDERS * PER_SENDER;
            AtomicInteger inHandler = new AtomicInteger();
            AtomicInteger overlaps = new AtomicInteger();
            CompletableFuture<ActorRef<Msg>> self = new CompletableFuture<>();
            CompletableFuture<Channel<Done>> end = new CompletableFuture<>();
            CompletableFuture<long[]> result = new CompletableFuture<>();
            Behavior<Msg> counter = mode.behavior((ActorContext<Msg> ctx) -> {
                int[] last = new int[SENDERS];
                long[] stats = {0, 0, -1}; // [handled, out-of-sequence or duplicated, expected (-1: not known yet)]
                Runnable check = () -> {
                    if (stats[0] == stats[2] && !result.isDone()) {
                        result.complete(stats.clone());
                        if (kind.spawnsOnCaller()) {
                            ctx.stop();
                        }
                    }
                };
                Channel<Done> done = ctx.open(Done.class);
                self.complete(ctx.self());
                end.complete(done);
                return Receive.<Msg>handler().match(Msg.class, m -> {
                    if (inHandler.incrementAndGet() != 1) {
                        overlaps.incrementAndGet();
                    }
                    if (m.seq() <= last[m.sender()]) {
                        stats[1]++; // gaps are drops; a step back is a reorder or a duplicate
                    }
                    last[m.sender()] = m.seq();
                    stats[0]++;
                    if ((stats[0] & 63) == 0) {
                        Thread.yield();
                    }
                    inHandler.decrementAndGet();
                    check.run();
                }).on(done, Done.class, d -> {
                    stats[2] = d.expected();
                    check.run();
                }).build();
            });
            f.start(mode, f.props("counter", mailbox), counter);
            ActorRef<Msg> ref = await(self);
            Channel<Done> done = await(end);
            AtomicLong refused = new AtomicLong();
            sendConcurrently(ref, refused);
            // every offer has returned: the count of dropped messages is final
            long dropped = f.system().metrics().messagesDropped();
            done.tell(new Done(total - dropped));

            long[] stats = await(result);
            String cell = kind + ", " + mailbox + ", " + mode + ": ";
            assertEquals(0, overlaps.get(), cell + "handlers of one actor overlapped");
            assertEquals(total - dropped, stats[0], cell + "messages handled (sent minus dropped)");
            assertEquals(0, stats[1], cell + "messages duplicated or out of per-sender order");
            Mailbox.Overflow overflow = mailbox.mailbox().overflow();
            assertEquals(overflow == Mailbox.Overflow.FAIL ? dropped : 0, refused.get(),
                    cell + "sends refused with MailboxFullException (each counted as dropped)");
            if (overflow == Mailbox.Overflow.BLOCK) {
                assertEquals(0, dropped, cell + "BLOCK dropped messages from senders that may wait");
            }
        }
    }

    /**
     * {@value #SENDERS} platform threads, started together, each tell {@value #PER_SENDER} messages
     * in sequence; returns when all are done. A send refused with {@link MailboxFullException} is
     * counted in {@code refused}.
     */
    private static void sendConcurrently(ActorRef<Msg> ref, AtomicLong refused) {
        CyclicBarrier go = new CyclicBarrier(SENDERS);
        List<Thread> senders = new ArrayList<>();
        for (int s = 0; s < SENDERS; s++) {
            int sender = s;
            senders.add(Thread.ofPlatform().name("sender-" + s).start(() -> {
                try {
                    go.await();
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
                for (int i = 1; i <= PER_SENDER; i++) {
                    try {
                        ref.tell(new Msg(sender, i));
                    } catch (MailboxFullException e) {
                        refused.incrementAndGet();
                    }
                }
            }));
        }
        senders.forEach(Probes::join);
    }
}
