package io.weft.actors.cluster;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.cluster.internal.ClusterCore;
import io.weft.actors.remote.Remoting;
import java.util.List;
import java.util.function.Consumer;

/**
 * A node's membership in a cluster: JGroups underneath (static seeds, FD_SOCK2 and FD_ALL3
 * failure detection, VERIFY_SUSPECT2, MERGE3 healing), member states published as
 * {@link MemberEvent}s, keep-majority split-brain resolution, and quarantine of removed members'
 * incarnations in the remote layer.
 *
 * <pre>{@code
 * try (ActorSystem system = ActorSystem.create("shop");
 *      Remoting remoting = Remoting.attach(system, codec, RemoteSettings.defaults().withAddress("10.0.0.5", 25520));
 *      Cluster cluster = Cluster.join(system, remoting, ClusterSettings.defaults().withAddress("10.0.0.5", 7800)
 *              .withSeeds(List.of(new InetSocketAddress("10.0.0.5", 7800), new InetSocketAddress("10.0.0.6", 7800))))) {
 *     cluster.subscribe(e -> log.info("{} is {}", e.member(), e.status()));
 * }
 * }</pre>
 *
 * <p>Thread-safety: all methods may be called from any thread. Events are delivered in order on
 * the cluster's event thread.
 */
public interface Cluster extends AutoCloseable {

    /**
     * Joins the cluster named in the settings and waits until this node is {@link MemberStatus#UP}
     * (in a view: with the seeds reached, or alone when none answers within the join timeout).
     *
     * @param system the local system
     * @param remoting its remoting; its address and incarnation are what other members see
     * @param settings the settings
     * @return the membership
     * @throws Exception if JGroups cannot start (a port in use) or the node is not up within a minute
     */
    static Cluster join(ActorSystem system, Remoting remoting, ClusterSettings settings) throws Exception {
        return ClusterCore.start(system, remoting, settings, null);
    }

    /**
     * This node as a member.
     *
     * @return this node
     */
    Member self();

    /**
     * The members in the current view, in the view's order (the first is JGroups' coordinator).
     * Empty once this node has left or downed itself.
     *
     * @return a snapshot
     */
    List<Member> members();

    /**
     * A member's state as this node sees it.
     *
     * @param member a member
     * @return its state; {@link MemberStatus#REMOVED} for a member no longer (or never) in the view
     */
    MemberStatus status(Member member);

    /**
     * Subscribes to member events. The subscriber first gets the current state of every member
     * (reason "current state"), then every change, in order, on the cluster's event thread; it
     * must not block, and may call this cluster's methods. An exception it throws is logged and
     * does not unsubscribe it.
     *
     * @param subscriber the subscriber
     * @return closing it unsubscribes
     */
    AutoCloseable subscribe(Consumer<? super MemberEvent> subscriber);

    /**
     * Subscribes an actor: as {@link #subscribe(Consumer)}, with each event told to the actor; the
     * subscription ends when the actor has terminated.
     *
     * @param subscriber the actor
     * @return closing it unsubscribes
     */
    AutoCloseable subscribe(ActorRef<? super MemberEvent> subscriber);

    /**
     * The cluster-wide registry: actors registered under names, replicated to every member.
     *
     * @return this member's view of the registry
     */
    ClusterRegistry registry();

    /**
     * A cluster singleton: one instance of an actor cluster-wide, on the oldest member (the first
     * of the JGroups view, its coordinator) that is not leaving; when that member leaves or is
     * removed, the next oldest starts it. Call this with the same name on every member that may
     * host the instance (on a member that only sends to it, {@link #singletonProxy} is enough).
     *
     * <p>The returned proxy routes each message to the current instance, local or remote, keeping
     * its sender. While no instance is known (starting, or moving after its member left) the proxy
     * keeps messages in order, up to {@link SingletonSettings#bufferSize()}, and delivers them
     * when the instance appears; a message beyond the bound goes to dead letters
     * ({@link io.weft.actors.DeadLetter.Reason#MAILBOX_OVERFLOW}) and is counted by
     * {@link #singletonDropped}. Messages already sent to an instance whose member then leaves
     * are not resent: the instance's state and unprocessed mailbox are not moved.
     *
     * <pre>{@code
     * ActorRef<Cmd> ledger = cluster.singleton("ledger", Props.named("ledger"), Ledger::behavior, SingletonSettings.defaults());
     * ledger.tell(new Credit(10));
     * }</pre>
     *
     * @param name the singleton's name, the same on every member: non-blank, no control characters
     * @param props the instance's props (its name should be unique on each member's system)
     * @param factory makes the instance's behavior, once per start (here or after a move)
     * @param settings the proxy's settings
     * @param <M> its message type
     * @return this member's proxy to the instance
     * @throws IllegalArgumentException if an argument is null or the name is invalid
     * @throws IllegalStateException if this member already manages a singleton of that name
     */
    <M> ActorRef<M> singleton(String name, io.weft.actors.Props props,
            java.util.function.Supplier<? extends io.weft.actors.Behavior<M>> factory, SingletonSettings settings);

    /**
     * A proxy to a singleton hosted by other members (started there with {@link #singleton});
     * this member never hosts it. The same proxy is returned for a name on every call; the
     * settings of the first call hold.
     *
     * @param name the singleton's name
     * @param settings the proxy's settings
     * @param <M> its message type
     * @return this member's proxy
     * @throws IllegalArgumentException if an argument is null or the name is invalid
     */
    <M> ActorRef<M> singletonProxy(String name, SingletonSettings settings);

    /**
     * How many messages this member's proxy for a singleton dropped because its buffer was full.
     *
     * @param name the singleton's name
     * @return the count, 0 if no proxy of that name exists here
     */
    long singletonDropped(String name);

    /**
     * Sharded entities on this cluster: entity types registered on every member, entities
     * addressed by id, placed by shard on the members, started on first message, passivated when
     * idle and moved when the membership changes.
     *
     * @return this member's sharding
     */
    ClusterSharding sharding();

    /**
     * Leaves gracefully: announces {@link MemberStatus#LEAVING}, hands this member's shards of
     * sharded entities over (waiting, at most 10 s, until the new owners have confirmed them),
     * then leaves the view; the others see this node LEAVING then REMOVED. Returns when this node
     * is out of the group.
     */
    void leave();

    /** Leaves (if still a member) and stops the event thread. Does not close the remoting or the system. */
    @Override
    void close();
}
