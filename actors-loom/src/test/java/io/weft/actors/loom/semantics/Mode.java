package io.weft.actors.loom.semantics;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/** The two ways an actor waits, for contract tests run over both. */
enum Mode {
    REACT, THREAD;

    <M> ActorRef<M> spawn(ActorSystem system, Props props, Supplier<? extends Behavior<M>> factory) {
        return this == REACT ? system.spawn(props, factory) : system.spawnThread(props, factory);
    }

    <M> ActorRef<M> spawn(ActorSystem system, Behavior<M> behavior) {
        return this == REACT ? system.spawn(behavior) : system.spawnThread(Props.defaults(), behavior);
    }

    <C> ActorRef<C> spawnChild(ActorContext<?> parent, Props props, Supplier<? extends Behavior<C>> factory) {
        return this == REACT ? parent.spawnChild(props, factory) : parent.spawnChildThread(props, factory);
    }

    /** Handles messages with {@code handler} forever: a react loop, or a receive loop. */
    void serve(ActorContext<?> self, Receive<Object, ?> handler) {
        if (this == REACT) {
            self.loop(() -> self.react(handler));
        } else {
            for (;;) {
                self.receive(handler);
            }
        }
    }

    /** Spawns an event-based watcher of {@code target}; returns once it watches. */
    static CompletableFuture<Terminated> watch(ActorSystem system, ActorRef<?> target) {
        CompletableFuture<Terminated> terminated = new CompletableFuture<>();
        CompletableFuture<Void> watching = new CompletableFuture<>();
        system.<Object>spawn(self -> {
            self.watch(target);
            watching.complete(null);
            self.react(Receive.<Object>handler().match(Terminated.class, terminated::complete).build());
        });
        watching.join();
        return terminated;
    }
}
