package io.weft.actors.bench.kit;

import eu.lucaventuri.fibry.ActorSystem;
import eu.lucaventuri.fibry.CreationStrategy;
import eu.lucaventuri.fibry.PartialActor;

/**
 * fibry ({@code eu.lucaventuri:fibry}), an actor library on virtual threads: every actor is a
 * fibry actor on its {@code FIBER} strategy (one virtual thread per actor blocking on the
 * actor's queue), with the handler called once per message.
 */
final class FibryKit implements Kit {

    @Override
    public String name() {
        return Impl.FIBRY.cliName();
    }

    @Override
    public Ref spawn(Handler handler) {
        FibryCtx ctx = new FibryCtx(this);
        ctx.actor = ActorSystem.anonymous().strategy(CreationStrategy.FIBER)
                .newActor((Object message, PartialActor<Object, Void> self) -> handler.onMessage(message, ctx));
        return ctx;
    }

    @Override
    public void close() {
        // every workload stops its actors; fibry has no system to close
    }

    /** One fibry actor as a {@link Ref} and as its own context. */
    private static final class FibryCtx implements Ref, Ctx {
        private final FibryKit kit;
        volatile eu.lucaventuri.fibry.Actor<Object, Void, Void> actor;

        FibryCtx(FibryKit kit) {
            this.kit = kit;
        }

        @Override
        public void tell(Object message) {
            actor.sendMessage(message);
        }

        @Override
        public Ref self() {
            return this;
        }

        @Override
        public Ref spawn(Handler handler) {
            return kit.spawn(handler);
        }

        @Override
        public void stop() {
            actor.askExit();
        }
    }
}
