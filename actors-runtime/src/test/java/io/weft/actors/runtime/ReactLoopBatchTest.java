package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.SupervisorStrategy;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinTask;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A loop of reacts consumes its continuation with each message and installs the next with each
 * react. These pin down what such an actor sees across batches, when a handler changes the
 * continuation's kind, fails, or lets another react actor's batch run inside it on the same
 * worker: any design that keeps the continuation of a running batch elsewhere than in the cell
 * (a slot in the worker, docs/benchmarks.md, section Ingress) must keep them passing.
 */
class ReactLoopBatchTest {

    private ActorSystem system;
    /** What the actors saw, in order. */
    private final Transcript transcript = new Transcript();

    @BeforeEach
    void start() {
        // one worker: a tell from a handler stays on it, so a nested batch runs on the same worker
        system = ActorSystem.builder().name("react-loop").parallelism(1).build();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    @Test
    void aLoopOfReactsHandlesEveryMessageInOrderOverManyBatches() {
        int n = 20_000; // many batches of the default budget
        List<Integer> got = new ArrayList<>(n); // the actor's own list: read after finished
        ActorRef<Integer> a = system.spawn(self -> self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, i -> {
            got.add(i);
            if (i == n - 1) {
                transcript.finished();
            }
        }).build())));
        for (int i = 0; i < n; i++) {
            a.tell(i);
        }
        transcript.awaitFinished();
        assertEquals(n, got.size());
        for (int i = 0; i < n; i++) {
            assertEquals(i, got.get(i));
        }
    }

    @Test
    void becomeFromAReactHandlerKeepsItsHandlerAfterTheBatch() {
        ActorRef<String> a = system.spawn(self -> {
            Receive<String, Void> second = Receive.<String>handler().match(String.class, m -> {
                transcript.add("second " + m);
                if (m.equals("last")) {
                    transcript.finished();
                }
            }).build();
            self.loop(() -> self.react(Receive.<String>handler().match(String.class, m -> {
                transcript.add("first " + m);
                if (m.equals("switch")) {
                    self.become(second);
                }
            }).build()));
        });
        transcript.tellInOrderAndExpect(a, List.of("a", "switch", "b", "c", "last"), List.of("first a", "first switch", "second b", "second c", "second last"));
    }

    @Test
    void aFailingReactHandlerStaysInstalledWhenItsSupervisorResumes() {
        Props resuming = Props.defaults().withSupervisor(SupervisorStrategy.builder().otherwise(SupervisorStrategy.Directive.RESUME).build());
        ActorRef<String> a = system.spawn(resuming, () -> (ActorContext<String> self) -> self.loop(() -> self.react(Receive.<String>handler().match(String.class, m -> {
            if (m.equals("boom")) {
                throw new IllegalStateException("boom (expected by the test)");
            }
            transcript.add(m);
            if (m.equals("last")) {
                transcript.finished();
            }
        }).build())));
        transcript.tellInOrderAndExpect(a, List.of("a", "boom", "b", "boom", "last"), List.of("a", "b", "last"));
        assertFalse(a.isTerminated());
    }

    @Test
    void aReactBatchNestedInAReactHandlerOnTheSameWorkerLeavesBothContinuations() {
        AtomicBoolean insideOuter = new AtomicBoolean();
        AtomicBoolean innerRanInside = new AtomicBoolean();
        CompletableFuture<Void> innerDone = new CompletableFuture<>();
        ActorRef<String> filler = system.spawn(self -> self.become(Receive.<String>handler().match(String.class, m -> { }).build()));
        ActorRef<String> inner = system.spawn(self -> self.loop(() -> self.react(Receive.<String>handler().match(String.class, m -> {
            transcript.add("inner " + m);
            if (insideOuter.get()) {
                innerRanInside.set(true);
            }
            if (m.equals("y")) {
                innerDone.complete(null);
            }
        }).build())));
        int[] reacts = new int[1]; // the outer actor's count of its reacts: each handler knows its own
        ActorRef<String> outer = system.spawn(self -> self.loop(() -> {
            int handlerNumber = reacts[0]++;
            self.react(Receive.<String>handler().match(String.class, m -> {
                transcript.add("outer " + m + " by handler " + handlerNumber);
                if (m.equals("nest")) {
                    filler.tell("fill"); // takes the worker's one-slot hand-off queue
                    inner.tell("x"); // so this one goes to the worker's local queue
                    insideOuter.set(true);
                    ForkJoinTask.helpQuiesce(); // runs the inner actor's batch inside this handler
                    insideOuter.set(false);
                }
                if (m.equals("last")) {
                    transcript.finished();
                }
            }).build());
        }));
        outer.tell("a");
        outer.tell("nest");
        outer.tell("b");
        outer.tell("last");
        transcript.awaitFinished();
        inner.tell("y");
        await(innerDone);
        assertTrue(innerRanInside.get(), "the inner batch ran inside the outer handler");
        // each message by the handler of the react after the previous one: none handled twice by one
        transcript.expect(List.of("outer a by handler 0", "outer nest by handler 1", "inner x", "outer b by handler 2",
                "outer last by handler 3", "inner y"));
        assertFalse(outer.isTerminated());
        assertFalse(inner.isTerminated());
    }
}
