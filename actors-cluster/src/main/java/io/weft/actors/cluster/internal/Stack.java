package io.weft.actors.cluster.internal;

import io.weft.actors.cluster.ClusterSettings;
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
     */

    private Stack() {
    }

    static List<Protocol> protocols(ClusterSettings s) throws UnknownHostException {
        InetAddress bind = InetAddress.getByName(s.host());
        List<InetSocketAddress> seeds = new ArrayList<>(s.seeds());
        if (seeds.isEmpty()) {
            seeds.add(new InetSocketAddress(bind, s.port()));
        }
        long merge = s.mergeInterval().toMillis();
        List<Protocol> p = new ArrayList<>();
        p.add(new TCP().setBindAddr(bind).setBindPort(s.port()).setPortRange(0));
        p.add(new TCPPING().setInitialHosts(seeds).setPortRange(0));
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
}
