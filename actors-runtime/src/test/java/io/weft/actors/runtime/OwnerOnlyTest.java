package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The owner-only methods of {@link ActorContext} refuse a call from a thread that is not running the
 * actor, with a message naming the actor and the thread, and leave the actor as it was.
 */
class OwnerOnlyTest {

    private ActorSystem system;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("owner-only").parallelism(2).build();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    /** Every owner-only method, as a call on a context kept by the test. */
    private static Map<String, Consumer<ActorContext<Object>>> ownerOnly(ActorRef<Object> other) {
        Receive<Object, ?> h = Receive.handler().matchAny(m -> { }).build();
        return Map.ofEntries(
                Map.entry("sender()", c -> c.sender()),
                Map.entry("reply", c -> c.reply("x")),
                Map.entry("forward", c -> c.forward(other, "x")),
                Map.entry("react", c -> c.react(h)),
                Map.entry("become", c -> c.become(h)),
                Map.entry("receive", c -> c.receive(h)),
                Map.entry("loop", c -> c.loop(() -> { })),
                Map.entry("loopWhile", c -> c.loopWhile(() -> false, () -> { })),
                Map.entry("andThen", c -> c.andThen(() -> { }, () -> { })),
                Map.entry("switchToThread", c -> c.switchToThread(() -> { })),
                Map.entry("moveTo", c -> c.moveTo(c.system().schedulers().fair())),
                Map.entry("open", c -> c.open(String.class)),
                Map.entry("watch", c -> c.watch(other)),
                Map.entry("unwatch", c -> c.unwatch(other)),
                Map.entry("link", c -> c.link(other)),
                Map.entry("unlink", c -> c.unlink(other)),
                Map.entry("trapExit", c -> c.trapExit(true)),
                Map.entry("spawnChild", c -> c.spawnChild(Props.defaults(), () -> self -> { })),
                Map.entry("spawnChildThread", c -> c.spawnChildThread(Props.defaults(), () -> self -> { })),
                Map.entry("onStop", c -> c.onStop(() -> { })));
    }

    @Test
    void reactFromAForeignThreadIsRefusedAndTheActorsOwnHandlerKeepsRunning() throws Exception {
        CompletableFuture<ActorContext<Object>> kept = new CompletableFuture<>();
        LinkedBlockingQueue<String> seen = new LinkedBlockingQueue<>();
        ActorRef<Object> actor = system.spawn("becomer", self -> {
            kept.complete(self);
            self.become(Receive.handler().matchAny(m -> seen.add("own:" + m)).build());
        });
        ActorContext<Object> ctx = kept.get(30, TimeUnit.SECONDS);
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> ctx.react(Receive.handler().matchAny(m -> seen.add("foreign:" + m)).build()));
        assertTrue(refused.getMessage().contains("react") && refused.getMessage().contains("becomer")
                && refused.getMessage().contains(Thread.currentThread().getName()), refused.getMessage());
        actor.tell("a");
        actor.tell("b");
        assertEquals("own:a", seen.poll(30, TimeUnit.SECONDS));
        assertEquals("own:b", seen.poll(30, TimeUnit.SECONDS));
        assertNull(seen.poll());
    }

    @Test
    void everyOwnerOnlyMethodRefusesAForeignThread() throws Exception {
        CompletableFuture<ActorContext<Object>> kept = new CompletableFuture<>();
        ActorRef<Object> other = system.spawn(self -> self.become(Receive.handler().matchAny(m -> { }).build()));
        ActorRef<Object> actor = system.spawn("kept", self -> {
            kept.complete(self);
            self.become(Receive.handler().matchAny(m -> self.reply(m)).build());
        });
        ActorContext<Object> ctx = kept.get(30, TimeUnit.SECONDS);
        for (Map.Entry<String, Consumer<ActorContext<Object>>> e : ownerOnly(other).entrySet()) {
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> e.getValue().accept(ctx),
                    e.getKey() + " from a foreign thread must be refused");
            assertTrue(refused.getMessage().startsWith(e.getKey() + " called on ") && refused.getMessage().contains("kept"),
                    e.getKey() + ": " + refused.getMessage());
        }
        // the actor is unharmed: it still answers as its own handler says
        assertEquals("ping", system.<Object, String>ask(actor, "ping", Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS));
    }

    @Test
    void aThreadStartedByAHandlerIsNotTheOwner() throws Exception {
        CompletableFuture<Throwable> outcome = new CompletableFuture<>();
        ActorRef<Object> actor = system.spawn(self -> self.loop(() -> self.react(Receive.handler().matchAny(m ->
                Thread.ofPlatform().start(() -> {
                    try {
                        self.reply("late");
                        outcome.complete(null);
                    } catch (Throwable t) {
                        outcome.complete(t);
                    }
                })).build())));
        actor.tell("go", actor);
        Throwable t = outcome.get(30, TimeUnit.SECONDS);
        assertTrue(t instanceof IllegalStateException && t.getMessage().startsWith("reply called on "), String.valueOf(t));
    }

    @Test
    void theOwnerStillUsesEveryMethodAndAForeignStopEndsAnIdleActor() throws Exception {
        CountDownLatch stopped = new CountDownLatch(1);
        CountDownLatch published = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == io.weft.actors.LifecycleEvent.Kind.STOPPED) {
                published.countDown();
            }
        });
        CompletableFuture<ActorContext<Object>> kept = new CompletableFuture<>();
        List<String> steps = new java.util.concurrent.CopyOnWriteArrayList<>();
        ActorRef<Object> actor = system.spawn(self -> {
            self.onStop(stopped::countDown);
            self.open(String.class);
            self.andThen(() -> steps.add("first"), () -> {
                steps.add("second");
                kept.complete(self);
                self.become(Receive.handler().matchAny(m -> { }).build());
            });
        });
        ActorContext<Object> ctx = kept.get(30, TimeUnit.SECONDS);
        assertEquals(List.of("first", "second"), steps);
        ctx.stop(); // any thread: the idle actor is activated to finish stopping
        assertTrue(stopped.await(30, TimeUnit.SECONDS), "stop() from a foreign thread did not end the idle actor");
        assertTrue(published.await(30, TimeUnit.SECONDS), "STOPPED not published");
        assertTrue(actor.isTerminated());
    }
}
