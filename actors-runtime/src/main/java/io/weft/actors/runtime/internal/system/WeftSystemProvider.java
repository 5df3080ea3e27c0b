package io.weft.actors.runtime.internal.system;

import io.weft.actors.ActorSystem;
import io.weft.actors.spi.ActorSystemProvider;

/** Creates {@link WeftSystem}s for {@link ActorSystem#builder()}. */
public final class WeftSystemProvider implements ActorSystemProvider {

    /** Used by {@link java.util.ServiceLoader}. */
    public WeftSystemProvider() {
    }

    @Override
    public ActorSystem create(ActorSystem.Settings settings) {
        return new WeftSystem(settings);
    }
}
