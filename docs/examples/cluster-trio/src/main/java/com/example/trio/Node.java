package com.example.trio;

import com.example.trio.Protocol.Add;
import com.example.trio.Protocol.Count;
import com.example.trio.Protocol.Counted;
import com.example.trio.Protocol.Tally;
import com.example.trio.Protocol.Who;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Topic;
import io.weft.actors.cluster.Cluster;
import io.weft.actors.cluster.ClusterSettings;
import io.weft.actors.cluster.Discovery;
import io.weft.actors.cluster.ShardingSettings;
import io.weft.actors.cluster.SingletonSettings;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * One cluster member, driven over standard input and output (by {@link Trio}, or by hand).
 *
 * <p>It joins the cluster "trio" on 127.0.0.1, hosts the "ledger" singleton when it is the oldest
 * member, registers an "echo" actor in the cluster registry, subscribes to the topic "news" and
 * inits the sharded entity type "counter". It prints {@code READY <member>}, {@code MEMBERS <n>}
 * after each membership change and {@code NEWS <text>} for each topic message, and reads the
 * commands {@code count} (ask the ledger; prints {@code COUNTED <host> <n>}), {@code who} (ask
 * every echo in the registry; prints {@code WHO <names>}), {@code add <id>,<id>,...} (ask each
 * "counter" entity to add one, all at once; prints {@code TALLIES <id>=<host>:<count> ...} in the
 * order given), {@code publish <text>} and {@code leave} (leave the cluster; prints {@code LEFT}).
 * End of input closes it.
 */
public final class Node {

    private Node() {
    }

    /** The ledger: counts the requests it answers, from zero on each start. */
    private static Supplier<Behavior<Object>> ledger() {
        return () -> self -> {
            long[] count = {0};
            self.become(Receive.handler()
                    .match(Count.class, c -> c.replyTo().tell(new Counted(self.system().name(), ++count[0])))
                    .build());
        };
    }

    /**
     * A "counter" entity: counts the adds it answers, from zero on each start. It lives on one
     * member at a time, wherever the cluster places its shard; its count is not persisted, so an
     * entity that moves (its member left) starts again from zero on its new member.
     */
    private static Function<String, Behavior<Add>> counter() {
        return id -> self -> {
            long[] count = {0};
            self.become(Receive.<Add>handler()
                    .match(Add.class, a -> a.replyTo().tell(new Tally(self.system().name(), id, ++count[0])))
                    .build());
        };
    }

    private static void say(String line) {
        System.out.println(line);
        System.out.flush();
    }

    /**
     * Runs one member.
     *
     * @param args the system's name, its cluster port, and the cluster ports of all three members, comma-separated
     * @throws Exception if it cannot join
     */
    public static void main(String[] args) throws Exception {
        List<InetSocketAddress> seeds = new ArrayList<>();
        for (String p : args[2].split(",")) {
            seeds.add(new InetSocketAddress("127.0.0.1", Integer.parseInt(p)));
        }
        ClusterSettings settings = ClusterSettings.defaults().withClusterName("trio")
                .withAddress("127.0.0.1", Integer.parseInt(args[1]))
                .withDiscovery(Discovery.seeds(seeds))
                // faster than the defaults, for loopback: a silent member is suspected after 3 s
                .withFailureDetection(Duration.ofMillis(500), Duration.ofSeconds(3), Duration.ofSeconds(1), Duration.ofSeconds(5),
                        Duration.ofSeconds(3));
        try (ActorSystem system = ActorSystem.create(args[0]);
                Remoting remoting = Remoting.attach(system, Protocol.codec(), RemoteSettings.defaults());
                Cluster cluster = Cluster.join(system, remoting, settings)) {
            cluster.subscribe(e -> say("MEMBERS " + cluster.members().size()));
            ActorRef<Object> ledger = cluster.singleton("ledger", Props.named("ledger"), ledger(), SingletonSettings.defaults());
            ActorRef<Object> echo = system.spawn("echo", self -> self.become(Receive.handler()
                    .match(Who.class, w -> w.replyTo().tell(self.system().name()))
                    .build()));
            cluster.registry().register("echo", echo);
            // on every member, with the same shard count (the default); entities are never
            // passivated here, so an entity's count changes only when it moves
            cluster.sharding().init("counter", counter(), ShardingSettings.defaults().withPassivateAfter(Duration.ZERO));
            Topic<String> news = Topic.of(system, "news", String.class);
            news.subscribe(system.spawn("reader", self -> self.become(Receive.handler()
                    .match(String.class, text -> say("NEWS " + text))
                    .build())));
            say("READY " + cluster.self());

            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("count")) {
                    Counted c = (Counted) system.askWith(ledger, Count::new, Duration.ofSeconds(20)).get();
                    say("COUNTED " + c.host() + " " + c.count());
                } else if (line.equals("who")) {
                    TreeSet<String> names = new TreeSet<>();
                    for (ActorRef<Object> e : cluster.registry().lookup("echo")) {
                        names.add((String) system.askWith(e, Who::new, Duration.ofSeconds(20)).get());
                    }
                    say("WHO " + String.join(",", names));
                } else if (line.startsWith("add ")) {
                    List<CompletableFuture<Tally>> asks = new ArrayList<>();
                    for (String id : line.substring("add ".length()).split(",")) {
                        ActorRef<Add> entity = cluster.sharding().entityRef("counter", id);
                        asks.add(system.askWith(entity, Add::new, Duration.ofSeconds(20)));
                    }
                    StringBuilder out = new StringBuilder("TALLIES");
                    for (CompletableFuture<Tally> a : asks) {
                        Tally t = a.get();
                        out.append(' ').append(t.id()).append('=').append(t.host()).append(':').append(t.count());
                    }
                    say(out.toString());
                } else if (line.startsWith("publish ")) {
                    news.publish(line.substring("publish ".length()));
                } else if (line.equals("leave")) {
                    cluster.leave();
                    say("LEFT");
                }
            }
        }
    }
}
