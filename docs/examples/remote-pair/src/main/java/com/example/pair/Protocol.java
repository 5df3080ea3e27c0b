package com.example.pair;

import io.weft.actors.ActorRef;
import io.weft.actors.remote.CodecRegistry;
import java.lang.invoke.MethodHandles;

/** The messages both processes share, and the codec that registers them under the same ids. */
public final class Protocol {

    /** Asks the greeter to greet {@code name} and answer to {@code replyTo}. */
    public record Greet(String name, ActorRef<Object> replyTo) {
    }

    /** The greeter's answer. */
    public record Greeting(String text) {
    }

    /** The port the greeter listens on. */
    public static final int GREETER_PORT = 25520;

    private Protocol() {
    }

    /** @return the registry both sides use */
    public static CodecRegistry codec() {
        return CodecRegistry.builder(MethodHandles.lookup())
                .register(100, Greet.class)
                .register(101, Greeting.class)
                .build();
    }
}
