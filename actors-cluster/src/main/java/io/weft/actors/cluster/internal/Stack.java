package io.weft.actors.cluster.internal;

import io.weft.actors.cluster.ClusterSettings;
import io.weft.actors.cluster.Discovery;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import org.jgroups.protocols.FD_ALL3;
import org.jgroups.protocols.FD_SOCK2;
import org.jgroups.protocols.FRAG2;
import org.jgroups.protocols.MERGE3;
import org.jgroups.protocols.TCP;
import org.jgroups.protocols.TCPPING;
import org.jgroups.protocols.UNICAST3;
import org.jgroups.protocols.VERIFY_SUSPECT2;
import org.jgroups.protocols.dns.DNS_PING;
import org.jgroups.protocols.pbcast.GMS;
import org.jgroups.protocols.pbcast.NAKACK2;
import org.jgroups.protocols.pbcast.STABLE;
import org.jgroups.stack.Protocol;

/** Builds the JGroups protocol stack from the settings, bottom (transport) first. */
final class Stack {

    /* design
     * The stock tcp.xml without flow control and state transfer (the cluster sends view changes,
     * a leave announcement and the registry's small entry sets, no bulk traffic), with the failure detection tuned by the settings:
     * FD_SOCK2 notices a closed process at once (its socket closes), FD_ALL3 a silent one after
     * failureTimeout, VERIFY_SUSPECT2 checks a suspicion for verifyTimeout before GMS excludes the
     * member. MERGE3 checks for subgroups between mergeInterval/4 and mergeInterval.
     *
     * Discovery, the protocol right above the transport, follows ClusterSettings.discovery:
     * TCPPING with the seeds (this node's own address when there are none), DNS_PING with A
     * records (each address asked on this node's TCP port, the range being 0) or SRV records
     * (host and port from each record), or KUBE_PING, which lives in the separate jar
     * jgroups-kubernetes: it is loaded by name so that the module does not depend on it, and
     * its absence is an error naming the jar and the alternative (a headless service by DNS).
     */

    /** KUBE_PING's class, in org.jgroups.kubernetes:jgroups-kubernetes. */
    static final String KUBE_PING = "org.jgroups.protocols.kubernetes.KUBE_PING";

    private Stack() {
    }

    static List<Protocol> protocols(ClusterSettings s) throws UnknownHostException {
        InetAddress bind = InetAddress.getByName(s.host());
        long merge = s.mergeInterval().toMillis();
        List<Protocol> p = new ArrayList<>();
        p.add(new TCP().setBindAddr(bind).setBindPort(s.port()).setPortRange(0));
        p.add(discovery(s, bind));
        p.add(new MERGE3().setMinInterval(Math.max(100, merge / 4)).setMaxInterval(merge));
        p.add(new FD_SOCK2().setBindAddress(bind));
        p.add(new FD_ALL3().setTimeout(s.failureTimeout().toMillis()).setInterval(s.heartbeatInterval().toMillis()));
        p.add(new VERIFY_SUSPECT2().setTimeout(s.verifyTimeout().toMillis()));
        p.add(new NAKACK2().useMcastXmit(false));
        p.add(new UNICAST3());
        p.add(new STABLE().setDesiredAverageGossip(5_000).setMaxBytes(1 << 20));
        p.add(new GMS().setJoinTimeout(s.joinTimeout().toMillis()).setLeaveTimeout(1_000).printLocalAddress(false));
        p.add(new FRAG2());
        return p;
    }

    /** The discovery protocol for the settings. */
    static Protocol discovery(ClusterSettings s, InetAddress bind) {
        return switch (s.discovery()) {
            case Discovery.Seeds seeds -> {
                List<InetSocketAddress> hosts = new ArrayList<>(seeds.addresses());
                if (hosts.isEmpty()) {
                    hosts.add(new InetSocketAddress(bind, s.port()));
                }
                yield new TCPPING().setInitialHosts(hosts).setPortRange(0);
            }
            case Discovery.Dns dns -> new DNS_PING().dnsQuery(dns.query()).dnsRecordType(dns.srv() ? "SRV" : "A");
            case Discovery.Kubernetes k -> kubePing(k, KUBE_PING);
        };
    }

    /** KUBE_PING, loaded by name (its jar is optional). */
    static Protocol kubePing(Discovery.Kubernetes k, String className) {
        Class<?> c;
        try {
            c = Class.forName(className, true, Protocol.class.getClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalStateException("Discovery.kubernetes(\"" + k.namespace() + "\", " + k.labels() + ") needs JGroups' KUBE_PING ("
                    + className + "), which is not on the class or module path: add the jar org.jgroups.kubernetes:jgroups-kubernetes "
                    + "(a release for JGroups 5), or use Discovery.dns with the name of a headless service selecting the pods", e);
        }
        try {
            Protocol p = (Protocol) c.getDeclaredConstructor().newInstance();
            p.setValue("namespace", k.namespace());
            p.setValue("labels", k.selector());
            return p;
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalStateException("Discovery.kubernetes: " + className + " was found but could not be set up with namespace \""
                    + k.namespace() + "\" and labels \"" + k.selector() + "\" (" + e + "); check that the jgroups-kubernetes jar is a "
                    + "release for JGroups 5", e);
        }
    }
}
