package io.weft.actors.runtime.internal.routing;

import io.weft.actors.ActorRef;
import io.weft.actors.DeadLetter;
import io.weft.actors.Routers.Strategy;
import io.weft.actors.runtime.internal.cell.RoutedRef;
import io.weft.actors.runtime.internal.telemetry.DeadLetterOffice;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;

/**
 * The routes a router publishes on its {@link RoutedRef}: the routee refs of one membership and how
 * a sender's thread picks among them. A key function that throws makes {@code tell} throw
 * {@link IllegalArgumentException} to the sender, naming the router and the message.
 */
final class SenderRoutes extends RoutedRef.Routes {
    /* design
     * Immutable once published (the refs array and the ring are never written after
     * construction), except round-robin's counter, which senders advance with one atomic
     * getAndAdd each: concurrent senders get distinct positions, so over any run of n messages
     * told to n routees each routee gets one, whichever threads told them. The counter starts at
     * the position the previous Routes had reached, so a change of membership does not send the
     * next messages to the first routees again. Random draws from ThreadLocalRandom (no shared
     * state); consistent hashing looks the key up on the ring built for exactly these refs;
     * broadcast tells every ref. The router actor uses the same object for the messages that
     * reach it (told while no routes were published: the spawn-time step failed), so both
     * paths pick alike.
     * One shared counter is one cache line every sender writes. Measured alternative not adopted:
     * a counter per stripe of sending threads (8 counters 64 bytes apart, the stripe picked by
     * the thread's id), which makes round-robin per sending thread instead of global; with two
     * sender actors on 2 cores it did not measurably gain (router bench --senders 2, five JVMs
     * per jar alternating, load 9-16: pool/no-router time per JVM 0.97x the shared counter's,
     * p = 0.84; docs/benchmarks.md "Routers").
     */

    private static final VarHandle NEXT;

    static {
        try {
            NEXT = MethodHandles.lookup().findVarHandle(SenderRoutes.class, "next", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final ActorRef<Object>[] refs;
    private final Routee[] routees;
    private final Strategy strategy;
    private final HashRing ring;
    private final Function<Object, ?> hashKey;
    private final ActorRef<?> router;
    private final DeadLetterOffice deadLetters;
    @SuppressWarnings("unused") // through NEXT
    private int next;

    @SuppressWarnings("unchecked")
    SenderRoutes(Routee[] routees, Strategy strategy, HashRing ring, Function<Object, ?> hashKey, ActorRef<?> router,
            DeadLetterOffice deadLetters, int start) {
        this.routees = routees;
        this.refs = (ActorRef<Object>[]) new ActorRef<?>[routees.length];
        for (int i = 0; i < routees.length; i++) {
            refs[i] = routees[i].ref;
        }
        this.strategy = strategy;
        this.ring = ring;
        this.hashKey = hashKey;
        this.router = router;
        this.deadLetters = deadLetters;
        this.next = start;
    }

    /** @return the routees these routes were built from, for the router that adopts them (not to be written) */
    Routee[] routees() {
        return routees;
    }

    /** @return the hash ring for consistent hashing, else null */
    HashRing ring() {
        return ring;
    }

    /** @return round-robin's position now, for the next Routes to start from */
    int position() {
        return (int) NEXT.getOpaque(this);
    }

    @Override
    public void route(Object message, ActorRef<?> replyTo) {
        ActorRef<Object>[] rs = refs;
        int n = rs.length;
        if (n == 0) {
            deadLetters.publish(message, router, replyTo, DeadLetter.Reason.NO_ROUTEES);
            return;
        }
        switch (strategy) {
            case ROUND_ROBIN -> rs[Integer.remainderUnsigned((int) NEXT.getAndAdd(this, 1), n)].tell(message, replyTo);
            case RANDOM -> rs[n == 1 ? 0 : ThreadLocalRandom.current().nextInt(n)].tell(message, replyTo);
            case CONSISTENT_HASHING -> rs[ring.owner(key(message))].tell(message, replyTo);
            case BROADCAST -> {
                for (ActorRef<Object> r : rs) {
                    r.tell(message, replyTo);
                }
            }
            default -> throw new IllegalStateException("router " + router + ": " + strategy + " does not route on the sender's thread");
        }
    }

    /** The message's key; the key function's failure, which now happens on the sender's thread, names the router and the message. */
    private Object key(Object message) {
        try {
            return hashKey.apply(message);
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("router " + router + ": the consistent-hashing key function threw on " + message
                    + "; it must return a key (or null) for every message told to the router", e);
        }
    }
}
