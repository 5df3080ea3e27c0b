package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The thread of a thread-based actor is named after its system and the actor. */
class ThreadNamesTest {

    private static Thread threadOf(ActorSystem system, Props props) throws Exception {
        CompletableFuture<Thread> t = new CompletableFuture<>();
        system.spawnThread(props, (ActorContext<Object> self) -> t.complete(Thread.currentThread()));
        return t.get(30, TimeUnit.SECONDS);
    }

    @Test
    void aVirtualThreadIsNamedAfterItsActor() throws Exception {
        // with -Dweft.threadActors=continuations a body runs on a shared carrier, named after the system
        org.junit.jupiter.api.Assumptions.assumeFalse(ContinuationModeTest.continuations());
        try (ActorSystem system = ActorSystem.builder().name("names").parallelism(1).build()) {
            Thread t = threadOf(system, Props.named("order-manager"));
            assertTrue(t.isVirtual());
            assertEquals("weft-names-actor-order-manager", t.getName());
            Thread unnamed = threadOf(system, Props.defaults());
            assertTrue(unnamed.getName().matches("weft-names-actor-\\$\\d+"), unnamed.getName());
        }
    }

    @Test
    void aDedicatedPlatformThreadIsNamedAfterItsActor() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("names-platform").parallelism(1).build()) {
            Thread t = threadOf(system, Props.named("reader").withScheduler(system.schedulers().dedicatedThread()));
            assertFalse(t.isVirtual());
            assertEquals("weft-names-platform-actor-reader", t.getName());
        }
    }
}
