package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.Actor;
import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The examples of Haller and Odersky 2009 (Fig. 1-5, §3.4) as event-based ({@code react}) actors. */
class PaperExamplesTest {

    private static final Duration ASK = Duration.ofSeconds(30);

    private ActorSystem system;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("paper-examples").parallelism(2).build();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    // ------------------------------------------------------------------ Fig. 1

    /** An order the manager holds; only the manager writes {@code pending}. */
    static final class PlacedOrder {
        final String item;
        volatile boolean pending = true;

        PlacedOrder(String item) {
            this.item = item;
        }
    }

    record Order(ActorRef<Object> customer, String item) {
    }

    record Cancel(ActorRef<Object> customer, PlacedOrder order) {
    }

    record CountJunk(ActorRef<Object> customer) {
    }

    record Ack(PlacedOrder order) {
    }

    record NoAck() {
    }

    record Place(String item) {
    }

    record Revoke(PlacedOrder order) {
    }

    record JunkSize() {
    }

    /** Fig. 1 left: every request names its customer. */
    static Behavior<Object> baseOrderManager() {
        return self -> {
            List<Object> junk = new ArrayList<>();
            self.loop(() -> self.react(Receive.<Object>handler()
                    .match(Order.class, o -> o.customer().tell(new Ack(new PlacedOrder(o.item()))))
                    .match(Cancel.class, c -> {
                        if (c.order().pending) {
                            c.order().pending = false;
                            c.customer().tell(new Ack(c.order()));
                        } else {
                            c.customer().tell(new NoAck());
                        }
                    })
                    .match(CountJunk.class, c -> c.customer().tell(junk.size()))
                    .matchAny(junk::add)
                    .build()));
        };
    }

    /** Fig. 1 right: the sender travels with the message; answers use {@code reply}. */
    static Behavior<Object> replyOrderManager() {
        return self -> {
            List<Object> junk = new ArrayList<>();
            self.loop(() -> self.react(Receive.<Object>handler()
                    .match(Place.class, p -> self.reply(new Ack(new PlacedOrder(p.item()))))
                    .match(Revoke.class, r -> {
                        if (r.order().pending) {
                            r.order().pending = false;
                            self.reply(new Ack(r.order()));
                        } else {
                            self.reply(new NoAck());
                        }
                    })
                    .match(JunkSize.class, j -> self.reply(junk.size()))
                    .matchAny(junk::add)
                    .build()));
        };
    }

    @Test
    void fig1BaseVersionWithExplicitSender() {
        ActorRef<Object> orderMngr = system.spawn("orderMngr", baseOrderManager());
        orderMngr.tell("junk");
        orderMngr.tell(42);
        CompletableFuture<List<Object>> seen = new CompletableFuture<>();
        system.spawn("customer", (ActorContext<Object> self) -> {
            List<Object> log = new ArrayList<>();
            orderMngr.tell(new Order(self.self(), "book"));
            self.react(Receive.<Object>handler().match(Ack.class, placed -> {
                log.add(placed.order().item);
                orderMngr.tell(new Cancel(self.self(), placed.order()));
                self.react(Receive.<Object>handler().matchAny(first -> {
                    log.add(first);
                    orderMngr.tell(new Cancel(self.self(), placed.order()));
                    self.react(Receive.<Object>handler().matchAny(second -> {
                        log.add(second);
                        orderMngr.tell(new CountJunk(self.self()));
                        self.react(Receive.<Object>handler().match(Integer.class, junk -> {
                            log.add(junk);
                            seen.complete(log);
                        }).build());
                    }).build());
                }).build());
            }).build());
        });
        List<Object> log = await(seen);
        assertEquals("book", log.get(0));
        Ack cancelled = assertInstanceOf(Ack.class, log.get(1));
        assertFalse(cancelled.order().pending, "the first cancel cancels the pending order");
        assertInstanceOf(NoAck.class, log.get(2), "the second cancel finds the order no longer pending");
        assertEquals(2, log.get(3), "both unknown messages were removed as junk");
    }

