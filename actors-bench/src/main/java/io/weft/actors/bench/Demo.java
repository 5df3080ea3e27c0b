package io.weft.actors.bench;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The demo: the order manager of Haller and Odersky 2009, Fig. 1, in both versions (explicit sender, and
 * reply/ask), written as a thread-based actor, and an event-based counter driven by a million
 * messages.
 */
public final class Demo {

    private Demo() {
    }

    /** An order for an item; {@code customer} is the explicit sender of the base version. */
    record Order(ActorRef<Object> customer, String item) {
    }

    /** A cancellation of an order. */
    record Cancel(ActorRef<Object> customer, PlacedOrder order) {
    }

    /** An acknowledgment carrying the order. */
    record Ack(PlacedOrder order) {
    }

    /** The answer to cancelling an order that is not pending. */
    record NoAck() {
    }

    /** An order the manager holds. */
    static final class PlacedOrder {
        final String item;
        boolean pending = true;

        PlacedOrder(String item) {
            this.item = item;
        }

        @Override
        public String toString() {
            return "order(" + item + (pending ? ", pending" : ", cancelled") + ")";
        }
    }

    /**
     * @param args ignored
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("demo").build()) {
            System.out.println("1. An order manager as a thread-based actor (a virtual thread blocking in receive).");
            System.out.println("   A customer actor orders a book, cancels it, and cancels it again; every message");
            System.out.println("   carries the customer's address so that the manager knows whom to answer:");
            orderManagerBase(system);
            System.out.println();
            System.out.println("2. The same order manager answering with reply; the caller here is plain code (not an");
            System.out.println("   actor) that uses ask, so no message has to name its sender:");
            orderManagerWithReply(system);
            System.out.println();
            System.out.println("3. An event-based counter (react, no thread of its own) fed 1,000,000 messages from the");
            System.out.println("   main thread, then asked for its total:");
            counter(system);
        }
    }

    /** Fig. 1, left: every message names its sender explicitly. */
    private static void orderManagerBase(ActorSystem system) throws Exception {
        List<Object> junk = new ArrayList<>();
        ActorRef<Object> orderMngr = system.spawnThread("order-manager-base", self -> {
            while (true) {
                self.receive(Receive.<Object>handler()
                        .match(Order.class, o -> o.customer().tell(new Ack(new PlacedOrder(o.item()))))
                        .match(Cancel.class, c -> {
                            if (c.order().pending) {
                                c.order().pending = false;
                                c.customer().tell(new Ack(c.order()));
                            } else {
                                c.customer().tell(new NoAck());
                            }
                        })
                        .matchAny(junk::add)
                        .build());
            }
        });
        CountDownLatch done = new CountDownLatch(1);
        system.spawnThread("customer", (ActorContext<Object> self) -> {
            orderMngr.tell(new Order(self.self(), "book"));
            PlacedOrder o = self.receive(Receive.<Object, PlacedOrder>returning().match(Ack.class, Ack::order).build());
            System.out.println("   ordered      -> " + o);
            orderMngr.tell(new Cancel(self.self(), o));
            Object first = self.receive(Receive.<Object, Object>returning().matchAny(m -> m).build());
            System.out.println("   cancel       -> " + first + " " + o);
            orderMngr.tell(new Cancel(self.self(), o));
            Object second = self.receive(Receive.<Object, Object>returning().matchAny(m -> m).build());
            System.out.println("   cancel again -> " + second + " (already cancelled)");
            done.countDown();
        });
        if (!done.await(10, TimeUnit.SECONDS)) {
            throw new IllegalStateException("base order manager did not answer");
        }
    }

    /** Fig. 1, right: {@code reply} and {@code ask} ({@code !?}) carry the sender. */
    private static void orderManagerWithReply(ActorSystem system) throws Exception {
        record Place(String item) {
        }
        record Revoke(PlacedOrder order) {
        }
        ActorRef<Object> orderMngr = system.spawnThread("order-manager-reply", self -> {
            while (true) {
                self.receive(Receive.<Object>handler()
                        .match(Place.class, p -> self.reply(new Ack(new PlacedOrder(p.item()))))
                        .match(Revoke.class, r -> {
                            if (r.order().pending) {
                                r.order().pending = false;
                                self.reply(new Ack(r.order()));
                            } else {
                                self.reply(new NoAck());
                            }
                        })
                        .build());
            }
        });
        Duration t = Duration.ofSeconds(5);
        Ack ack = system.<Object, Ack>ask(orderMngr, new Place("lamp"), t).get();
        System.out.println("   ordered      -> " + ack.order());
        Object cancel = system.ask(orderMngr, new Revoke(ack.order()), t).get();
        System.out.println("   cancel       -> " + cancel + " " + ack.order());
        Object again = system.ask(orderMngr, new Revoke(ack.order()), t).get();
        System.out.println("   cancel again -> " + again + " (already cancelled)");
    }

    /** An event-based counter: a million increments, then an ask for the total. */
    private static void counter(ActorSystem system) throws Exception {
        record Get() {
        }
        ActorRef<Object> counter = system.spawn("counter", self -> {
            long[] count = {0};
            self.loop(() -> self.react(Receive.<Object>handler()
                    .match(Integer.class, n -> count[0] += n)
                    .match(Get.class, g -> self.reply(count[0]))
                    .build()));
        });
        int n = 1_000_000;
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            counter.tell(1);
        }
        long total = system.<Object, Long>ask(counter, new Get(), Duration.ofSeconds(30)).get();
        long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        System.out.println("   " + total + " increments handled, none lost, in " + ms + " ms");
        if (total != n) {
            throw new IllegalStateException("counter lost messages: " + total);
        }
    }
}
