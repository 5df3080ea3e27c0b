package io.weft.actors.bench.kit;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;

/**
 * Weft thread-based actors: every actor is a {@code spawnThread} body on a virtual thread (or,
 * for {@code weft-cont}, a continuation on a shared carrier) that loops over a blocking
 * {@code receive}.
 */
final class WeftThreadKit implements Kit {

    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    private final ActorSystem system;
    private final Impl impl;

    /** Thread-based actors on a virtual thread each (the default). */
    WeftThreadKit() {
        this.impl = Impl.WEFT_THREAD;
        this.system = ActorSystem.builder().name("bench-thread").build();
    }

    /**
     * @param continuations true: bodies as continuations on shared carriers (the opt-in
     *     {@code -Dweft.threadActors=continuations}, set while this kit's system makes its thread
     *     scheduler); needs {@code --add-exports java.base/jdk.internal.vm=ALL-UNNAMED}
     */
    WeftThreadKit(boolean continuations) {
        if (!continuations) {
            this.impl = Impl.WEFT_THREAD;
            this.system = ActorSystem.builder().name("bench-thread").build();
            return;
        }
        this.impl = Impl.WEFT_CONT;
        this.system = ActorSystem.builder().name("bench-cont").build();
        String key = "weft.threadActors";
        String before = System.getProperty(key);
        System.setProperty(key, "continuations");
        String made;
        try {
            made = system.schedulers().virtualThread().name(); // made now, with the property set
        } finally {
            if (before == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, before);
            }
        }
        if (!made.equals("continuation")) {
            system.close();
            throw new IllegalStateException("weft-cont: thread-based actors fell back to virtual threads (scheduler \"" + made
                    + "\"); start the JVM with --add-exports java.base/jdk.internal.vm=ALL-UNNAMED");
        }
    }

    @Override
    public String name() {
        return impl.cliName();
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