    @Test
    void fig1ReplyVersionWithAsk() {
        ActorRef<Object> orderMngr = system.spawn("orderMngr", replyOrderManager());
        orderMngr.tell("junk");
        Ack ack = await(system.<Object, Ack>ask(orderMngr, new Place("lamp"), ASK));
        assertEquals("lamp", ack.order().item);
        assertTrue(ack.order().pending);
        Object cancel = await(system.ask(orderMngr, new Revoke(ack.order()), ASK));
        assertSame(ack.order(), assertInstanceOf(Ack.class, cancel).order());
        assertFalse(ack.order().pending);
        assertInstanceOf(NoAck.class, await(system.ask(orderMngr, new Revoke(ack.order()), ASK)));
        assertEquals(1, (int) await(system.<Object, Integer>ask(orderMngr, new JunkSize(), ASK)));
    }

    @Test
    void fig1ReplyVersionFromReactCustomers() {
        ActorRef<Object> orderMngr = system.spawn("orderMngr", replyOrderManager());
        // a customer naming itself as reply destination: tell(msg, self)
        CompletableFuture<Object> told = new CompletableFuture<>();
        system.spawn((ActorContext<Object> self) -> {
            orderMngr.tell(new Place("pen"), self.self());
            self.react(Receive.<Object>handler().matchAny(told::complete).build());
        });
        // a customer using !? without blocking: the ask's future is piped back into its mailbox
        CompletableFuture<Object> asked = new CompletableFuture<>();
        system.spawn((ActorContext<Object> self) -> {
            self.<Object, Object>ask(orderMngr, new Place("ink"), ASK).thenAccept(self.self()::tell);
            self.react(Receive.<Object>handler().matchAny(asked::complete).build());
        });
        // a front desk forwarding requests: the manager's reply goes to the original asker
        ActorRef<Object> desk = system.spawn(self -> self.loop(() -> self.react(Receive.<Object>handler()
                .matchAny(m -> self.forward(orderMngr, m))
                .build())));
        assertEquals("pen", assertInstanceOf(Ack.class, await(told)).order().item);
        assertEquals("ink", assertInstanceOf(Ack.class, await(asked)).order().item);
        assertEquals("cup", await(system.<Object, Ack>ask(desk, new Place("cup"), ASK)).order().item);
    }

    // ------------------------------------------------------------------ Fig. 2

    record Put(int x) {
    }

    record Get() {
    }

    record Get2() {
    }

    record Done() {
    }

    record Pair(int first, int second) {
    }

    /** Fig. 2: a bounded buffer whose handler is an overridable method. */
    static class Buffer extends Actor<Object> {
        final int size;
        final int[] buf;
        int in;
        int out;
        int n;

        Buffer(int size) {
            this.size = size;
            this.buf = new int[size];
        }

        protected Receive<Object, Void> reaction() {
            return Receive.<Object>handler()
                    .match(Put.class, p -> n < size, p -> {
                        buf[in] = p.x();
                        in = (in + 1) % size;
                        n++;
                        reply(new Done());
                    })
                    .match(Get.class, g -> n > 0, g -> {
                        int r = buf[out];
                        out = (out + 1) % size;
                        n--;
                        reply(r);
                    })
                    .build();
        }

        @Override
        protected void act() {
            loop(() -> react(reaction()));
        }
    }

    /** Fig. 2: extends the parent's handler with {@code orElse}; {@code act} is inherited. */
    static final class Buffer2 extends Buffer {
        Buffer2(int size) {
            super(size);
        }

        @Override
        protected Receive<Object, Void> reaction() {
            return super.reaction().orElse(Receive.<Object>handler()
                    .match(Get2.class, g -> n > 1, g -> {
                        int first = buf[out];
                        int second = buf[(out + 1) % size];
                        out = (out + 2) % size;
                        n -= 2;
                        reply(new Pair(first, second));
                    })
                    .build());
        }
    }

