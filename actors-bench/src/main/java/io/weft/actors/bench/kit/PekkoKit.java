package io.weft.actors.bench.kit;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import java.util.concurrent.TimeUnit;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorRef;
import org.apache.pekko.actor.ActorSystem;
import org.apache.pekko.actor.Props;

/**
 * Apache Pekko 1.1 classic actors ({@code AbstractActor} + {@code receiveBuilder}), with a default
 * dispatcher set up like Weft's: a fork-join executor with parallelism = available processors, or
 * {@link Kit#PARALLELISM_PROPERTY}
 * (Pekko's default would clamp it to at least 8) and throughput 50 (Weft's batch size; Pekko's
 * default is 5). The mailbox is Pekko's default ({@code UnboundedMailbox}).
 */
final class PekkoKit implements Kit {

    /** The dispatcher settings used for the comparison (documented in docs/benchmarks.md). */
    static final String SETTINGS = """
            pekko {
              loglevel = "WARNING"
              stdout-loglevel = "WARNING"
              log-dead-letters = off
              log-dead-letters-during-shutdown = off
              jvm-shutdown-hooks = off
              coordinated-shutdown.run-by-jvm-shutdown-hook = off
              actor.default-dispatcher {
                executor = "fork-join-executor"
                fork-join-executor {
                  parallelism-min = %1$d
                  parallelism-factor = 1.0
                  parallelism-max = %1$d
                }
                throughput = 50
              }
            }
            """;

    private final ActorSystem system;

    PekkoKit() {
        Config config = ConfigFactory.parseString(SETTINGS.formatted(Kit.parallelism())).withFallback(ConfigFactory.load());
        system = ActorSystem.create("bench", config);
    }

    @Override
    public String name() {
        return Impl.PEKKO.cliName();
    }

    @Override
    public Ref spawn(Handler handler) {
        return new PekkoRef(system.actorOf(props(handler)));
    }

    static Props props(Handler handler) {
        return Props.create(KitActor.class, () -> new KitActor(handler));
    }

    @Override
    public void close() {
        system.terminate();
        try {
            system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException("Pekko system did not terminate within 30 s", e);
        }
    }

    /** A Pekko actor reference as a {@link Ref}. */
    record PekkoRef(ActorRef ref) implements Ref {
        @Override
        public void tell(Object message) {
            ref.tell(message, ActorRef.noSender());
        }
    }

    /** The one actor class: delegates every message to the workload's handler. */
    static final class KitActor extends AbstractActor {
        private final Handler handler;

        KitActor(Handler handler) {
            this.handler = handler;
        }

        @Override
        public Receive createReceive() {
            Ctx ctx = new PekkoCtx(getContext(), new PekkoRef(getSelf()));
            return receiveBuilder().matchAny(m -> handler.onMessage(m, ctx)).build();
        }
    }

    /** The context of one Pekko actor. */
    private record PekkoCtx(AbstractActor.ActorContext context, Ref self) implements Ctx {
        @Override
        public Ref spawn(Handler child) {
            return new PekkoRef(context.actorOf(props(child)));
        }

        @Override
        public void stop() {
            context.stop(context.self());
        }
    }
}
