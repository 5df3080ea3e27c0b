package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@code messagesHandled()} counts every message whose handler completed exactly once, also when
 * a step composed after the handler ({@code loop}'s body, {@code andThen}'s next step) throws: the
 * turn counts its handled messages at the end of its batch, and such a message is not among them.
 */
class HandledCountTest {

    private static final long WAIT = 30;

    @Test
    void aLoopBodyThatThrowsAfterNHandledMessagesLeavesNHandled() throws Exception {
        int n = 5;
        ActorSystem system = ActorSystem.builder().name("handled-loop").parallelism(1).build();
        try (system) {
            int[] seen = {0}; // the actor's own count
            ActorRef<Integer> a = system.spawn("looper", (ActorContext<Integer> self) -> self.loop(() -> {
                if (seen[0] == n) {
                    throw new IllegalStateException("the loop body fails after " + n + " messages (expected by the test)");
                }
                self.react(Receive.<Integer>handler().match(Integer.class, i -> seen[0]++).build());
            }));
            CountDownLatch stopped = stoppedLatch(system, a);
            for (int i = 0; i < n; i++) {
                a.tell(i);
            }
            assertTrue(stopped.await(WAIT, TimeUnit.SECONDS), "the actor did not stop after its loop body threw");
        }
        // closed: the pool's termination orders every worker's counts before this read
        assertEquals(n, system.metrics().messagesHandled());
    }

    @Test
    void anAndThenStepThatThrowsAfterTheHandlerCountsItsMessageOnce() throws Exception {
        ActorSystem system = ActorSystem.builder().name("handled-and-then").parallelism(1).build();
        try (system) {
            ActorRef<String> a = system.spawn("step", (ActorContext<String> self) -> self.andThen(
                    () -> self.react(Receive.<String>handler().match(String.class, m -> { }).build()),
                    () -> {
                        throw new IllegalStateException("the step after the handler fails (expected by the test)");
                    }));
            CountDownLatch stopped = stoppedLatch(system, a);
            a.tell("one");
            assertTrue(stopped.await(WAIT, TimeUnit.SECONDS), "the actor did not stop after its andThen step threw");
        }
        assertEquals(1, system.metrics().messagesHandled());
    }

    private static CountDownLatch stoppedLatch(ActorSystem system, ActorRef<?> actor) {
        CountDownLatch stopped = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.actor() == actor && e.kind() == LifecycleEvent.Kind.STOPPED) {
                stopped.countDown();
            }
        });
        if (actor.isTerminated()) {
            stopped.countDown();
        }
        return stopped;
    }
}