    /**
     * A reply destination that logs replies in arrival order. All replies come from one actor, so
     * per-sender FIFO makes this the order in which the actor replied (a callback on each ask's
     * future would not: one registered after its reply arrived runs later, on the test thread).
     */
    private ActorRef<Object> replyLog(List<Object> log, CountDownLatch expected) {
        return system.spawn(self -> self.become(Receive.<Object>handler().matchAny(r -> {
            log.add(r);
            expected.countDown();
        }).build()));
    }

    @Test
    void fig2BufferGuardsKeepRequestsUntilTheyCanBeServed() throws InterruptedException {
        ActorRef<Object> buffer = system.spawn("buffer", new Buffer(2));
        List<Object> log = new CopyOnWriteArrayList<>();
        CountDownLatch six = new CountDownLatch(6);
        ActorRef<Object> replies = replyLog(log, six);
        buffer.tell(new Put(1), replies);
        buffer.tell(new Put(2), replies);
        buffer.tell(new Put(3), replies); // full: waits, in the mailbox
        buffer.tell(new Get(), replies);
        buffer.tell(new Get(), replies);
        buffer.tell(new Get(), replies);
        assertTrue(six.await(30, TimeUnit.SECONDS), "six replies expected, got " + log);
        // Put 3 is served right after the first Get made room, before the second Get
        assertEquals(List.of(new Done(), new Done(), 1, new Done(), 2, 3), log);
    }

    @Test
    void fig2Buffer2ExtendsBufferWithOrElse() throws InterruptedException {
        ActorRef<Object> buffer2 = system.spawn("buffer2", new Buffer2(4));
        List<Object> log = new CopyOnWriteArrayList<>();
        CountDownLatch eight = new CountDownLatch(8);
        ActorRef<Object> replies = replyLog(log, eight);
        buffer2.tell(new Put(1), replies);
        buffer2.tell(new Put(2), replies);
        buffer2.tell(new Put(3), replies);
        buffer2.tell(new Get2(), replies);
        buffer2.tell(new Get(), replies);
        buffer2.tell(new Get2(), replies); // empty: waits for two more
        buffer2.tell(new Put(4), replies);
        buffer2.tell(new Put(5), replies);
        assertTrue(eight.await(30, TimeUnit.SECONDS), "eight replies expected, got " + log);
        assertEquals(List.of(new Done(), new Done(), new Done(), new Pair(1, 2), 3,
                new Done(), new Done(), new Pair(4, 5)), log);
        // the inherited cases still guard: a Put beyond the capacity waits
        for (int i = 6; i <= 9; i++) {
            buffer2.tell(new Put(i), replies);
        }
        CompletableFuture<Object> put10 = system.ask(buffer2, new Put(10), ASK);
        assertEquals(new Pair(6, 7), await(system.ask(buffer2, new Get2(), ASK)));
        await(put10);
    }

    @Test
    void fig2PlainBufferDoesNotUnderstandGet2() {
        Probes.Dead dead = Probes.Dead.of(system);
        ActorRef<Object> buffer = system.spawn("buffer", new Buffer(4));
        CompletableFuture<Object> get2 = system.ask(buffer, new Get2(), ASK);
        assertInstanceOf(Done.class, await(system.ask(buffer, new Put(7), ASK)));
        assertInstanceOf(Done.class, await(system.ask(buffer, new Put(8), ASK)));
        assertEquals(7, (int) await(system.<Object, Integer>ask(buffer, new Get(), ASK)));
        // Get2 was queued before the three requests just answered, so it was passed over, not pending
        assertFalse(get2.isDone(), "Buffer has no Get2 case; only Buffer2 adds one with orElse");
        system.close();
        assertTrue(dead.messagesTo(buffer).contains(new Get2()), "the unhandled Get2 is a dead letter after close");
    }

    // ------------------------------------------------------------------ Fig. 3-5

    record IntTree(IntTree left, int elem, IntTree right) {
        static IntTree of(int from, int to) {
            if (from > to) {
                return null;
            }
            int mid = (from + to) >>> 1;
            return new IntTree(of(from, mid - 1), mid, of(mid + 1, to));
        }
    }

