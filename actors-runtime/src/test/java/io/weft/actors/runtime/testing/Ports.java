package io.weft.actors.runtime.testing;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.Random;

/** Free TCP ports on the loopback address for tests that bind listeners. */
public final class Ports {

    private Ports() {
    }

    /**
     * A port that was free a moment ago (one the kernel picked from its ephemeral range).
     *
     * @return the port
     * @throws IOException if no socket can be bound
     */
    public static int free() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    /**
     * {@code n} ports below Linux's ephemeral range (32768 and up), each with the port {@code offset}
     * above it free too, and no two within {@code offset} of each other. Below the ephemeral range, so
     * that a peer JVM started before the port is bound (whose outgoing connections take ephemeral
     * ports) cannot take it.
     *
     * @param n how many
     * @param offset the distance of each port's companion (JGroups' FD_SOCK2 binds 100 above)
     * @return the ports
     * @throws AssertionError if {@code n} such ports are not found in 200 tries
     */
    public static int[] freePairs(int n, int offset) {
        int[] out = new int[n];
        Random random = new Random();
        int found = 0;
        for (int attempt = 0; attempt < 200 && found < n; attempt++) {
            int p = 20_000 + random.nextInt(12_000);
            boolean clash = false;
            for (int i = 0; i < found; i++) {
                clash |= Math.abs(out[i] - p) <= offset;
            }
            if (!clash && isFree(p) && isFree(p + offset)) {
                out[found++] = p;
            }
        }
        if (found < n) {
            throw new AssertionError(n + " free port pairs (offset " + offset + ") between 20000 and 32000: found " + found);
        }
        return out;
    }

    private static boolean isFree(int port) {
        try (ServerSocket s = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort() == port;
        } catch (IOException e) {
            return false;
        }
    }
}
