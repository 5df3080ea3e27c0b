package io.weft.actors.bench.kit;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;

/**
 * Weft event-based actors: every actor sets its handler with {@code become(handler)} (the
 * persistent form of {@code loop(() -> react(handler))}). By default on the ForkJoin scheduler
 * (parallelism = available processors or {@link Kit#PARALLELISM_PROPERTY}, batch size 50); a {@link WeftReactConfig} sets the
 * scheduler's tuning and batch size, or puts every actor, children included, on the fair
 * scheduler.
 */
final class WeftReactKit implements Kit {

    private final ActorSystem system;
    private final Props props;
    private final String name;

    WeftReactKit(WeftReactConfig config) {
        ActorSystem.Builder builder = ActorSystem.builder()
                .name(config.fair() ? "bench-fair" : "bench-react")
                .parallelism(Kit.parallelism())
                .schedulerTuning(config.tuning());
        if (config.batchSize() > 0) {
            builder.batchSize(config.batchSize());
        }
        system = builder.build();
        props = config.fair() ? Props.defaults().withScheduler(system.schedulers().fair()) : Props.defaults();
        name = (config.fair() ? Impl.WEFT_FAIR : Impl.WEFT).cliName();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Ref spawn(Handler handler) {
        return new WeftRef(spawnActor(handler));
    }

    private ActorRef<Object> spawnActor(Handler handler) {
        return system.spawn(props, (ActorContext<Object> self) -> {
            ReactCtx ctx = new ReactCtx(self, this);
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

    /** The context of one react actor; its children get the kit's props (the same scheduler). */
    private static final class ReactCtx implements Ctx {
        private final ActorContext<Object> self;
        private final WeftReactKit kit;
        private final Ref selfRef;

        ReactCtx(ActorContext<Object> self, WeftReactKit kit) {
            this.self = self;
            this.kit = kit;
            this.selfRef = new WeftRef(self.self());
        }

        @Override
        public Ref self() {
            return selfRef;
        }

        @Override
        public Ref spawn(Handler handler) {
            return kit.spawn(handler);
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
