package io.weft.actors.remote.internal.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AddressAndPhiTest {

    @Test
    void addressesParseWithAndWithoutHost() {
        Address a = Address.parse("weft://orders@10.0.0.5:25520/cart-7#41234");
        assertEquals(new Address("orders", "10.0.0.5", 25520, "cart-7", 41234), a);
        assertEquals("10.0.0.5:25520", a.hostPort());
        assertEquals("weft://orders/cart-7#41234", a.localForm());
        Address local = Address.parse("weft://orders/$ask3#-3");
        assertNull(local.host());
        assertEquals(-3, local.id());
        for (String bad : new String[] {"", "http://x/y#1", "weft://orders@host/x#1", "weft://orders@host:0/x#1",
            "weft://orders@host:70000/x#1", "weft://orders@host:1/x#", "weft://orders@host:1/x", "weft://@host:1/x#1",
            "weft://orders@:1/x#1", "weft://o@h:1/x#1" + "0".repeat(2000)}) {
            assertThrows(IllegalArgumentException.class, () -> Address.parse(bad), bad);
        }
    }

    @Test
    void phiStaysLowWhileHeartbeatsArriveAndRisesPastTheThresholdAfterTheAcceptablePause() {
        PhiAccrual d = new PhiAccrual(1000, 7000);
        long t = 1_000_000;
        for (int i = 0; i < 30; i++) {
            d.heartbeat(t);
            t += 1000;
        }
        long last = t - 1000;
        assertTrue(d.phi(last + 1000) < 1, "on time: " + d.phi(last + 1000));
        assertTrue(d.phi(last + 5000) < 1, "within the acceptable pause: " + d.phi(last + 5000));
        assertTrue(d.phi(last + 9000) < 10, "just past the pause: " + d.phi(last + 9000));
        assertTrue(d.phi(last + 11_000) > 10, "about 10 s of silence: " + d.phi(last + 11_000));
        assertTrue(d.phi(last + 20_000) > d.phi(last + 11_000), "phi keeps rising");
    }
}
