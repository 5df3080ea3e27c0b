package io.weft.actors.runtime.internal.routing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The hash ring: keys stay put, a removed routee's keys alone move, shares are even. */
class HashRingTest {

    private static final int KEYS = 100_000;

    @Test
    void removingARouteeMovesOnlyItsKeysAndSharesAreEven() {
        String[] four = {"weft://s/a#1", "weft://s/b#2", "weft://s/c#3", "weft://s/d#4"};
        String[] three = {four[0], four[2], four[3]};
        HashRing before = HashRing.of(four, 100);
        HashRing after = HashRing.of(three, 100);
        int[] share = new int[4];
        int moved = 0;
        for (int k = 0; k < KEYS; k++) {
            String key = "customer-" + k;
            String was = four[before.owner(key)];
            String now = three[after.owner(key)];
            assertEquals(was, four[before.owner(key)], "stable for one ring");
            share[before.owner(key)]++;
            if (!was.equals(now)) {
                assertEquals(four[1], was, key + " moved though its routee stayed");
                moved++;
            }
        }
        assertEquals(share[1], moved, "exactly the removed routee's keys move");
        for (int s : share) {
            assertTrue(s > KEYS * 0.18 && s < KEYS * 0.32, "each share near a quarter: " + java.util.Arrays.toString(share));
        }
        assertEquals(HashRing.of(four, 100).owner(null), before.owner(null), "a null key has a place too");
    }
}
