package io.weft.actors.cluster;

import io.weft.actors.ActorSystem;
import io.weft.actors.cluster.internal.ClusterCore;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Conditions;
import io.weft.actors.runtime.testing.Ports;
import io.weft.actors.runtime.testing.Resources;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jgroups.stack.Protocol;

/**
 * Cluster members in one JVM for tests: each member is an actor system, its remoting (the peer
 * codec of {@link ClusterPeerMain}) and a cluster joined with {@link ClusterPeerMain#fast} settings
 * on a free loopback port. {@link #close()} closes everything it started (and everything passed
 * to {@link #keep}) in reverse order; a test holds one and closes it in {@code @AfterEach}.
 * (Not {@code AutoCloseable}: its {@code close()} may throw InterruptedException, which {@code -Xlint:try} rejects.)
 */
final class InJvmMembers {

    /** One member: its system, remoting and cluster. */
    record Node(ActorSystem system, Remoting remoting, Cluster cluster) {
    }

    private final Resources open = new Resources();

    /** Closes {@code c} with the members, after everything kept later. */
    <T extends AutoCloseable> T keep(T c) {
        return open.keep(c);
    }

    /**
     * {@code n} free loopback ports, to use as each other's seeds: below the kernel's ephemeral
     * range, so that an outgoing connection of an earlier member (whose local port is ephemeral)
     * cannot take one between its pick and its bind, and each with the port 100 above it free too
     * (JGroups' FD_SOCK2).
     */
    static List<Integer> freePorts(int n) {
        List<Integer> ports = new ArrayList<>();
        for (int p : Ports.freePairs(n, 100)) {
            ports.add(p);
        }
        return List.copyOf(ports);
    }

    /** Attaches remoting (default settings) to {@code system} and joins the cluster on {@code port} with {@code seeds}. */
    Node join(ActorSystem system, int port, List<Integer> seeds) throws Exception {
        return join(system, RemoteSettings.defaults(), ClusterPeerMain.fast(port, seeds), null);
    }

    /**
     * Attaches remoting with {@code remote} to {@code system} and joins the cluster with {@code settings};
     * {@code stackHook} (may be null) edits the JGroups protocol list, as {@link ClusterCore#start} describes.
     */
    Node join(ActorSystem system, RemoteSettings remote, ClusterSettings settings, Consumer<List<Protocol>> stackHook) throws Exception {
        Remoting r = keep(Remoting.attach(system, ClusterPeerMain.codec(), remote));
        return new Node(system, r, keep(ClusterCore.start(system, r, settings, stackHook)));
    }

    /** Creates a system named {@code name} and joins it as {@link #join(ActorSystem, RemoteSettings, ClusterSettings, Consumer)} does. */
    Node start(String name, RemoteSettings remote, ClusterSettings settings, Consumer<List<Protocol>> stackHook) throws Exception {
        return join(keep(ActorSystem.create(name)), remote, settings, stackHook);
    }

    /** Creates a system named {@code name} and joins it as {@link #join(ActorSystem, int, List)} does. */
    Node start(String name, int port, List<Integer> seeds) throws Exception {
        return join(keep(ActorSystem.create(name)), port, seeds);
    }

    /** Starts one member per name, all seeds of each other, and waits (at most 30 s) until each sees all of them. */
    List<Node> start(String... names) throws Exception {
        List<Integer> seeds = freePorts(names.length);
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < names.length; i++) {
            out.add(start(names[i], seeds.get(i), seeds));
        }
        for (Node n : out) {
            awaitMembers(n.cluster(), names.length);
        }
        return out;
    }

    /** Waits (at most 30 s) until {@code c} sees {@code n} members. */
    static void awaitMembers(Cluster c, int n) {
        Conditions.await(Conditions.LONG, () -> c.members().size() == n, () -> c.self() + " sees " + n + " members: " + c.members());
    }

    /** Closes everything started or kept, last first; rethrows the first failure, the others suppressed. */
    public void close() throws Exception {
        open.closeAll();
    }
}
