package io.weft.actors.remote.transport;

/**
 * Receives what arrives at a bound {@link Transport}.
 *
 * <p>Calls for one lane of one inbound link are made one at a time, in arrival order; calls for
 * different lanes or links may be concurrent. A handler that blocks holds up only its lane of its
 * link.
 */
public interface InboundHandler {

    /**
     * A frame arrived.
     *
     * @param from the inbound link it came on
     * @param lane its lane
     * @param frame the frame, owned by the handler from now on
     */
    void onFrame(InboundLink from, Lane lane, byte[] frame);

    /**
     * Whether {@link #onFrame} for this lane never blocks and never calls back into the transport
     * (no {@link Transport#connect}, no send on an outbound link), so an engine may call it on its
     * receiving thread instead of handing the frame to another thread. The order and one-at-a-time
     * guarantees hold either way; an engine may ignore this.
     *
     * @param lane the lane
     * @return true if frames of this lane may be handled on the engine's receiving thread; false by default
     */
    default boolean nonBlocking(Lane lane) {
        return false;
    }

    /**
     * The engine refused something on an inbound link before it became a frame: a frame over the
     * maximum size, or bytes that break the engine's own protocol. Called once per refusal.
     *
     * @param from the link, or null if the refusal came before a link was identified
     * @param reason what was refused and why, for one log line
     */
    void onRefused(InboundLink from, String reason);

    /**
     * An inbound link ended (the peer closed it, it failed, or {@link InboundLink#close()} was
     * called). Called at most once per link.
     *
     * @param link the link
     * @param cause why, or null for an orderly close
     */
    void onClosed(InboundLink link, Throwable cause);
}
