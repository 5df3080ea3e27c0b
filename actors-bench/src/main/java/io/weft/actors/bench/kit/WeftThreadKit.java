package io.weft.actors.bench.kit;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;

/**
 * Weft thread-based actors: every actor is a {@code spawnThread} body on a virtual thread that
 * loops over a blocking {@code receive}.
 */
final class WeftThreadKit implements Kit {

    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    private final ActorSystem system = ActorSystem.builder().name("bench-thread").build();

    @Override
    public String name() {
        return Impl.WEFT_THREAD.cliName();
    }

    @Override
    public Ref spawn(Handler handler) {
        return new WeftReactKit.WeftRef(spawnIn(system, handler));
    }

    static ActorRef<Object> spawnIn(ActorSystem system, Handler handler) {
        return system.spawnThread(io.weft.actors.Props.defaults(), (ActorContext<Object> self) -> {
            ThreadCtx ctx = new ThreadCtx(self, system);
            while (!ctx.stopped) {
                handler.onMessage(self.receive(ANY), ctx);
            }
        });
    }

    @Override
    public void close() {
        system.close();
    }

    /** The context of one thread-based actor. */
    private static final class ThreadCtx implements Ctx {
        private final ActorSystem system;
        private final Ref selfRef;
        boolean stopped;

        ThreadCtx(ActorContext<Object> self, ActorSystem system) {
            this.system = system;
            this.selfRef = new WeftReactKit.WeftRef(self.self());
        }

        @Override
        public Ref self() {
            return selfRef;
        }

        @Override
        public Ref spawn(Handler handler) {
            return new WeftReactKit.WeftRef(spawnIn(system, handler));
        }

        @Override
        public void stop() {
            stopped = true;
        }
    }
}