    record Next() {
    }

    /** Fig. 4-5: values produced by a producer actor, handed out one by one by a react coordinator. */
    abstract static class Producer<T> {
        private ActorRef<Object> coordinator;

        protected abstract void produceValues();

        protected final void produce(T x) {
            coordinator.tell(Optional.of(x));
        }

        final Iterator<T> iterator(ActorSystem system) {
            // Fig. 5: the coordinator reacts, so it holds no thread between a client's requests
            coordinator = system.spawn(self -> self.loop(() -> self.react(Receive.<Object>handler()
                    .match(Next.class, next -> {
                        ActorRef<?> client = self.sender();
                        self.react(Receive.<Object>handler()
                                .match(Optional.class, x -> {
                                    @SuppressWarnings("unchecked")
                                    ActorRef<Object> to = (ActorRef<Object>) client;
                                    to.tell(x);
                                })
                                .build());
                    })
                    .build())));
            system.spawn(self -> {
                produceValues();
                coordinator.tell(Optional.empty());
            });
            return new Iterator<>() {
                private Optional<T> ahead;

                @Override
                public boolean hasNext() {
                    if (ahead == null) {
                        ahead = await(system.<Object, Optional<T>>ask(coordinator, new Next(), ASK));
                    }
                    return ahead.isPresent();
                }

                @Override
                public T next() {
                    if (!hasNext()) {
                        throw new NoSuchElementException();
                    }
                    T value = ahead.get();
                    ahead = null;
                    return value;
                }
            };
        }
    }

    /** Fig. 3. */
    static final class InOrder extends Producer<Integer> {
        private final IntTree tree;

        InOrder(IntTree tree) {
            this.tree = tree;
        }

        @Override
        protected void produceValues() {
            traverse(tree);
        }

        private void traverse(IntTree n) {
            if (n != null) {
                traverse(n.left());
                produce(n.elem());
                traverse(n.right());
            }
        }
    }

