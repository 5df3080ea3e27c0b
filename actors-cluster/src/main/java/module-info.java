/**
 * Weft's cluster membership on JGroups: {@link io.weft.actors.cluster.Cluster#join} joins a
 * system with its {@link io.weft.actors.remote.Remoting} to a group, publishes member states as
 * {@link io.weft.actors.cluster.MemberEvent}s, downs the minority side of a partition and
 * quarantines removed members in the remote layer; {@link io.weft.actors.cluster.ClusterRegistry}
 * maps names to actors cluster-wide, and {@link io.weft.actors.cluster.Cluster#singleton} runs one
 * instance of an actor on the oldest member behind a buffering proxy, and
 * {@link io.weft.actors.cluster.Cluster#sharding} runs sharded entities: actors addressed by type
 * and id, placed by shard on the members and moved when the membership changes.
 *
 * <p>JGroups' jar is an automatic module (it names itself {@code org.jgroups} in its manifest),
 * hence the suppressed lint.
 */
@SuppressWarnings("requires-automatic")
module io.weft.actors.cluster {
    requires transitive io.weft.actors.remote;
    requires org.jgroups;
    requires java.management;

    exports io.weft.actors.cluster;
}
