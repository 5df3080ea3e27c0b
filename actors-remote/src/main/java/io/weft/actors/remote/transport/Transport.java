package io.weft.actors.remote.transport;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.function.Consumer;

/**
 * A transport engine: moves opaque frames (byte arrays) between processes on three {@link Lane}s.
 * The remoting layer above it owns framing of messages, handshakes, acknowledgement and failure
 * detection; an engine only carries bytes.
 *
 * <p>Links are one-directional: a system sends through the {@link OutboundLink}s it opened with
 * {@link #connect}, and receives on the address it {@link #bind bound}, through its
 * {@link InboundHandler}. Two systems that talk both ways each open a link to the other.
 *
 * <h2>Contract (checked by the contract test suite every engine runs)</h2>
 * <ul>
 *   <li>Frames sent on one lane of one link are delivered to the peer's handler in send order, each
 *       exactly once or not at all (a link that fails may lose the frames in flight).
 *   <li>Lanes are independent: frames on one lane are delivered while the handler is still busy
 *       with, or the network still carries, a large frame on another lane.
 *   <li>A frame longer than {@link #maxFrameBytes()} is refused by {@link OutboundLink#send} with an
 *       {@link IllegalArgumentException}; one arriving longer than the receiver's maximum is never
 *       delivered, is reported through {@link InboundHandler#onRefused}, and may close its link.
 *   <li>A link whose peer goes away (closed, crashed, unreachable) is reported once through the
 *       {@code onLost} callback given to {@link #connect}.
 *   <li>{@link #close()} closes every link, stops listening (the port can be bound again at once),
 *       ends every thread the engine started and returns after that; it is idempotent.
 * </ul>
 *
 * <p>Thread-safety: all methods may be called from any thread.
 */
public interface Transport extends AutoCloseable {

    /**
     * Creates the gRPC engine: one HTTP/2 connection per lane per link (so a large frame never
     * shares a connection's flow-control window with small ones), frames as messages of a
     * bidirectional stream with a byte-array marshaller, TLS and mutual TLS as settings.
     *
     * @param settings the engine's settings, not null
     * @return an unbound engine
     */
    static Transport grpc(GrpcSettings settings) {
        return new io.weft.actors.remote.internal.grpc.GrpcEngine(settings);
    }

    /**
     * Creates the Aeron engine: an embedded media driver of its own (its files in a fresh
     * directory under {@code /dev/shm} or {@code java.io.tmpdir}, deleted on close), UDP with one
     * stream id per lane, frames above an Aeron message's limit sent in pieces and reassembled. No
     * TLS. Needs {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED} on the class path
     * ({@code =org.agrona} on the module path).
     *
     * @param settings the engine's settings, not null
     * @return an unbound engine, its driver and threads started
     */
    static Transport aeron(AeronSettings settings) {
        return new io.weft.actors.remote.internal.aeron.AeronEngine(settings);
    }

    /**
     * Starts listening. Called at most once.
     *
     * @param address the local address; port 0 picks a free port
     * @param handler receives inbound frames; called from the engine's threads, one call at a time
     *     per lane of one inbound link
     * @return the bound address, with the actual port
     * @throws IOException if the address cannot be bound
     * @throws IllegalStateException if already bound or closed
     */
    InetSocketAddress bind(InetSocketAddress address, InboundHandler handler) throws IOException;

    /**
     * Opens a link to a peer's bound address. Returns at once; the connection is made in the
     * background, and frames sent before it is up wait in the engine's bounded buffer.
     *
     * @param peer the peer's bound address
     * @param onLost called once, from an engine thread, when the link fails or the peer goes
     *     away, with the cause; not called when the link is closed by this side
     * @return the link
     * @throws IllegalStateException if the transport is closed
     */
    OutboundLink connect(InetSocketAddress peer, Consumer<Throwable> onLost);

    /**
     * The largest frame this engine sends or accepts, in bytes.
     *
     * @return the maximum, positive
     */
    int maxFrameBytes();

    /** Closes every link, stops listening, ends the engine's threads. Idempotent. */
    @Override
    void close();
}
