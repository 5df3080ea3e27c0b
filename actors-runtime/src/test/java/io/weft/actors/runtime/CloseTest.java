package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** {@code close()} stops every actor and ends every thread the system started. */
class CloseTest {

    private static final Duration ASK = Duration.ofSeconds(30);

    private static Set<Thread> liveThreads() {
        return Thread.getAllStackTraces().keySet();
    }

    /** Threads alive now that were not alive in {@code before} and whose name marks them as the system's. */
    private static List<Thread> startedBy(String systemName, Set<Thread> before) {
        return liveThreads().stream()
                .filter(t -> !before.contains(t) && t.getName().startsWith("weft-" + systemName + "-"))
                .toList();
    }

    private static ActorRef<Object> echo(ActorSystem system, Props props) {
        return system.spawn(props, self -> self.loop(() -> self.react(Receive.<Object>handler()
                .matchAny(m -> self.reply(Thread.currentThread().getName()))
                .build())));
    }

    /**
     * Every thread the system started ends: joins each (a thread may take a moment to exit after
     * its pool reported termination) and fails if one is still alive after a generous wait.
     */
    private static void assertAllEnd(String systemName, Set<Thread> before, List<Thread> startedEarlier) {
        startedEarlier.forEach(Probes::join);
        startedBy(systemName, before).forEach(Probes::join);
        assertEquals(List.of(), startedBy(systemName, before), "threads the system started are still running");
    }

    @Test
    void closeEndsWorkersTimerAndDedicatedThreads() {
        Set<Thread> before = liveThreads();
        ActorSystem system = ActorSystem.builder().name("closing").parallelism(2).build();
        Probes.Lifecycle lifecycle = Probes.Lifecycle.of(system);
        Probes.Dead dead = Probes.Dead.of(system);
        ActorRef<Object> onPool = echo(system, Props.named("pool"));
        ActorRef<Object> dedicated = echo(system, Props.named("dedicated").withScheduler(system.schedulers().dedicatedThread()));
        ActorRef<Object> ticking = echo(system, Props.named("ticking").withScheduler(system.schedulers().timer(Duration.ofMillis(1))));
        // asks start the timer thread; each answer names the thread that ran the handler
        String poolThread = await(system.<Object, String>ask(onPool, "where?", ASK));
        String dedicatedThread = await(system.<Object, String>ask(dedicated, "where?", ASK));
        String timerThread = await(system.<Object, String>ask(ticking, "where?", ASK));
        // an actor that never gets a message, and one with mail queued behind a waiting react
        ActorRef<Object> idle = echo(system, Props.named("idle"));
        ActorRef<Object> waiting = system.spawn("waiting", self -> self.react(Receive.<Object>handler()
                .match(Long.class, l -> { })
                .build()));
        waiting.tell("never handled");

        List<Thread> started = startedBy("closing", before);
        List<String> names = started.stream().map(Thread::getName).toList();
        assertTrue(poolThread.startsWith("weft-closing-worker-") && names.contains(poolThread), poolThread + " in " + names);
        assertTrue(dedicatedThread.startsWith("weft-closing-actor-") && names.contains(dedicatedThread), dedicatedThread + " in " + names);
        assertEquals("weft-closing-timer", timerThread);
        assertTrue(names.contains(timerThread), names.toString());

        system.close();

        assertTrue(system.isClosed());
        assertEquals(0, system.actorCount());
        for (ActorRef<Object> ref : List.of(onPool, dedicated, ticking, idle, waiting)) {
            assertTrue(ref.isTerminated(), ref + " stopped");
            assertTrue(lifecycle.stopped(ref).isDone(), ref + " published STOPPED before close returned");
        }
        assertTrue(dead.letters.stream().anyMatch(l -> l.message().equals("never handled")
                && l.recipient().equals(waiting) && l.reason() == DeadLetter.Reason.SYSTEM_CLOSED),
                "queued mail is a dead letter: " + dead.letters);
        assertAllEnd("closing", before, started);
    }

    @Test
    void closeFromInsideAnActorFinishesWhenTheHandlerReturns() {
        Set<Thread> before = liveThreads();
        ActorSystem system = ActorSystem.builder().name("selfclose").parallelism(2).build();
        Probes.Lifecycle lifecycle = Probes.Lifecycle.of(system);
        CompletableFuture<String> returned = new CompletableFuture<>();
        ActorRef<Object> closer = system.spawn("closer", self -> self.react(Receive.<Object>handler()
                .matchAny(m -> {
                    self.system().close(); // must not wait for this very handler
                    returned.complete("close returned inside the handler");
                })
                .build()));
        ActorRef<Object> other = echo(system, Props.named("other").withScheduler(system.schedulers().dedicatedThread()));
        assertEquals("weft-selfclose-actor-other", await(system.<Object, String>ask(other, "hi", ASK)));
        closer.tell("close now");
        assertEquals("close returned inside the handler", await(returned));
        List<Thread> started = startedBy("selfclose", before);
        system.close(); // from outside: waits until the close begun inside has finished
        assertEquals(List.of(LifecycleEvent.Kind.STARTED, LifecycleEvent.Kind.STOPPED), lifecycle.kindsOf(closer));
        assertTrue(other.isTerminated());
        assertEquals(0, system.actorCount());
        assertAllEnd("selfclose", before, started);
    }
}
