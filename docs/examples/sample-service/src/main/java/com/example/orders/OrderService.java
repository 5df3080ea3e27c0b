package com.example.orders;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A tiny order service: an event-based inventory actor and a thread-based order desk that blocks
 * in {@code receive} while it waits for the inventory's answer.
 */
public final class OrderService {

    /** An order for {@code quantity} of {@code item}. */
    public record Order(String item, int quantity) {
    }

    /** The inventory's request: reserve stock. */
    record Reserve(String item, int quantity) {
    }

    /** The inventory's answers. */
    enum Reservation { RESERVED, OUT_OF_STOCK }

    private OrderService() {
    }

    /**
     * Places the orders and returns one line per order.
     *
     * @param system the system to run in
     * @param orders the orders
     * @return the outcomes, in order
     * @throws Exception if an answer does not come
     */
    public static List<String> placeAll(ActorSystem system, List<Order> orders) throws Exception {
        ActorRef<Reserve> inventory = system.spawn("inventory", self -> {
            Map<String, Integer> stock = new HashMap<>(Map.of("apple", 5, "pear", 1));
            self.loop(() -> self.react(Receive.<Reserve>handler()
                    .match(Reserve.class, r -> {
                        int left = stock.getOrDefault(r.item(), 0);
                        if (left >= r.quantity()) {
                            stock.put(r.item(), left - r.quantity());
                            self.reply(Reservation.RESERVED);
                        } else {
                            self.reply(Reservation.OUT_OF_STOCK);
                        }
                    })
                    .build()));
        });
        ActorRef<Object> desk = system.spawnThread("order-desk", self -> {
            while (true) {
                // the customer: the sender of the order (kept before the next receive replaces it)
                Object[] customer = new Object[1];
                Order order = self.receive(Receive.<Object, Order>returning().match(Order.class, o -> {
                    customer[0] = self.sender();
                    return o;
                }).build());
                inventory.tell(new Reserve(order.item(), order.quantity()), self.self());
                Reservation answer = self.receive(Receive.<Object, Reservation>returning()
                        .match(Reservation.class, r -> r)
                        .build());
                @SuppressWarnings("unchecked")
                ActorRef<Object> to = (ActorRef<Object>) customer[0];
                to.tell(order.quantity() + " x " + order.item() + ": " + answer);
            }
        });
        List<String> lines = new java.util.ArrayList<>();
        for (Order o : orders) {
            lines.add(system.<Object, String>ask(desk, o, Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS));
        }
        return lines;
    }

    /**
     * Runs the service on three orders and prints the outcomes.
     *
     * @param args ignored
     * @throws Exception if the service fails
     */
    public static void main(String[] args) throws Exception {
        try (ActorSystem system = ActorSystem.create("orders")) {
            for (String line : placeAll(system, List.of(new Order("apple", 3), new Order("pear", 2), new Order("apple", 2)))) {
                System.out.println(line);
            }
            System.out.println(system.metrics());
        }
    }
}
