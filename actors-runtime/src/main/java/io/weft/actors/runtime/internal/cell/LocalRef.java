package io.weft.actors.runtime.internal.cell;

import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.GroupRouter;
import io.weft.actors.PoolRouter;

/**
 * The ref of a local actor. It holds the cell privately: no public method leads from a ref to the
 * actor's object or state. Each cell has exactly one ref, so identity equality is actor equality.
 *
 * @param <M> the main channel's message type
 */
public class LocalRef<M> implements ActorRef<M> {

    /* design
     * An unnamed actor's ref is 16 bytes (header + cell); only named actors pay for the name
     * field, in the Named subclass. A router whose strategy needs no router state gets a
     * RoutedRef instead (see its design block), which overrides `tell`; that class is loaded only
     * when such a router is spawned, so until then `tell` has one implementation. This holds
     * because LocalRef names RoutedRef only in calls (`RoutedRef.create`, `routesOnSender`), which
     * are resolved when first run: a `new RoutedRef` returned as a LocalRef in `of` made the
     * verifier load it with LocalRef (-Xlog:class+load), and so would an `instanceof RoutedRef`
     * on every actor's end, which is why a stopping cell calls `cellStopped` instead.
     */

    private final Cell<M> cell;

    LocalRef(Cell<M> cell) {
        this.cell = cell;
    }

    /**
     * The ref of a new cell: a {@link RoutedRef} for a router that routes on the sender's thread,
     * else a plain (or named) one.
     */
    static <M> LocalRef<M> of(Cell<M> cell, String name, Behavior<M> behavior) {
        if ((behavior instanceof PoolRouter<?> || behavior instanceof GroupRouter<?>) && RoutedRef.routesOnSender(behavior)) {
            return RoutedRef.create(cell, name); // not `new` here: verifying this method would load RoutedRef
        }
        return name == null ? new LocalRef<>(cell) : new Named<>(cell, name);
    }

    /** The ref of an actor spawned with a name. */
    static final class Named<M> extends LocalRef<M> {
        private final String name;

        Named(Cell<M> cell, String name) {
            super(cell);
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public boolean hasGivenName() {
            return true;
        }
    }

    /**
     * The cell has stopped. Nothing for a plain ref; a {@link RoutedRef} withdraws its routes, so
     * later messages become the stopped cell's dead letters. A virtual call rather than an
     * {@code instanceof RoutedRef} test, which would load that class at the first actor's end.
     */
    void cellStopped() {
    }

    public Cell<M> cell() {
        return cell;
    }

    @Override
    public void tell(M message) {
        cell.tellFromRef(message, null);
    }

    @Override
    public void tell(M message, ActorRef<?> replyTo) {
        cell.tellFromRef(message, replyTo);
    }

    @Override
    public final long id() {
        return cell.id();
    }

    @Override
    public String name() {
        return "$" + cell.id();
    }

    public boolean hasGivenName() {
        return false;
    }

    @Override
    public String address() {
        return "weft://" + cell.weftSystem().name() + "/" + name() + "#" + cell.id();
    }

    @Override
    public boolean isTerminated() {
        return cell.isTerminated();
    }

    @Override
    public String toString() {
        return "Actor[" + name() + "#" + cell.id() + "]";
    }
}
