package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.SupervisorStrategy;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A persistent continuation ({@code become}) stays installed while its handler runs, and the
 * runtime writes nothing back unless the handler changes it: these pin down what the handler sees
 * and what the next message meets when it does change it (react, become), fails, or is asked.
 * (switchToThread from a become handler needs a thread scheduler: actors-loom's BecomeToThreadTest.)
 */
class BecomeTest {

    private ActorSystem system;
    /** What the actors saw, in order. */
    private final Transcript transcript = new Transcript();

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("become").parallelism(2).build();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    @Test
    void senderIsTheAskersReplyToDuringItsMessageAndNullForAPlainTellAfterIt() {
        ActorRef<String> a = system.spawn(self -> self.become(Receive.<String>handler().match(String.class, m -> {
            transcript.add(m + (self.sender() == null ? " without sender" : " with sender"));
            if (self.sender() != null) {
                self.reply(m);
            }
            if (m.equals("last")) {
                transcript.finished();
            }
        }).build()));
        assertEquals("first", await(system.<String, Object>ask(a, "first", Duration.ofSeconds(30))));
        a.tell("plain");
        assertEquals("second", await(system.<String, Object>ask(a, "second", Duration.ofSeconds(30))));
        a.tell("last");
        transcript.expect(List.of("first with sender", "plain without sender", "second with sender", "last without sender"));
    }

    @Test
    void reactInsideABecomeHandlerTakesOnlyTheNextMessage() {
        final class Handlers {
            Receive<String, Void> kept;
            Receive<String, Void> once;
        }
        Handlers handlers = new Handlers();
        ActorRef<String> a = system.spawn(self -> {
            handlers.kept = Receive.<String>handler().match(String.class, m -> {
                transcript.add("kept " + m);
                if (m.equals("once")) {
                    self.react(handlers.once);
                } else if (m.equals("last")) {
                    transcript.finished();
                }
            }).build();
            handlers.once = Receive.<String>handler().match(String.class, m -> {
                transcript.add("once " + m);
                self.become(handlers.kept);
            }).build();
            self.become(handlers.kept);
        });
        transcript.tellInOrderAndExpect(a, List.of("a", "once", "b", "c", "last"), List.of("kept a", "kept once", "once b", "kept c", "kept last"));
    }

    @Test
    void becomeInsideABecomeHandlerReplacesItForEveryFollowingMessage() {
        ActorRef<String> a = system.spawn(self -> self.become(Receive.<String>handler().match(String.class, m -> {
            transcript.add("first " + m);
            if (m.equals("switch")) {
                self.become(Receive.<String>handler().match(String.class, n -> {
                    transcript.add("second " + n);
                    if (n.equals("last")) {
                        transcript.finished();
                    }
                }).build());
            }
        }).build()));
        transcript.tellInOrderAndExpect(a, List.of("a", "switch", "b", "c", "last"), List.of("first a", "first switch", "second b", "second c", "second last"));
    }

    @Test
    void aFailingBecomeHandlerStaysInstalledWhenItsSupervisorResumes() {
        Props resuming = Props.defaults().withSupervisor(SupervisorStrategy.builder().otherwise(SupervisorStrategy.Directive.RESUME).build());
        ActorRef<String> a = system.spawn(resuming, () -> (ActorContext<String> self) -> self.become(Receive.<String>handler().match(String.class, m -> {
            if (m.equals("boom")) {
                throw new IllegalStateException("boom (expected by the test)");
            }
            transcript.add(m);
            if (m.equals("last")) {
                transcript.finished();
            }
        }).build()));
        transcript.tellInOrderAndExpect(a, List.of("a", "boom", "b", "boom", "last"), List.of("a", "b", "last"));
        assertFalse(a.isTerminated());
    }
}
