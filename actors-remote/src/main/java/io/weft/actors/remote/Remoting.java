package io.weft.actors.remote;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.remote.internal.remoting.RemotingCore;
import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * A system's remoting: makes its actors reachable from other processes and refs of other
 * processes' actors usable here.
 *
 * <pre>{@code
 * CodecRegistry codec = CodecRegistry.builder(MethodHandles.lookup()).register(100, Greet.class).build();
 * try (ActorSystem system = ActorSystem.create("orders");
 *      Remoting remoting = Remoting.attach(system, codec, RemoteSettings.defaults().withAddress("127.0.0.1", 25520))) {
 *     ActorRef<Object> cart = system.resolve("weft://shop@127.0.0.1:25521/cart-7#12");
 *     cart.tell(new Greet("hi"));
 * }
 * }</pre>
 *
 * <p>Addresses: {@code weft://system@host:port/name#id}; {@link ActorSystem#resolve(String)} of an
 * attached system returns a working ref for such an address, local or remote. A ref inside a
 * message travels as its address and arrives as a working ref.
 *
 * <p>Guarantees: at most once; order kept per sender and receiver on one lane (messages over the
 * large-message threshold take the large lane and are not ordered with smaller ones); death watch
 * of remote refs delivers {@link io.weft.actors.Terminated} when the actor stops, when its process
 * dies or when its link stays partitioned past the failure detector's threshold.
 *
 * <p>Untrusted mode refuses remote messages of the types that steer actors' lifecycles
 * ({@link io.weft.actors.Terminated}, {@link io.weft.actors.Exit}, {@link io.weft.actors.DeadLetter},
 * {@link io.weft.actors.LifecycleEvent}) and messages to the remoting's internal actors: a remote peer
 * can then affect local actors only through the messages they accept and the watch protocol. Weft
 * has no stop or kill message, so no remote peer can stop a local actor in any mode.
 *
 * <p>Thread-safety: all methods may be called from any thread.
 */
public interface Remoting extends AutoCloseable {

    /**
     * Binds the transport, installs the resolver of remote addresses in {@code system} and starts
     * the heartbeats.
     *
     * @param system the local system
     * @param codec the registry that encodes and decodes every message sent or received; both
     *     sides must register the same ids
     * @param settings the settings
     * @return the running remoting
     * @throws IOException if the address cannot be bound
     */
    static Remoting attach(ActorSystem system, CodecRegistry codec, RemoteSettings settings) throws IOException {
        return RemotingCore.start(system, codec, settings);
    }

    /**
     * The bound address.
     *
     * @return host and actual port
     */
    InetSocketAddress address();

    /**
     * This system's incarnation: a random id, new on every start, sent in every handshake.
     *
     * @return the incarnation, not 0
     */
    long incarnation();

    /**
     * The remote address of a local actor, {@code weft://system@host:port/name#id}.
     *
     * @param ref a ref of the local system
     * @return its address as other systems name it
     */
    String addressOf(ActorRef<?> ref);

    /**
     * Resolves an address, local or remote; the same as the system's {@code resolve}.
     *
     * @param address the address
     * @return a working ref
     * @throws IllegalArgumentException if the address is malformed
     */
    ActorRef<Object> resolve(String address);

    /**
     * Quarantines one incarnation of a peer for good, as the failure detector does: its queued
     * messages go to dead letters, watchers of its actors get {@link io.weft.actors.Terminated},
     * refs resolved against it report terminated, and its handshakes and frames are refused from
     * then on. A later incarnation at the same address is reached normally. The cluster layer calls
     * this for a member it removed, so the removed incarnation can never come back.
     *
     * @param host the peer's host, as in its addresses
     * @param port the peer's advertised port
     * @param incarnation the peer system's incarnation (not 0)
     * @param reason why, for the log and the watchers' cause
     * @return true if this call quarantined it, false if it already was
     * @throws IllegalArgumentException if the incarnation is 0 or the port is out of range
     */
    boolean quarantine(String host, int port, long incarnation, String reason);

    /**
     * Whether an incarnation of a peer is quarantined.
     *
     * @param host the peer's host
     * @param port the peer's advertised port
     * @param incarnation the peer system's incarnation
     * @return true once it has been quarantined (by the failure detector or {@link #quarantine})
     */
    boolean isQuarantined(String host, int port, long incarnation);

    /**
     * The remoting's counters.
     *
     * @return live metrics
     */
    RemoteMetrics metrics();

    /** Stops heartbeats, closes every link and the transport; remote refs then deliver to dead letters. */
    @Override
    void close();
}
