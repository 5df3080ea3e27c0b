package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Receive;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The unification (Haller and Odersky 2009, §3.3): one actor moves between thread mode ({@code receive} on its own
 * virtual thread) and react mode ({@code react} on the pool) over and over while other actors and a
 * plain thread flood it. Every message must be handled exactly once, in per-sender order.
 */
class ModeBounceTest {

    private static final int SENDERS = 4;
    private static final int PER_SENDER = 4_000;
    private static final int TOTAL = SENDERS * PER_SENDER;

    private record Msg(int sender, int seq) {
    }

    /** Owner-only state: touched only by whichever thread runs the actor at the time. */
    private static final class Bouncer implements Behavior<Object> {
        final int[] next = new int[SENDERS];
        final CompletableFuture<Bouncer> done = new CompletableFuture<>();
        int handled;
        int toThread;
        int toReact;
        String error;
        ActorContext<Object> self;
        final Receive<Object, Msg> takeMsg = Receive.<Object, Msg>returning().match(Msg.class, m -> m).build();
        final Receive<Object, Void> reactHandler = Receive.<Object>handler().match(Msg.class, m -> {
            check(m, false);
            if (handled < TOTAL) {
                toThread++;
                self.switchToThread(this::threadStep);
            } else {
                done.complete(this);
            }
        }).build();

        @Override
        public void start(ActorContext<Object> context) {
            self = context;
            threadStep();
        }

        /** Thread mode: receive one to three messages, blocking, then detach into react mode. */
        void threadStep() {
            int batch = 1 + (toThread % 3);
            for (int i = 0; i < batch; i++) {
                check(self.receive(takeMsg), true);
                if (handled == TOTAL) {
                    done.complete(this);
                    return;
                }
            }
            toReact++;
            self.react(reactHandler);
            throw new AssertionError("react in thread mode must not return");
        }

        void check(Msg m, boolean threadMode) {
            boolean onPool = Thread.currentThread().getName().contains("worker");
            if (error == null && threadMode == onPool) {
                error = "message " + m + " handled in the wrong mode on " + Thread.currentThread();
            }
            if (error == null && next[m.sender()] != m.seq()) {
                error = "sender " + m.sender() + ": expected " + next[m.sender()] + " but got " + m.seq();
            }
            next[m.sender()] = m.seq() + 1;
            handled++;
        }
    }

    @Test
    void oneActorBouncesBetweenThreadAndReactModeWhileFlooded() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("bounce").parallelism(2).build()) {
            Bouncer bouncer = new Bouncer();
            ActorRef<Object> target = system.spawnThread("bouncer", bouncer);
            // two react actors, one thread-based actor and one plain thread flood it
            for (int s = 0; s < 2; s++) {
                int sender = s;
                system.spawn("flood-react-" + s, (ActorContext<Object> self) -> {
                    for (int i = 0; i < PER_SENDER; i++) {
                        target.tell(new Msg(sender, i));
                    }
                });
            }
            system.spawnThread("flood-thread", self -> {
                for (int i = 0; i < PER_SENDER; i++) {
                    target.tell(new Msg(2, i));
                }
            });
            Thread plain = Thread.ofPlatform().start(() -> {
                for (int i = 0; i < PER_SENDER; i++) {
                    target.tell(new Msg(3, i));
                }
            });
            Bouncer b = bouncer.done.get(60, TimeUnit.SECONDS);
            plain.join();
            assertEquals(null, b.error);
            assertEquals(TOTAL, b.handled);
            int[] expected = new int[SENDERS];
            Arrays.fill(expected, PER_SENDER);
            assertArrayEquals(expected, b.next);
            assertTrue(b.toThread + b.toReact >= 10_000, "mode switches: " + (b.toThread + b.toReact));
        }
    }
}
