package io.weft.actors.remote.transport;

import java.net.SocketAddress;

/**
 * The receiving end of a peer's {@link OutboundLink}, as seen by the {@link InboundHandler}: one
 * object per peer connection, the same for all its lanes.
 *
 * <p>Thread-safety: all methods may be called from any thread.
 */
public interface InboundLink {

    /**
     * The remote socket address of the connection (its ephemeral port, not the peer's bound one).
     *
     * @return the address, or null if the engine does not know it
     */
    SocketAddress remote();

    /**
     * Drops the connection: used to refuse a peer (bad input, a quarantined incarnation). The
     * handler's {@link InboundHandler#onClosed} follows. Idempotent.
     */
    void close();
}
