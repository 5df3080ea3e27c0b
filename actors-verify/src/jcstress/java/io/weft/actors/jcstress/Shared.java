package io.weft.actors.jcstress;

import io.weft.actors.ActorSystem;

/** The one actor system that all tests of a jcstress run spawn their actors in. */
public final class Shared {

    /** The system; its own schedulers are used only by the mode-switch test. */
    public static final ActorSystem SYSTEM = ActorSystem.builder().name("jcstress").parallelism(2).build();

    private Shared() {
    }
}
