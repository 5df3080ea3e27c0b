package io.weft.actors.cluster;

import io.weft.actors.ActorSystem;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Resources;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The multi-JVM tests' in-process member "a": a system, its remoting and its cluster (with
 * {@link ClusterPeerMain}'s codec and fast settings), and the member events it sees.
 */
record LocalNode(ActorSystem system, Remoting remoting, Cluster cluster, BlockingQueue<MemberEvent> events) {

    /** Starts the member on {@code port} with the three {@code seeds}; {@code open} closes it after the test. */
    static LocalNode start(Resources open, int port, int[] seeds) throws Exception {
        ActorSystem system = open.keep(ActorSystem.create("a"));
        Remoting remoting = open.keep(Remoting.attach(system, ClusterPeerMain.codec(), RemoteSettings.defaults()));
        Cluster cluster = open.keep(Cluster.join(system, remoting, ClusterPeerMain.fast(port, List.of(seeds[0], seeds[1], seeds[2]))));
        BlockingQueue<MemberEvent> events = new LinkedBlockingQueue<>();
        cluster.subscribe(events::add);
        return new LocalNode(system, remoting, cluster, events);
    }
}
