package io.weft.actors.bench.cluster;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;
import org.apache.pekko.cluster.Cluster;
import org.apache.pekko.cluster.Member;
import org.apache.pekko.cluster.MemberStatus;
import org.apache.pekko.cluster.sharding.ClusterSharding;
import org.apache.pekko.cluster.sharding.ClusterShardingSettings;
import org.apache.pekko.cluster.sharding.ShardRegion;
import org.apache.pekko.pattern.Patterns;

/**
 * A member of a Pekko cluster (classic remoting, Artery TCP on 127.0.0.1) hosting the classic
 * Cluster Sharding region of the bench's entity type. The first member (index 0) is the only seed
 * node, so it is the oldest and hosts the shard coordinator; downing is Pekko's split-brain
 * resolver, keep-majority, with the timings of {@link FailureDetection}. Passivation and the
 * sharding settings are Pekko's defaults (ddata coordinator state, idle passivation after 2 min).
 */
final class PekkoNode implements BenchNode {

    private final ActorSystem system;
    private final ActorRef region;

    private PekkoNode(ActorSystem system, ActorRef region) {
        this.system = system;
        this.region = region;
    }

    /**
     * Starts a member, joins it through the seed (the member on {@code ports[0]}) and waits until it is up.
     *
     * @param index this member's index into {@code ports}
     * @param ports every member's Artery port
     * @return the member, up, its region started
     * @throws Exception if it is not up within 60 s
     */
    static PekkoNode start(int index, int[] ports) throws Exception {
        ActorSystem system = ActorSystem.create("bench", config(ports[index], ports[0]));
        CountDownLatch up = new CountDownLatch(1);
        Cluster.get(system).registerOnMemberUp(up::countDown);
        if (!up.await(60, TimeUnit.SECONDS)) {
            system.terminate();
            throw new IllegalStateException("pekko member " + index + " on port " + ports[index] + " not up within 60 s");
        }
        ActorRef region = ClusterSharding.get(system).start(TYPE, Props.create(Entity.class), ClusterShardingSettings.create(system),
                new Extractor());
        return new PekkoNode(system, region);
    }

    private static Config config(int port, int seedPort) {
        return ConfigFactory.parseString("""
                pekko {
                  loglevel = "WARNING"
                  stdout-loglevel = "OFF"
                  log-dead-letters = off
                  jvm-shutdown-hooks = off
                  coordinated-shutdown.run-by-jvm-shutdown-hook = off
                  coordinated-shutdown.run-by-actor-system-terminate = off
                  actor.provider = cluster
                  actor.allow-java-serialization = off
                  remote.artery {
                    transport = tcp
                    canonical.hostname = "127.0.0.1"
                    canonical.port = %d
                  }
                  cluster {
                    seed-nodes = ["pekko://bench@127.0.0.1:%d"]
                    jmx.enabled = off
                    log-info = off
                    downing-provider-class = "org.apache.pekko.cluster.sbr.SplitBrainResolverProvider"
                    split-brain-resolver {
                      active-strategy = keep-majority
                      stable-after = %dms
                    }
                    failure-detector {
                      heartbeat-interval = %dms
                      acceptable-heartbeat-pause = %dms
                    }
                  }
                }
                """.formatted(port, seedPort, FailureDetection.STABLE_AFTER.toMillis(), FailureDetection.HEARTBEAT.toMillis(),
                FailureDetection.TIMEOUT.toMillis())).withFallback(ConfigFactory.load());
    }

    @Override
    public CompletableFuture<Object> ask(String entityId, Duration timeout) {
        return Patterns.ask(region, entityId, timeout).toCompletableFuture();
    }

    @Override
    public int membersUp() {
        int n = 0;
        for (Member m : Cluster.get(system).state().getMembers()) {
            if (m.status() == MemberStatus.up()) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("pekko member did not terminate within 30 s", e);
        }
    }

    /** The entity: answers each message with itself. */
    static final class Entity extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder().matchAny(m -> getSender().tell(m, getSelf())).build();
        }
    }

    /** The message is the entity id; the shard is the id's hash modulo {@link #SHARDS}. */
    private static final class Extractor implements ShardRegion.MessageExtractor {
        @Override
        public String entityId(Object message) {
            if (message instanceof ShardRegion.StartEntity s) {
                return s.entityId();
            }
            return message instanceof String s ? s : null;
        }

        @Override
        public Object entityMessage(Object message) {
            return message;
        }

        @Override
        public String shardId(Object message) {
            String id = entityId(message);
            return id == null ? null : Integer.toString(Math.floorMod(id.hashCode(), SHARDS));
        }
    }
}
