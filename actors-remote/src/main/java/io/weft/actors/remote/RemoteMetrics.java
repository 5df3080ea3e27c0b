package io.weft.actors.remote;

import io.weft.actors.remote.transport.Lane;
import java.util.Map;

/**
 * Live counters of a system's remoting. Counts are since {@link Remoting#attach}.
 *
 * <p>Thread-safety: all methods may be called from any thread; each reads current values.
 */
public interface RemoteMetrics {

    /** Why an inbound frame or an outbound message was dropped. */
    enum Drop {
        /** An outbound lane's queue was full; the message went to dead letters. */
        OUTBOUND_OVERFLOW,
        /** The peer was unreachable or quarantined; the message went to dead letters. */
        UNREACHABLE,
        /** A message could not be encoded; it went to dead letters. */
        ENCODE_FAILED,
        /** A frame did not start with Weft's magic bytes and version. */
        BAD_HEADER,
        /** A frame was truncated, malformed or held a type id nobody registered. */
        MALFORMED,
        /** A frame arrived on a link before its handshake, or on the wrong lane. */
        NO_HANDSHAKE,
        /** A handshake came from a system not in the allowed set, or named a quarantined incarnation. */
        REFUSED_PEER,
        /** A frame was larger than the transport's maximum. */
        OVERSIZED,
        /** Untrusted mode refused a message (a system message, or one to an internal actor). */
        UNTRUSTED,
        /** The recipient named in a frame is not an actor of this system. */
        UNKNOWN_RECIPIENT
    }

    /**
     * Bytes sent on a lane.
     *
     * @param lane the lane
     * @return the count
     */
    long bytesSent(Lane lane);

    /**
     * Bytes received on a lane.
     *
     * @param lane the lane
     * @return the count
     */
    long bytesReceived(Lane lane);

    /**
     * Messages (user envelopes on ordinary and large, control messages on control) sent on a lane.
     *
     * @param lane the lane
     * @return the count
     */
    long messagesSent(Lane lane);

    /**
     * Messages received on a lane.
     *
     * @param lane the lane
     * @return the count
     */
    long messagesReceived(Lane lane);

    /**
     * Messages waiting in a lane's outbound queues, over all peers.
     *
     * @param lane the lane
     * @return the depth now
     */
    int queueDepth(Lane lane);

    /**
     * Drops for a reason.
     *
     * @param reason the reason
     * @return the count
     */
    long dropped(Drop reason);

    /**
     * The failure detector's phi for each associated peer, by its {@code host:port}.
     *
     * @return a snapshot
     */
    Map<String, Double> phi();

    /**
     * Watches this system holds for remote watchers: pairs of a local actor and a remote system
     * watching it. An entry goes when the actor stops, when the remote side unwatches (its last
     * local watcher of the actor unwatched or stopped), or when the remote system is quarantined.
     *
     * @return the count now
     */
    int watchedByPeers();

    /**
     * Peer incarnations declared dead so far.
     *
     * @return the count
     */
    long quarantined();
}
