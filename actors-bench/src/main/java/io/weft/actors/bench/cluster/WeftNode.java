package io.weft.actors.bench.cluster;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Receive;
import io.weft.actors.cluster.Cluster;
import io.weft.actors.cluster.ClusterSettings;
import io.weft.actors.cluster.ClusterSharding;
import io.weft.actors.cluster.Member;
import io.weft.actors.cluster.MemberStatus;
import io.weft.actors.cluster.ShardingSettings;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import java.lang.invoke.MethodHandles;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A member of a Weft cluster (JGroups membership, remoting over gRPC on 127.0.0.1) hosting the
 * bench's entity type through {@link ClusterSharding}. Every member's JGroups port is a seed; the
 * failure-detection timings are {@link FailureDetection}'s, keep-majority split-brain rule, and the
 * sharding settings are the defaults but for {@link BenchNode#SHARDS} shards.
 */
final class WeftNode implements BenchNode {

    private final ActorSystem system;
    private final Remoting remoting;
    private final Cluster cluster;
    private final ClusterSharding sharding;
    private final ConcurrentMap<String, ActorRef<String>> refs = new ConcurrentHashMap<>();

    private WeftNode(ActorSystem system, Remoting remoting, Cluster cluster) {
        this.system = system;
        this.remoting = remoting;
        this.cluster = cluster;
        this.sharding = cluster.sharding();
    }

    /**
     * Starts a member, joins the cluster and registers the entity type.
     *
     * @param index this member's index into {@code ports}
     * @param ports every member's JGroups port
     * @return the member, up, hosting the type
     * @throws Exception if it cannot join
     */
    static WeftNode start(int index, int[] ports) throws Exception {
        List<InetSocketAddress> seeds = new ArrayList<>();
        for (int p : ports) {
            seeds.add(new InetSocketAddress("127.0.0.1", p));
        }
        ClusterSettings settings = ClusterSettings.defaults().withClusterName("weft-bench").withAddress("127.0.0.1", ports[index])
                .withSeeds(seeds).withFailureDetection(FailureDetection.HEARTBEAT, FailureDetection.TIMEOUT, FailureDetection.VERIFY,
                        FailureDetection.MERGE, FailureDetection.STABLE_AFTER);
        ActorSystem system = ActorSystem.create("bench-" + index);
        Remoting remoting = null;
        try {
            remoting = Remoting.attach(system, CodecRegistry.builder(MethodHandles.lookup()).build(), RemoteSettings.defaults());
            Cluster cluster = Cluster.join(system, remoting, settings);
            WeftNode node = new WeftNode(system, remoting, cluster);
            node.sharding.init(TYPE, WeftNode::entity, ShardingSettings.defaults().withShards(SHARDS));
            return node;
        } catch (Exception | Error e) {
            if (remoting != null) {
                remoting.close();
            }
            system.close();
            throw e;
        }
    }

    /** The entity: answers each message with itself. */
    private static Behavior<String> entity(String id) {
        return self -> self.become(Receive.<String>handler().match(String.class, self::reply).build());
    }

    @Override
    public CompletableFuture<Object> ask(String entityId, Duration timeout) {
        ActorRef<String> ref = refs.computeIfAbsent(entityId, id -> sharding.entityRef(TYPE, id));
        return system.ask(ref, entityId, timeout);
    }

    @Override
    public int membersUp() {
        int n = 0;
        for (Member m : cluster.members()) {
            if (cluster.status(m) == MemberStatus.UP) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        try {
            cluster.close();
        } finally {
            try {
                remoting.close();
            } finally {
                system.close();
            }
        }
    }
}
