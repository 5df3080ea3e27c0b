package io.weft.actors.remote.transport;

import java.net.InetSocketAddress;

/**
 * A one-directional link to a peer, opened with {@link Transport#connect}. Each lane is a separate
 * ordered stream.
 *
 * <p>Thread-safety: {@link #send} may be called from several threads, but frames keep an order
 * only among the sends of one thread on one lane; the remoting layer sends each lane from one
 * thread.
 */
public interface OutboundLink extends AutoCloseable {

    /**
     * The peer's address, as given to {@link Transport#connect}.
     *
     * @return the address
     */
    InetSocketAddress peer();

    /**
     * Sends one frame on a lane. Blocks while the lane's buffer in the engine is full (backpressure
     * from the network), so the caller's own bounded queue is where overflow is seen. The array must
     * not be changed after the call.
     *
     * @param lane the lane
     * @param frame the frame, 1 to {@link Transport#maxFrameBytes()} bytes
     * @throws IllegalArgumentException if the frame is empty or longer than the maximum
     * @throws IllegalStateException if the link is closed or lost
     * @throws InterruptedException if interrupted while waiting for room
     */
    void send(Lane lane, byte[] frame) throws InterruptedException;

    /**
     * Whether the link is neither closed nor lost.
     *
     * @return true while frames can be sent
     */
    boolean isOpen();

    /** Closes the link without calling its {@code onLost}. Idempotent. */
    @Override
    void close();
}
