package io.weft.actors.testkit;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;

/**
 * A deliberately racy protocol for the interleaving explorer: two clients each add one to a
 * counter held by a store actor. The racy client reads the value (Get), then writes value + 1
 * (Put); if the store answers both reads before either write, one increment is lost. The fixed
 * client sends one Increment, which the store applies in a single handler.
 */
final class RacyCounterProtocol {

    record Get() {
    }

    record Put(int value) {
    }

    record Increment() {
    }

    private RacyCounterProtocol() {
    }

    /** Spawns the store; its counter is returned through {@code value}. */
    static ActorRef<Object> store(ActorSystem system, DeterministicScheduler scheduler, int[] value) {
        return system.spawn(scheduler.props("store"), self -> self.loop(() -> self.react(Receive.<Object>handler()
                .match(Get.class, g -> self.reply(value[0]))
                .match(Put.class, p -> value[0] = p.value())
                .match(Increment.class, i -> value[0]++)
                .build())));
    }

    /** A client that reads, then writes the value plus one: racy. */
    static void racyClient(ActorSystem system, DeterministicScheduler scheduler, String name, ActorRef<Object> store) {
        system.<Object>spawn(scheduler.props(name), self -> {
            store.tell(new Get(), self.self());
            self.react(Receive.<Object>handler()
                    .match(Integer.class, v -> store.tell(new Put(v + 1)))
                    .build());
        });
    }

    /** A client that asks the store to increment: the read-modify-write is one handler. */
    static void fixedClient(ActorSystem system, DeterministicScheduler scheduler, String name, ActorRef<Object> store) {
        system.<Object>spawn(scheduler.props(name), self -> store.tell(new Increment()));
    }
}
