package io.weft.actors.bench.kit;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;

/**
 * Weft event-based actors: every actor sets its handler with {@code become(handler)} (the
 * persistent form of {@code loop(() -> react(handler))}) on the default ForkJoin scheduler
 * (parallelism = available processors, batch size 50).
 */
final class WeftReactKit implements Kit {

    private final ActorSystem system = ActorSystem.builder().name("bench-react").build();

    @Override
    public String name() {
        return Impl.WEFT.cliName();
    }

    @Override
    public Ref spawn(Handler handler) {
        return new WeftRef(spawnIn(system, handler));
    }

    static ActorRef<Object> spawnIn(ActorSystem system, Handler handler) {
        return system.spawn((ActorContext<Object> self) -> {
            ReactCtx ctx = new ReactCtx(self, system);
            Receive<Object, Void> receive = Receive.<Object>handler()
                    .matchAny(m -> handler.onMessage(m, ctx))
                    .build();
            self.become(receive);
        });
    }

    @Override
    public void close() {
        system.close();
    }

    /** The context of one react actor. */
    private static final class ReactCtx implements Ctx {
        private final ActorContext<Object> self;
        private final ActorSystem system;
        private final Ref selfRef;

        ReactCtx(ActorContext<Object> self, ActorSystem system) {
            this.self = self;
            this.system = system;
            this.selfRef = new WeftRef(self.self());
        }

        @Override
        public Ref self() {
            return selfRef;
        }

        @Override
        public Ref spawn(Handler handler) {
            return new WeftRef(spawnIn(system, handler));
        }

        @Override
        public void stop() {
            self.stop();
        }
    }

    /** A Weft actor reference as a {@link Ref}. */
    record WeftRef(ActorRef<Object> ref) implements Ref {
        @Override
        public void tell(Object message) {
            ref.tell(message);
        }
    }
}
