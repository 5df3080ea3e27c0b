package com.example.trio;

import io.weft.actors.ActorRef;
import io.weft.actors.remote.CodecRegistry;
import java.lang.invoke.MethodHandles;

/** The messages the three processes share, and the codec that registers them under the same ids. */
public final class Protocol {

    /** Asks the ledger singleton to count one more and answer to {@code replyTo}. */
    public record Count(ActorRef<Object> replyTo) {
    }

    /** The ledger's answer: the system that hosts it and its count since it started there. */
    public record Counted(String host, long count) {
    }

    /** Asks a node's "echo" actor (found in the cluster registry) for its system's name. */
    public record Who(ActorRef<Object> replyTo) {
    }

    /** Asks a "counter" entity to add one to its count and answer to {@code replyTo}. */
    public record Add(ActorRef<Tally> replyTo) {
    }

    /**
     * A "counter" entity's answer: the system that hosts it, its id, and the adds this
     * incarnation has counted (it starts from zero on each start: first message, after a move).
     */
    public record Tally(String host, String id, long count) {
    }

    private Protocol() {
    }

    /** @return the registry every node uses (topic messages are strings, which need no registration) */
    public static CodecRegistry codec() {
        return CodecRegistry.builder(MethodHandles.lookup())
                .register(100, Count.class)
                .register(101, Counted.class)
                .register(102, Who.class)
                .register(103, Add.class)
                .register(104, Tally.class)
                .build();
    }
}