    @Test
    void fig3To5ProducerAsIterator() {
        Iterator<Integer> it = new InOrder(IntTree.of(1, 7)).iterator(system);
        List<Integer> values = new ArrayList<>();
        it.forEachRemaining(values::add);
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7), values);
        assertFalse(it.hasNext(), "the iterator stays exhausted");
    }

    @Test
    void fig3To5ProducerFarAheadOfTheClient() {
        // the producer runs ahead: its values wait in the coordinator's mailbox, passed over by the
        // outer react (which only takes Next) and taken in order by the inner one
        Iterator<Integer> it = new InOrder(IntTree.of(1, 300)).iterator(system);
        List<Integer> values = new ArrayList<>();
        it.forEachRemaining(values::add);
        assertEquals(IntStream.rangeClosed(1, 300).boxed().toList(), values);
    }

    // ------------------------------------------------------------------ §3.4 combinators

    record Ping() {
    }

    record Pong() {
    }

    @Test
    void andThenRunsNextAfterTheWholeReactChain() {
        CompletableFuture<List<String>> done = new CompletableFuture<>();
        ActorRef<String> ref = system.spawn((ActorContext<String> self) -> {
            List<String> log = new ArrayList<>();
            self.andThen(
                    () -> self.react(Receive.<String>handler().match(String.class, a -> {
                        log.add("first " + a);
                        self.react(Receive.<String>handler().match(String.class, b -> log.add("second " + b)).build());
                    }).build()),
                    () -> {
                        log.add("after");
                        done.complete(log);
                    });
            log.add("body returned");
        });
        ref.tell("a");
        ref.tell("b");
        assertEquals(List.of("body returned", "first a", "second b", "after"), await(done));
    }

    @Test
    void andThenChainsInOrder() {
        CompletableFuture<List<String>> done = new CompletableFuture<>();
        ActorRef<String> ref = system.spawn((ActorContext<String> self) -> {
            List<String> log = new ArrayList<>();
            Runnable s1 = () -> self.react(Receive.<String>handler().matchAny(m -> log.add("s1 " + m)).build());
            Runnable s2 = () -> self.react(Receive.<String>handler().matchAny(m -> log.add("s2 " + m)).build());
            Runnable s3 = () -> self.react(Receive.<String>handler().matchAny(m -> log.add("s3 " + m)).build());
            Runnable s4 = () -> self.react(Receive.<String>handler().matchAny(m -> log.add("s4 " + m)).build());
            // (s1 andThen s2) andThen (s3 andThen s4), then report
            self.andThen(() -> self.andThen(() -> self.andThen(s1, s2), () -> self.andThen(s3, s4)),
                    () -> done.complete(log));
        });
        for (String m : List.of("a", "b", "c", "d")) {
            ref.tell(m);
        }
        assertEquals(List.of("s1 a", "s2 b", "s3 c", "s4 d"), await(done));
    }

    @Test
    void awaitPingAndThenSendPong() {
        // Haller and Odersky 2009, §3.4: awaitPing andThen sendPong, where sendPong replies to the sender of the Ping
        ActorRef<Object> ref = system.spawn(self -> {
            Runnable awaitPing = () -> self.react(Receive.<Object>handler().match(Ping.class, p -> { }).build());
            Runnable sendPong = () -> self.reply(new Pong());
            self.andThen(awaitPing, sendPong);
        });
        assertInstanceOf(Pong.class, await(system.ask(ref, new Ping(), ASK)));
    }

    @Test
    void loopRepeatsForever() {
        CompletableFuture<Integer> fifth = new CompletableFuture<>();
        ActorRef<Object> ref = system.spawn(self -> {
            int[] rounds = {0};
            self.loop(() -> {
                rounds[0]++;
                self.react(Receive.<Object>handler()
                        .match(Integer.class, i -> {
                            if (i == 5) {
                                fifth.complete(rounds[0]);
                            }
                        })
                        .match(Ping.class, p -> self.reply(rounds[0]))
                        .build());
            });
        });
        for (int i = 1; i <= 5; i++) {
            ref.tell(i);
        }
        assertEquals(5, await(fifth), "one round per message");
        assertEquals(6, (int) await(system.<Object, Integer>ask(ref, new Ping(), ASK)), "the loop goes on after any number of rounds");
        assertFalse(ref.isTerminated());
    }

    @Test
    void loopWhileEndsThenAndThenRunsThenTheActorStops() {
        Probes.Lifecycle lifecycle = Probes.Lifecycle.of(system);
        CountDownLatch twoDead = new CountDownLatch(2);
        List<Object> dead = new CopyOnWriteArrayList<>();
        CompletableFuture<List<Integer>> done = new CompletableFuture<>();
        ActorRef<Integer> ref = system.spawn((ActorContext<Integer> self) -> {
            List<Integer> got = new ArrayList<>();
            self.andThen(
                    () -> self.loopWhile(() -> got.size() < 3, () -> self.react(Receive.<Integer>handler()
                            .match(Integer.class, got::add)
                            .build())),
                    () -> done.complete(got));
        });
        system.deadLetters().subscribe(l -> {
            if (l.recipient().equals(ref)) {
                dead.add(l.message());
                twoDead.countDown();
            }
        });
        for (int i = 1; i <= 5; i++) {
            ref.tell(i);
        }
        assertEquals(List.of(1, 2, 3), await(done));
        await(lifecycle.stopped(ref));
        assertTrue(ref.isTerminated(), "nothing is composed after the loop's andThen, so the actor stops");
        Probes.await(twoDead);
        assertEquals(List.of(4, 5), dead);
    }

    @Test
    void loopWhileFalseAtFirstSkipsTheBody() {
        CompletableFuture<String> done = new CompletableFuture<>();
        system.spawn(self -> self.andThen(
                () -> self.loopWhile(() -> false, () -> done.complete("body ran")),
                () -> done.complete("skipped")));
        assertEquals("skipped", await(done));
    }

}
