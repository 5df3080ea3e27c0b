package io.weft.actors.cluster;

import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * A cluster member hosting the sharded type "counter" and the singleton "ledger", in its own JVM,
 * driven over stdin and stdout like {@link ClusterPeerMain}: prints {@code READY <member> <echo
 * address>} and {@code EVENT <status> <member>}; reads {@code stats <tag>} (prints {@code STATS <tag>
 * <lost with node> <buffer dropped> <local entities>}), {@code leave} (leaves gracefully, prints
 * {@code LEFT} and exits) and end of input (leaves and exits).
 */
public final class ShardingPeerMain {

    static final String TYPE = "counter";
    static final String SINGLETON = "ledger";

    private ShardingPeerMain() {
    }

    /**
     * The entities: each answers a message that has a sender with "host:id:n", n counting the
     * messages its incarnation handled.
     *
     * @return the factory
     */
    static Function<String, Behavior<String>> counter() {
        return id -> self -> {
            String host = self.system().name();
            int[] n = {0};
            self.become(Receive.<String>handler().match(String.class, m -> {
                n[0]++;
                if (self.sender() != null) {
                    self.reply(host + ":" + id + ":" + n[0]);
                }
            }).build());
        };
    }

    /**
     * The singleton: answers with its host's system name.
     *
     * @return the behavior
     */
    static Behavior<String> ledger() {
        return self -> self.become(Receive.<String>handler().match(String.class, m -> self.reply(self.system().name())).build());
    }

    /**
     * Registers the type and the singleton on a member.
     *
     * @param cluster the member
     */
    static void host(Cluster cluster) {
        cluster.sharding().init(TYPE, counter(), ShardingSettings.defaults().withPassivateAfter(java.time.Duration.ZERO));
        cluster.singleton(SINGLETON, Props.named(SINGLETON), ShardingPeerMain::ledger, SingletonSettings.defaults());
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
        try (ActorSystem system = ActorSystem.create(args[0]);
                Remoting remoting = Remoting.attach(system, ClusterPeerMain.codec(), RemoteSettings.defaults());
                Cluster cluster = Cluster.join(system, remoting, ClusterPeerMain.fast(Integer.parseInt(args[1]), seeds))) {
            var echo = system.spawn("echo", self -> self.become(Receive.handler().match(String.class, t -> self.reply("echo:" + t)).build()));
            cluster.subscribe(e -> {
                System.out.println("EVENT " + e.status() + " " + e.member());
                System.out.flush();
            });
            host(cluster);
            System.out.println("READY " + cluster.self() + " " + remoting.addressOf(echo));
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.startsWith("stats ")) {
                    ClusterSharding s = cluster.sharding();
                    System.out.println("STATS " + line.substring(6) + " " + s.lostWithNode(TYPE) + " " + s.bufferDropped(TYPE) + " " + s.localEntityCount(TYPE));
                    System.out.flush();
                } else if (line.equals("leave")) {
                    cluster.leave();
                    ClusterSharding s = cluster.sharding();
                    System.out.println("LEFT " + s.lostWithNode(TYPE) + " " + s.bufferDropped(TYPE));
                    System.out.flush();
                    break;
                }
            }
        }
    }
}
