package io.weft.actors.cluster.internal;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Topic;
import io.weft.actors.spi.TopicSpan;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** The span that makes one member's named topics reach the other members' subscribers. */
final class Topics implements TopicSpan {

    /* design
     * Who has subscribers is replicated through the cluster registry, under reserved names: a
     * member with at least one local subscriber of topic T runs a relay actor for T and registers
     * it under "weft.topic:<T>"; when its last local subscriber goes, it unregisters and stops
     * the relay. A publish on any member then tells the message once to each relay registered by
     * another member (Registry.lookupOthers, a volatile snapshot: no lock on the publishing
     * thread); the relay hands it to TopicSpan.deliverLocally, which tells that member's
     * subscribers only, so a message crosses the network once per member with subscribers,
     * whatever their number there.
     *
     * Order: one publisher's messages to one relay go from one sender to one receiver, which the
     * remoting delivers in send order; the relay is an actor, so it hands them on in that order,
     * and each local subscriber gets them by tell from the relay. So every subscriber sees one
     * publisher's messages in publish order, as on one node.
     *
     * The runtime reports subscription changes from any thread (TopicSpan.subscribersChanged);
     * they are moved to the cluster's event thread, which owns `relays` and re-reads the topic's
     * current subscriber count, so racing reports converge on the last state. A member that has
     * left or downed itself registers nothing; the others dropped its entries at the view change
     * (Registry), so they stop forwarding to it. The relay's sender on every message is the relay
     * itself; publishers are not carried across nodes.
     *
     * Between a member's first subscriber and the others receiving its registration, its
     * subscribers miss what others publish: the registry is eventually consistent (subscribe,
     * then wait for the registration to be visible, when that matters).
     */

    private static final System.Logger LOG = System.getLogger(Topics.class.getName());
    static final String PREFIX = "weft.topic:";

    private final ClusterCore core;
    private final ActorSystem system;
    private final Registry registry;
    // owned by the event thread
    private final Map<String, ActorRef<Object>> relays = new HashMap<>();
    private long relaySeq;

    Topics(ClusterCore core, ActorSystem system, Registry registry) {
        this.core = core;
        this.system = system;
        this.registry = registry;
    }

    @Override
    public void subscribersChanged(Topic<?> topic) {
        core.run(() -> update(topic));
    }

    @Override
    public int forward(Topic<?> topic, Object message) {
        List<ActorRef<Object>> others = registry.lookupOthers(PREFIX + topic.name());
        for (ActorRef<Object> relay : others) {
            relay.tell(message);
        }
        return others.size();
    }

    /** Event thread: runs a relay for a topic exactly while it has local subscribers and this member is up. */
    private void update(Topic<?> topic) {
        String name = topic.name();
        boolean wanted = topic.subscriberCount() > 0 && core.isUp();
        ActorRef<Object> relay = relays.get(name);
        if (wanted && relay == null) {
            ActorRef<Object> made = system.spawn(Props.named("weft-cluster-topic-" + (++relaySeq)),
                    ctx -> ctx.become(Receive.handler().matchAny(m -> TopicSpan.deliverLocally(system, name, m)).build()));
            try {
                registry.register(PREFIX + name, made);
                relays.put(name, made);
            } catch (IllegalArgumentException | IllegalStateException e) {
                system.stop(made);
                LOG.log(System.Logger.Level.WARNING, "cluster member " + core.self() + ": topic \"" + name
                        + "\" stays local to this member: " + e.getMessage());
            }
        } else if (!wanted && relay != null) {
            relays.remove(name);
            if (core.isUp()) {
                registry.unregister(PREFIX + name, relay);
            }
            system.stop(relay);
        }
    }

    /** Event thread, once this member has left or downed itself: the relays stop (the registry already dropped their entries). */
    void stopAll() {
        for (ActorRef<Object> relay : relays.values()) {
            system.stop(relay);
        }
        relays.clear();
    }
}
