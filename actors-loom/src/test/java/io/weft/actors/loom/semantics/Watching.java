package io.weft.actors.loom.semantics;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import java.util.concurrent.CompletableFuture;

/** A watcher for the semantics suites, which run over {@code ContractMatrix#semanticsModes}. */
final class Watching {

    private Watching() {
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
