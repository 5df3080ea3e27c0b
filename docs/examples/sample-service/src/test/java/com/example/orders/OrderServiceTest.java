package com.example.orders;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorSystem;
import io.weft.actors.testkit.WeftExtension;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

@ExtendWith(WeftExtension.class)
class OrderServiceTest {

    @Test
    void reservesWhileStockLasts(ActorSystem system) throws Exception {
        List<String> lines = OrderService.placeAll(system, List.of(
                new OrderService.Order("apple", 3), new OrderService.Order("pear", 2), new OrderService.Order("apple", 2)));
        assertEquals(List.of("3 x apple: RESERVED", "2 x pear: OUT_OF_STOCK", "2 x apple: RESERVED"), lines);
    }
}
