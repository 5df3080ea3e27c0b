package io.weft.actors.cluster;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * How a node joins and watches the cluster; {@link #defaults()} changed with {@code with...}
 * copies. Immutable.
 *
 * @param clusterName the JGroups cluster name; nodes with different names never meet
 * @param host the address JGroups binds to and advertises
 * @param port the JGroups TCP port (its FD_SOCK2 failure-detection socket binds 100 above it)
 * @param discovery how the node finds the others: static seeds (the default, none), DNS or Kubernetes
 * @param heartbeatInterval FD_ALL3's heartbeat interval
 * @param failureTimeout FD_ALL3's timeout: a member silent this long is suspected
 * @param verifyTimeout VERIFY_SUSPECT2's timeout: how long a suspicion is checked before the member is excluded
 * @param mergeInterval MERGE3's maximum interval between merge checks (the minimum is a quarter of it)
 * @param joinTimeout GMS's join timeout: how long a join request waits for an answer from the coordinator
 * @param stableAfter how long a view must last, after a member left it, before it becomes the
 *     membership the split-brain rule compares with
 * @param splitBrain the split-brain strategy
 * @param terminateOnDown whether a node that downs itself also closes its actor system
 */
public record ClusterSettings(String clusterName, String host, int port, Discovery discovery, Duration heartbeatInterval,
        Duration failureTimeout, Duration verifyTimeout, Duration mergeInterval, Duration joinTimeout, Duration stableAfter,
        SplitBrain splitBrain, boolean terminateOnDown) {

    /**
     * Checks the values.
     *
     * @param clusterName the cluster name
     * @param host the host
     * @param port the port
     * @param discovery the discovery
     * @param heartbeatInterval the heartbeat interval
     * @param failureTimeout the failure timeout
     * @param verifyTimeout the verify timeout
     * @param mergeInterval the merge interval
     * @param joinTimeout the join timeout
     * @param stableAfter the stability window
     * @param splitBrain the strategy
     * @param terminateOnDown whether to close the system when downed
     */
    public ClusterSettings {
        Objects.requireNonNull(clusterName, "clusterName");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(splitBrain, "splitBrain");
        Objects.requireNonNull(discovery, "cluster settings: discovery is null; use Discovery.seeds(List.of()) for none");
        if (port <= 0 || port > 65535 - 200) {
            throw new IllegalArgumentException("cluster port " + port + ": must be 1.." + (65535 - 200)
                    + " (FD_SOCK2 binds 100 above it)");
        }
        for (Duration d : new Duration[] {heartbeatInterval, failureTimeout, verifyTimeout, mergeInterval, joinTimeout, stableAfter}) {
            if (d.isNegative() || d.isZero()) {
                throw new IllegalArgumentException("cluster settings: durations must be positive, got " + d);
            }
        }
        if (failureTimeout.compareTo(heartbeatInterval.multipliedBy(2)) < 0) {
            throw new IllegalArgumentException("cluster settings: failureTimeout " + failureTimeout
                    + " must be at least twice the heartbeatInterval " + heartbeatInterval + ", or a member is suspected between two heartbeats");
        }
    }

    /**
     * The defaults: cluster "weft" on 127.0.0.1:7800 with no seeds, heartbeat 1 s, failure
     * timeout 5 s, verification 1.5 s, merge checks within 10 s, join timeout 2 s, stable after
     * 5 s, keep-majority, the system left running when downed.
     *
     * @return the defaults
     */
    public static ClusterSettings defaults() {
        return new ClusterSettings("weft", "127.0.0.1", 7800, Discovery.seeds(List.of()), Duration.ofSeconds(1), Duration.ofSeconds(5),
                Duration.ofMillis(1500), Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofSeconds(5), SplitBrain.KEEP_MAJORITY, false);
    }

    /**
     * A copy with another cluster name.
     *
     * @param name the name
     * @return the copy
     */
    public ClusterSettings withClusterName(String name) {
        return new ClusterSettings(name, host, port, discovery, heartbeatInterval, failureTimeout, verifyTimeout, mergeInterval, joinTimeout,
                stableAfter, splitBrain, terminateOnDown);
    }

    /**
     * A copy binding JGroups to another address.
     *
     * @param bindHost the host
     * @param bindPort the port
     * @return the copy
     */
    public ClusterSettings withAddress(String bindHost, int bindPort) {
        return new ClusterSettings(clusterName, bindHost, bindPort, discovery, heartbeatInterval, failureTimeout, verifyTimeout, mergeInterval,
                joinTimeout, stableAfter, splitBrain, terminateOnDown);
    }

    /**
     * A copy with other static seeds (TCPPING's initial hosts): {@code withDiscovery(Discovery.seeds(seedNodes))}.
     *
     * @param seedNodes the JGroups addresses (host and cluster port) of the seed nodes
     * @return the copy
     * @throws IllegalArgumentException if an address is null or unresolved
     */
    public ClusterSettings withSeeds(List<InetSocketAddress> seedNodes) {
        return withDiscovery(Discovery.seeds(seedNodes));
    }

    /**
     * A copy with another way to find the members: {@link Discovery#seeds}, {@link Discovery#dns},
     * {@link Discovery#dnsSrv} or {@link Discovery#kubernetes}.
     *
     * @param how the discovery
     * @return the copy
     */
    public ClusterSettings withDiscovery(Discovery how) {
        return new ClusterSettings(clusterName, host, port, how, heartbeatInterval, failureTimeout, verifyTimeout, mergeInterval,
                joinTimeout, stableAfter, splitBrain, terminateOnDown);
    }

    /**
     * The static seeds, when the discovery is {@link Discovery#seeds}.
     *
     * @return the seeds' addresses; empty for DNS or Kubernetes discovery
     */
    public List<InetSocketAddress> seeds() {
        return discovery instanceof Discovery.Seeds s ? s.addresses() : List.of();
    }

    /**
     * A copy with other failure-detection timings.
     *
     * @param heartbeat FD_ALL3's interval
     * @param timeout FD_ALL3's timeout
     * @param verify VERIFY_SUSPECT2's timeout
     * @param merge MERGE3's maximum interval
     * @param stable the split-brain rule's stability window
     * @return the copy
     */
    public ClusterSettings withFailureDetection(Duration heartbeat, Duration timeout, Duration verify, Duration merge, Duration stable) {
        return new ClusterSettings(clusterName, host, port, discovery, heartbeat, timeout, verify, merge, joinTimeout, stable, splitBrain,
                terminateOnDown);
    }

    /**
     * A copy with another split-brain strategy.
     *
     * @param strategy the strategy
     * @param terminate whether a node that downs itself closes its actor system
     * @return the copy
     */
    public ClusterSettings withSplitBrain(SplitBrain strategy, boolean terminate) {
        return new ClusterSettings(clusterName, host, port, discovery, heartbeatInterval, failureTimeout, verifyTimeout, mergeInterval,
                joinTimeout, stableAfter, strategy, terminate);
    }
}
