package io.weft.actors.cluster;

import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.cluster.internal.ClusterCore;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.invoke.MethodHandles;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.protocols.DISCARD;

/**
 * A cluster member in its own JVM, driven by the test over stdin and stdout. Prints
 * {@code READY <member> <echo address>}, then {@code EVENT <status> <member>} for each member
 * event. Reads {@code cut} (drop all JGroups traffic in and out: a partition of this node) and
 * end of input (leave and exit).
 */
public final class ClusterPeerMain {

    private ClusterPeerMain() {
    }

    /**
     * The test settings: heartbeat 500 ms, failure timeout 3 s, verification 1 s, merge within
     * 5 s, stable after 3 s.
     *
     * @param port the JGroups port
     * @param seeds the seeds' JGroups ports
     * @return the settings
     */
    public static ClusterSettings fast(int port, List<Integer> seeds) {
        List<InetSocketAddress> s = new ArrayList<>();
        for (int p : seeds) {
            s.add(new InetSocketAddress("127.0.0.1", p));
        }
        return ClusterSettings.defaults().withClusterName("weft-test").withAddress("127.0.0.1", port).withSeeds(s)
                .withFailureDetection(Duration.ofMillis(500), Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(5),
                        Duration.ofSeconds(3));
    }

    /**
     * The codec: strings only.
     *
     * @return the registry
     */
    public static CodecRegistry codec() {
        return CodecRegistry.builder(MethodHandles.lookup()).build();
    }

    /**
     * Runs the peer.
     *
     * @param args system name, JGroups port, seed ports (comma-separated)
     * @throws Exception if it cannot start
     */
    public static void main(String[] args) throws Exception {
        List<Integer> seeds = new ArrayList<>();
        for (String p : args[2].split(",")) {
            seeds.add(Integer.parseInt(p));
        }
        DISCARD discard = new DISCARD();
        try (ActorSystem system = ActorSystem.create(args[0]);
                Remoting remoting = Remoting.attach(system, codec(), RemoteSettings.defaults());
                ClusterCore cluster = ClusterCore.start(system, remoting, fast(Integer.parseInt(args[1]), seeds),
                        stack -> stack.add(1, discard))) {
            var echo = system.spawn("echo", self -> self.become(Receive.handler().match(String.class, t -> self.reply("echo:" + t)).build()));
            cluster.subscribe(e -> {
                System.out.println("EVENT " + e.status() + " " + e.member());
                System.out.flush();
            });
            System.out.println("READY " + cluster.self() + " " + remoting.addressOf(echo));
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("cut")) {
                    discard.discardAll(true);
                    System.out.println("CUT");
                    System.out.flush();
                }
            }
        }
    }
}
