package io.weft.actors.spi;

import io.weft.actors.ActorContext;
import io.weft.actors.GroupRouter;
import io.weft.actors.PoolRouter;
import java.util.ServiceLoader;

/**
 * The service that runs routers, found by {@link ServiceLoader}; the actors-runtime module provides
 * one. {@link PoolRouter} and {@link GroupRouter} are implementation-free specs whose
 * {@code start} hands the router's context to this service.
 */
public interface RouterProvider {

    /**
     * Runs a pool router in the actor {@code self}: spawns its routees and installs its handler.
     *
     * @param self the router actor's context
     * @param spec the pool
     * @param <M> the message type
     */
    <M> void startPool(ActorContext<M> self, PoolRouter<M> spec);

    /**
     * Runs a group router in the actor {@code self}: watches the routees and installs its handler.
     *
     * @param self the router actor's context
     * @param spec the group
     * @param <M> the message type
     */
    <M> void startGroup(ActorContext<M> self, GroupRouter<M> spec);

    /**
     * The provider on the class or module path.
     *
     * @return it
     * @throws IllegalStateException if there is none
     */
    static RouterProvider get() {
        return RouterProviderHolder.PROVIDER;
    }
}
