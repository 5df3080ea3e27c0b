package io.weft.actors.runtime;

import static io.weft.actors.runtime.Probes.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.EventStream;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Ids, names, dead letters, lifecycle events, failures and misuse of react/receive. */
class RegistryTest {

    private static final Duration ASK = Duration.ofSeconds(30);

    private ActorSystem system;
    private Probes.Lifecycle lifecycle;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("registry").parallelism(2).build();
        lifecycle = Probes.Lifecycle.of(system);
    }

    @AfterEach
    void stop() {
        system.close();
    }

    record Stop() {
    }

    /** Answers with its own ref and stops on {@link Stop}. */
    private ActorRef<Object> stoppable(Props props) {
        return system.spawn(props, self -> self.loop(() -> self.react(Receive.<Object>handler()
                .match(Stop.class, s -> self.stop())
                .matchAny(m -> self.reply(m))
                .build())));
    }

    @Test
    void idsAreUniqueAndNeverReused() {
        Set<Long> ids = new HashSet<>();
        List<ActorRef<Object>> first = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            first.add(stoppable(Props.defaults()));
        }
        for (ActorRef<Object> ref : first) {
            assertTrue(ref.id() > 0);
            assertTrue(ids.add(ref.id()), "duplicate id " + ref.id());
            ref.tell(new Stop());
        }
        for (ActorRef<Object> ref : first) {
            await(lifecycle.stopped(ref));
        }
        for (int i = 0; i < 200; i++) {
            ActorRef<Object> ref = stoppable(Props.defaults());
            assertTrue(ids.add(ref.id()), "id " + ref.id() + " reused after its actor stopped");
            assertEquals("$" + ref.id(), ref.name(), "generated name");
        }
        assertEquals(400, ids.size());
    }

    @Test
    void lookupByNameAndNamesReleasedOnStop() {
        ActorRef<Object> orders = stoppable(Props.named("orders"));
        assertSame(orders, system.lookup("orders").orElseThrow());
        assertEquals(Optional.empty(), system.lookup("nobody"));
        assertTrue(orders.toString().contains("orders") && orders.toString().contains("#" + orders.id()), orders.toString());
        assertEquals("weft://registry/orders#" + orders.id(), orders.address());
        assertSame(orders, system.resolve(orders.address()));
        assertEquals("hi", await(system.ask(system.lookup("orders").orElseThrow(), "hi", ASK)));

        orders.tell(new Stop());
        await(lifecycle.stopped(orders));
        assertEquals(Optional.empty(), system.lookup("orders"), "a stopped actor is not found");
        ActorRef<Object> again = stoppable(Props.named("orders")); // the name is free again
        assertNotEquals(orders, again);
        assertNotEquals(orders.id(), again.id());
        assertSame(again, system.lookup("orders").orElseThrow());
        assertTrue(system.resolve(orders.address()).isTerminated(), "the old address resolves to a stopped ref");
    }

    @Test
    void deadLettersAreCountedAndPublished() {
        ActorRef<Object> ref = stoppable(Props.named("gone"));
        ref.tell(new Stop());
        await(lifecycle.stopped(ref));
        List<DeadLetter> seen = new CopyOnWriteArrayList<>();
        EventStream.Subscription sub = system.deadLetters().subscribe(seen::add);
        long before = system.deadLetters().count();
        ref.tell("late");
        ref.tell("later", ref);
        assertEquals(before + 2, system.deadLetters().count());
        assertEquals(2, seen.size());
        assertEquals(new DeadLetter("late", ref, null, DeadLetter.Reason.RECIPIENT_STOPPED), seen.get(0));
        assertEquals(new DeadLetter("later", ref, ref, DeadLetter.Reason.RECIPIENT_STOPPED), seen.get(1));
        sub.close();
        ref.tell("unobserved");
        assertEquals(before + 3, system.deadLetters().count(), "counted even when nobody listens");
        assertEquals(2, seen.size(), "closing the subscription stops delivery");

        // an actor can subscribe too
        CompletableFuture<Object> got = new CompletableFuture<>();
        ActorRef<Object> watcher = system.spawn(self -> self.react(Receive.<Object>handler()
                .match(DeadLetter.class, got::complete)
                .build()));
        system.deadLetters().subscribe(watcher);
        ref.tell("watched");
        assertEquals("watched", assertInstanceOf(DeadLetter.class, await(got)).message());
    }

    @Test
    void aStoppedDeadLetterSubscriberDoesNotLoop() {
        // the watcher handles one dead letter and stops; every later dead letter is told to it, is
        // itself undeliverable, and must not be published to it again (and again...)
        CompletableFuture<Object> got = new CompletableFuture<>();
        ActorRef<Object> watcher = system.spawn(self -> self.react(Receive.<Object>handler()
                .match(DeadLetter.class, got::complete)
                .build()));
        system.deadLetters().subscribe(watcher);
        ActorRef<Object> gone = stoppable(Props.defaults());
        gone.tell(new Stop());
        await(lifecycle.stopped(gone));
        gone.tell("first");
        await(got);
        await(lifecycle.stopped(watcher));
        long before = system.deadLetters().count();
        gone.tell("second"); // a dead letter, told to the stopped watcher: one more dead letter, no more
        assertEquals(before + 2, system.deadLetters().count());
    }

    @Test
    void lifecycleStreamSaysStartedFailedStopped() {
        IllegalStateException boom = new IllegalStateException("boom");
        ActorRef<Object> failing = system.spawn("failing", self -> self.loop(() -> self.react(Receive.<Object>handler()
                .match(String.class, s -> {
                    throw boom;
                })
                .matchAny(self::reply)
                .build())));
        assertEquals(1, (int) await(system.<Object, Integer>ask(failing, 1, ASK)));
        failing.tell("fail");
        await(lifecycle.stopped(failing));
        assertEquals(List.of(LifecycleEvent.Kind.STARTED, LifecycleEvent.Kind.FAILED, LifecycleEvent.Kind.STOPPED),
                lifecycle.kindsOf(failing));
        LifecycleEvent failed = lifecycle.events.stream()
                .filter(e -> e.actor().equals(failing) && e.kind() == LifecycleEvent.Kind.FAILED).findFirst().orElseThrow();
        assertSame(boom, failed.cause());
        assertTrue(failing.isTerminated());
        assertEquals(Optional.empty(), system.lookup("failing"));

        ActorRef<Object> normal = stoppable(Props.defaults());
        normal.tell(new Stop());
        await(lifecycle.stopped(normal));
        assertEquals(List.of(LifecycleEvent.Kind.STARTED, LifecycleEvent.Kind.STOPPED), lifecycle.kindsOf(normal));

        ActorRef<Object> badBody = system.spawn(self -> {
            throw new java.io.IOException("cannot start");
        });
        await(lifecycle.stopped(badBody));
        assertEquals(List.of(LifecycleEvent.Kind.STARTED, LifecycleEvent.Kind.FAILED, LifecycleEvent.Kind.STOPPED),
                lifecycle.kindsOf(badBody));
    }

    @Test
    void aFailingHandlerNeverKillsTheWorker() {
        try (ActorSystem one = ActorSystem.builder().name("oneworker").parallelism(1).build()) {
            Probes.Lifecycle events = Probes.Lifecycle.of(one);
            Probes.Dead dead = Probes.Dead.of(one);
            ActorRef<Object> survivor = one.spawn("survivor", self -> self.loop(() -> self.react(Receive.<Object>handler()
                    .matchAny(m -> self.reply(Thread.currentThread()))
                    .build())));
            CountDownLatch queued = new CountDownLatch(1);
            ActorRef<Object> failing = one.spawn("failing", self -> self.loop(() -> self.react(Receive.<Object>handler()
                    .match(String.class, s -> {
                        Probes.await(queued); // more mail is queued behind the failing message
                        throw new IllegalArgumentException("bad " + s);
                    })
                    .build())));
            Thread before = await(one.<Object, Thread>ask(survivor, "where?", ASK));
            failing.tell("input");
            failing.tell("after 1");
            failing.tell("after 2");
            queued.countDown();
            await(events.stopped(failing));
            Thread after = await(one.<Object, Thread>ask(survivor, "where now?", ASK));
            assertSame(before, after, "the single pool worker survived the failure and runs the other actor");
            assertTrue(after.isAlive());
            failing.tell("after stop");
            assertEquals(List.of("after 1", "after 2", "after stop"), dead.messagesTo(failing),
                    "the failed actor's later mail goes to dead letters");
        }
    }

    @Test
    void resolveRefusesMalformedOrForeignAddresses() {
        for (String bad : List.of("orders", "weft://registry/orders", "http://registry/orders#1", "weft://registry/orders#x")) {
            IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                    () -> system.resolve(bad));
            assertTrue(e.getMessage().contains(bad), e.getMessage());
        }
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> system.resolve("weft://elsewhere/orders#1"));
        assertTrue(e.getMessage().contains("another system"), e.getMessage());
    }

    @Test
    void anActorInstanceIsSpawnedOnce() {
        class Once extends io.weft.actors.Actor<Object> {
            @Override
            protected void act() {
                loop(() -> react(Receive.<Object>handler().matchAny(this::reply).build()));
            }
        }
        Once instance = new Once();
        ActorRef<Object> first = system.spawn(instance);
        assertEquals("ok", await(system.ask(first, "ok", ASK)));
        ActorRef<Object> second = system.spawn(instance);
        await(lifecycle.stopped(second));
        LifecycleEvent failed = lifecycle.events.stream()
                .filter(ev -> ev.actor().equals(second) && ev.kind() == LifecycleEvent.Kind.FAILED).findFirst().orElseThrow();
        assertInstanceOf(IllegalStateException.class, failed.cause());
        assertTrue(failed.cause().getMessage().contains("spawn a new instance"), failed.cause().getMessage());
        assertEquals("still ok", await(system.ask(first, "still ok", ASK)), "the first actor is unaffected");
    }

    @Test
    void reactTwiceThrows() {
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        ActorRef<Object> ref = system.spawn(self -> {
            self.react(Receive.<Object>handler().matchAny(self::reply).build());
            try {
                self.react(Receive.<Object>handler().matchAny(m -> { }).build());
                thrown.complete(null);
            } catch (IllegalStateException e) {
                thrown.complete(e);
            }
        });
        Throwable e = await(thrown);
        assertInstanceOf(IllegalStateException.class, e, "a second react while one is pending is refused");
        assertTrue(e.getMessage().contains("react"), e.getMessage());
        assertEquals("first", await(system.ask(ref, "first", ASK)), "the first continuation stays in place");
    }

    @Test
    void receiveInsideReactThrowsPointingToReactOrSwitchToThread() {
        CompletableFuture<Throwable> inBody = new CompletableFuture<>();
        CompletableFuture<Throwable> inHandler = new CompletableFuture<>();
        ActorRef<Object> ref = system.spawn((ActorContext<Object> self) -> {
            inBody.complete(catching(() -> self.receive(Receive.<Object, Object>returning().matchAny(m -> m).build())));
            self.react(Receive.<Object>handler().matchAny(m -> {
                inHandler.complete(catching(() -> self.receiveWithin(Duration.ofSeconds(1),
                        Receive.<Object, Object>returning().matchAny(x -> x).build())));
                self.reply("still alive");
            }).build());
        });
        assertEquals("still alive", await(system.ask(ref, "go", ASK)));
        for (Throwable e : List.of(await(inBody), await(inHandler))) {
            assertInstanceOf(IllegalStateException.class, e);
            assertTrue(e.getMessage().contains("react") && e.getMessage().contains("switchToThread"), e.getMessage());
        }
    }

    private static Throwable catching(Runnable r) {
        try {
            r.run();
            return null;
        } catch (Throwable t) {
            return t;
        }
    }
}
