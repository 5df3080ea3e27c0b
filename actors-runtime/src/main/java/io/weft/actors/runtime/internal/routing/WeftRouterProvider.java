package io.weft.actors.runtime.internal.routing;

import io.weft.actors.ActorContext;
import io.weft.actors.GroupRouter;
import io.weft.actors.PoolRouter;
import io.weft.actors.spi.RouterProvider;

/** The runtime's {@link RouterProvider}: runs {@link PoolRouter} and {@link GroupRouter} specs as {@link Router}s. */
public final class WeftRouterProvider implements RouterProvider {

    /** Called by {@link java.util.ServiceLoader}. */
    public WeftRouterProvider() {
    }

    @Override
    public <M> void startPool(ActorContext<M> self, PoolRouter<M> spec) {
        Router.pool(self, spec);
    }

    @Override
    public <M> void startGroup(ActorContext<M> self, GroupRouter<M> spec) {
        Router.group(self, spec);
    }
}
