package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorStoppedException;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.runtime.internal.system.WeftSystem;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * Closing a system with many thread-based actors parked in {@code receive} ends every one of them
 * through its body, even when the stop grace period is shorter than the carriers need to reach
 * them all: each receive throws {@link ActorStoppedException}, each body's {@code finally} and
 * each {@code onStop} hook runs before close returns, and none is ended from outside (no overrun
 * warning), because the grace counts from the last actor that ended (SystemClose's design block).
 */
class CloseManyParkedTest {

    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    @Test
    void closeEndsEveryParkedBodyThroughItsFinallyAndOnStopHooks() throws InterruptedException {
        int actors = 60_000;
        // a grace far shorter than 60,000 bodies take to end on 2 cores: without the grace that
        // counts from the last ended actor, most of them were ended from outside
        ActorSystem system = ActorSystem.builder().name("close-many-parked").parallelism(2)
                .stopGracePeriod(Duration.ofMillis(500)).build();
        List<String> warnings = new CopyOnWriteArrayList<>();
        ((WeftSystem) system).warningListener(warnings::add);
        CountDownLatch parked = new CountDownLatch(actors);
        AtomicInteger stoppedInReceive = new AtomicInteger();
        AtomicInteger finallyRan = new AtomicInteger();
        AtomicInteger onStopRan = new AtomicInteger();
        try {
            for (int i = 0; i < actors; i++) {
                system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
                    self.onStop(onStopRan::incrementAndGet);
                    try {
                        parked.countDown();
                        self.receive(ANY);
                    } catch (ActorStoppedException expected) {
                        stoppedInReceive.incrementAndGet();
                        throw expected;
                    } finally {
                        finallyRan.incrementAndGet();
                    }
                });
            }
            assertTrue(parked.await(60, TimeUnit.SECONDS), "actors not started within 60 s: " + parked.getCount() + " left");
            assertTimeoutPreemptively(Duration.ofSeconds(120), system::close);
            assertEquals(0, system.actorCount());
            assertEquals(List.of(), warnings.stream().filter(w -> w.contains("did not stop within")).toList(),
                    "no actor ended from outside");
            assertEquals(actors, stoppedInReceive.get(), "every receive threw ActorStoppedException");
            assertEquals(actors, finallyRan.get(), "every body's finally ran before close returned");
            assertEquals(actors, onStopRan.get(), "every onStop hook ran before close returned");
        } finally {
            system.close();
        }
    }
}
