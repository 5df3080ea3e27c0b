package io.weft.actors.remote.internal.remoting;

import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.transport.Lane;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;

/**
 * The JFR events of the remoting layer, named {@code io.weft.Remote*} in the category
 * {@code Weft / Remote}, as the runtime's {@code io.weft.*} events are.
 *
 * <p>{@link RemoteAssociation} (handshake done, handshake timeout, link lost, quarantined) and
 * {@link RemoteDrop} (a counted drop) are rare and on by default. {@link RemoteLane} (bytes,
 * messages and queue depth per lane) and {@link RemotePeer} (phi, queue depths, state per peer)
 * are periodic, every second by default, emitted by hooks registered once with
 * {@link FlightRecorder#addPeriodicEvent} for every attached remoting of the JVM.
 */
final class RemoteEvents {

    /* design
     * The periodic hooks are registered once per JVM (in this class's initializer) and walk the
     * set of live RemotingCores: a core joins on start and leaves on close, so a closed remoting
     * is never reported and its hooks leave nothing behind. Each emitting method asks its
     * EventType.isEnabled() (a field read) first, so a disabled event costs no allocation.
     */

    static final String HANDSHAKE_DONE = "HANDSHAKE_DONE";
    static final String HANDSHAKE_TIMEOUT = "HANDSHAKE_TIMEOUT";
    static final String LINK_LOST = "LINK_LOST";
    static final String QUARANTINED = "QUARANTINED";

    private static final EventType ASSOCIATION_TYPE = EventType.getEventType(RemoteAssociation.class);
    private static final EventType DROP_TYPE = EventType.getEventType(RemoteDrop.class);
    private static final Set<RemotingCore> CORES = ConcurrentHashMap.newKeySet();

    static {
        FlightRecorder.addPeriodicEvent(RemoteLane.class, RemoteEvents::emitLanes);
        FlightRecorder.addPeriodicEvent(RemotePeer.class, RemoteEvents::emitPeers);
    }

    private RemoteEvents() {
    }

    /** A change of an association's state. */
    @Name("io.weft.RemoteAssociation")
    @Label("Remote Association")
    @Category({"Weft", "Remote"})
    @Description("A handshake with a peer completed or timed out, a link was lost, or a peer incarnation was quarantined")
    @StackTrace(false)
    static final class RemoteAssociation extends Event {
        @Label("System")
        String system;
        @Label("Peer")
        @Description("host:port of the peer")
        String peer;
        @Label("Peer System")
        String peerSystem;
        @Label("Peer Incarnation")
        @Description("0 while no handshake named it")
        long incarnation;
        @Label("State")
        @Description("HANDSHAKE_DONE, HANDSHAKE_TIMEOUT, LINK_LOST or QUARANTINED")
        String state;
        @Label("Reason")
        String reason;
    }

    /** One counted drop. */
    @Name("io.weft.RemoteDrop")
    @Label("Remote Drop")
    @Category({"Weft", "Remote"})
    @Description("An outbound message went to dead letters, or an inbound frame or message was refused")
    @StackTrace(false)
    static final class RemoteDrop extends Event {
        @Label("System")
        String system;
        @Label("Reason")
        @Description("The RemoteMetrics.Drop reason")
        String reason;
        @Label("Lane")
        @Description("CONTROL, ORDINARY or LARGE; empty when not known")
        String lane;
        @Label("Peer")
        @Description("host:port of the peer, or the inbound link's remote address; empty when not known")
        String peer;
    }

    /** Totals of one lane. */
    @Name("io.weft.RemoteLane")
    @Label("Remote Lane")
    @Category({"Weft", "Remote"})
    @Description("Bytes and messages sent and received on a lane since the remoting started, and its outbound queue depth now")
    @StackTrace(false)
    @Period("1 s")
    static final class RemoteLane extends Event {
        @Label("System")
        String system;
        @Label("Lane")
        String lane;
        @Label("Bytes Sent")
        @DataAmount
        long bytesSent;
        @Label("Bytes Received")
        @DataAmount
        long bytesReceived;
        @Label("Messages Sent")
        long messagesSent;
        @Label("Messages Received")
        long messagesReceived;
        @Label("Queue Depth")
        @Description("Messages waiting in this lane's outbound queues, over all peers")
        int queueDepth;
    }

    /** The state of one peer. */
    @Name("io.weft.RemotePeer")
    @Label("Remote Peer")
    @Category({"Weft", "Remote"})
    @Description("The failure detector's phi, the outbound queue depths and the state of one associated peer")
    @StackTrace(false)
    @Period("1 s")
    static final class RemotePeer extends Event {
        @Label("System")
        String system;
        @Label("Peer")
        String peer;
        @Label("Peer System")
        String peerSystem;
        @Label("Peer Incarnation")
        long incarnation;
        @Label("Phi")
        @Description("The phi-accrual detector's value now; 0 before the first heartbeat")
        double phi;
        @Label("Established")
        boolean established;
        @Label("Gated")
        @Description("A handshake timeout closed the gate and it has not opened yet")
        boolean gated;
        @Label("Ordinary Queue Depth")
        int ordinaryDepth;
        @Label("Large Queue Depth")
        int largeDepth;
        @Label("Control Queue Depth")
        int controlDepth;
    }

    static void started(RemotingCore core) {
        CORES.add(core);
    }

    static void closed(RemotingCore core) {
        CORES.remove(core);
    }

    static void association(RemotingCore core, Association a, String state, String reason) {
        if (!ASSOCIATION_TYPE.isEnabled()) {
            return;
        }
        RemoteAssociation e = new RemoteAssociation();
        e.system = core.system.name();
        e.peer = a.hostPort;
        e.peerSystem = a.system;
        e.incarnation = a.peerIncarnation;
        e.state = state;
        e.reason = reason;
        e.commit();
    }

    static void drop(RemotingCore core, RemoteMetrics.Drop why, Lane lane, String peer) {
        if (!DROP_TYPE.isEnabled()) {
            return;
        }
        RemoteDrop e = new RemoteDrop();
        e.system = core.system.name();
        e.reason = why.name();
        e.lane = lane == null ? "" : lane.name();
        e.peer = peer == null ? "" : peer;
        e.commit();
    }

    private static void emitLanes() {
        for (RemotingCore core : CORES) {
            RemoteMetrics m = core.metrics();
            for (Lane lane : Lane.values()) {
                RemoteLane e = new RemoteLane();
                e.system = core.system.name();
                e.lane = lane.name();
                e.bytesSent = m.bytesSent(lane);
                e.bytesReceived = m.bytesReceived(lane);
                e.messagesSent = m.messagesSent(lane);
                e.messagesReceived = m.messagesReceived(lane);
                e.queueDepth = m.queueDepth(lane);
                e.commit();
            }
        }
    }

    private static void emitPeers() {
        long now = System.currentTimeMillis();
        for (RemotingCore core : CORES) {
            for (Association a : core.associations().values()) {
                RemotePeer e = new RemotePeer();
                e.system = core.system.name();
                e.peer = a.hostPort;
                e.peerSystem = a.system;
                e.incarnation = a.peerIncarnation;
                PhiAccrual d = a.detector;
                e.phi = d == null ? 0 : d.phi(now);
                e.established = a.isEstablished();
                e.gated = a.gated();
                e.ordinaryDepth = a.depth(Lane.ORDINARY);
                e.largeDepth = a.depth(Lane.LARGE);
                e.controlDepth = a.depth(Lane.CONTROL);
                e.commit();
            }
        }
    }
}
