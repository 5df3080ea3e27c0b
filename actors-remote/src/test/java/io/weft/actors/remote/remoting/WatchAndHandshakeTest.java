package io.weft.actors.remote.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Conditions;
import io.weft.actors.runtime.testing.Resources;
import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The handshake timeout, unwatch, and a stopping watcher's watches, between two systems in one JVM, over each {@link Engine}. */
class WatchAndHandshakeTest {

    @RegisterExtension
    final Resources open = new Resources();

    private static CodecRegistry codec() {
        return CodecRegistry.builder(MethodHandles.lookup()).build();
    }

    private Remoting node(Engine engine, ActorSystem system) throws Exception {
        return open.keep(Remoting.attach(system, codec(), engine.apply(RemoteSettings.defaults())
                .withFailureDetection(Duration.ofMillis(200), 10.0, Duration.ofSeconds(7), Duration.ofSeconds(3))));
    }

    private static ActorRef<Object> sink(ActorSystem s, String name) {
        return s.spawn(name, self -> self.become(Receive.handler().matchAny(m -> { }).build()));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aPeerThatNeverAnswersTheHandshakeSendsQueuedMessagesToDeadLettersTellsWatchersAndIsGated(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        Remoting ra = open.keep(Remoting.attach(a, codec(), engine.apply(RemoteSettings.defaults())
                .withFailureDetection(Duration.ofMillis(100), 10.0, Duration.ofSeconds(7), Duration.ofSeconds(3))
                .withHandshakeTimeout(Duration.ofMillis(500), Duration.ofSeconds(60))));
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ActorRef<Object> nowhere = a.resolve("weft://ghost@127.0.0.1:" + port + "/x#1");
        BlockingQueue<Object> got = new ArrayBlockingQueue<>(10);
        a.spawn("watcher", self -> {
            self.watch(nowhere);
            self.become(Receive.handler().matchAny(got::add).build());
        });
        for (int i = 0; i < 5; i++) {
            nowhere.tell("m" + i);
        }
        Conditions.await(Conditions.LONG, () -> a.deadLetters().count(DeadLetter.Reason.REMOTE_UNREACHABLE) >= 5,
                () -> "the queued messages go to dead letters after the handshake timeout; dead letters "
                        + a.deadLetters().count(DeadLetter.Reason.REMOTE_UNREACHABLE));
        assertTrue(ra.metrics().dropped(RemoteMetrics.Drop.UNREACHABLE) >= 5);
        Object t = got.poll(30, TimeUnit.SECONDS);
        assertInstanceOf(Terminated.class, t, "the watcher is told");
        assertEquals(nowhere, ((Terminated) t).actor());
        assertNotNull(((Terminated) t).cause());
        assertTrue(((Terminated) t).cause().getMessage().contains("handshake"), ((Terminated) t).cause().getMessage());
        assertEquals(0, ra.metrics().quarantined(), "a handshake timeout does not quarantine");
        // gated: a message now goes to dead letters at once, not into the queue
        long before = a.deadLetters().count(DeadLetter.Reason.REMOTE_UNREACHABLE);
        nowhere.tell("while gated");
        assertEquals(before + 1, a.deadLetters().count(DeadLetter.Reason.REMOTE_UNREACHABLE));
        assertFalse(nowhere.isTerminated(), "no incarnation was declared dead");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aWatcherThatStopsRemovesItsWatchOnTheRemoteSide(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        node(engine, a);
        Remoting rb = node(engine, b);
        ActorRef<Object> target = sink(b, "target");
        ActorRef<Object> remote = a.resolve(rb.addressOf(target));
        ActorRef<Object> watcher = a.spawn("watcher", self -> {
            self.watch(remote);
            self.become(Receive.handler().matchAny(m -> { }).build());
        });
        Conditions.await(Conditions.LONG, () -> rb.metrics().watchedByPeers() == 1, () -> "the watch arrives: " + rb.metrics().watchedByPeers());
        a.stop(watcher);
        Conditions.await(Conditions.LONG, () -> rb.metrics().watchedByPeers() == 0,
                () -> "the stopped watcher's watch is removed on the remote side; still " + rb.metrics().watchedByPeers());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void afterUnwatchNoTerminatedArrivesForTheUnwatchedActor(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        node(engine, a);
        Remoting rb = node(engine, b);
        // the child stops after its parent: its TERMINATED follows the parent's on the same ordered control lane
        CompletableFuture<ActorRef<Object>> child = new CompletableFuture<>();
        ActorRef<Object> parent = b.spawn("parent", self -> {
            child.complete(self.spawnChild(Props.defaults().withName("child"), () -> c -> c.become(Receive.handler().matchAny(m -> { }).build())));
            self.become(Receive.handler().matchAny(m -> { }).build());
        });
        ActorRef<Object> remoteParent = a.resolve(rb.addressOf(parent));
        ActorRef<Object> remoteChild = a.resolve(rb.addressOf(child.get(30, TimeUnit.SECONDS)));
        BlockingQueue<Object> got = new ArrayBlockingQueue<>(10);
        ActorRef<Object> watcher = a.spawn("watcher", self -> {
            self.watch(remoteParent);
            self.watch(remoteChild);
            self.become(Receive.handler()
                    .match(String.class, s -> self.unwatch(remoteParent))
                    .matchAny(got::add)
                    .build());
        });
        Conditions.await(Conditions.LONG, () -> rb.metrics().watchedByPeers() == 2, () -> "both watches arrive: " + rb.metrics().watchedByPeers());
        watcher.tell("unwatch the parent");
        Conditions.await(Conditions.LONG, () -> rb.metrics().watchedByPeers() == 1, () -> "the unwatch arrives: " + rb.metrics().watchedByPeers());
        b.stop(parent);
        Object first = got.poll(30, TimeUnit.SECONDS);
        assertInstanceOf(Terminated.class, first);
        assertEquals(remoteChild, ((Terminated) first).actor(), "the first notice is the child's, none for the unwatched parent");
    }
}
