package io.weft.actors.remote.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import io.weft.actors.remote.transport.Transport;
import io.weft.actors.runtime.testing.Conditions;
import io.weft.actors.runtime.testing.Resources;
import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two systems in one JVM, talking on loopback over each {@link Engine}. */
class RemotingTest {

    /** A request that carries its reply destination. */
    public record Ping(String text, ActorRef<Object> replyTo) {
    }

    /** The answer. */
    public record Pong(String text) {
    }

    /** A request that carries a list of refs, each of which gets a {@link Pong}. */
    public record Fanout(String text, List<ActorRef<Object>> targets) {
    }

    static CodecRegistry codec() {
        return CodecRegistry.builder(MethodHandles.lookup()).register(100, Ping.class).register(101, Pong.class)
                .register(104, Fanout.class).build();
    }

    @RegisterExtension
    final Resources open = new Resources();

    private Remoting node(Engine engine, ActorSystem system) throws Exception {
        return open.keep(Remoting.attach(system, codec(), engine.apply(RemoteSettings.defaults())));
    }

    private static ActorRef<Object> echo(ActorSystem s) {
        return s.spawn("echo", self -> self.become(Receive.handler()
                .match(Ping.class, p -> p.replyTo().tell(new Pong(p.text())))
                .match(Fanout.class, f -> f.targets().forEach(t -> t.tell(new Pong(f.text()))))
                .match(String.class, t -> self.reply("echo:" + t))
                .build()));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void tellAskAndRefsInsideMessagesCrossTheWire(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        Remoting ra = node(engine, a);
        Remoting rb = node(engine, b);
        ActorRef<Object> echo = echo(b);
        String address = rb.addressOf(echo);
        assertTrue(address.startsWith("weft://beta@127.0.0.1:" + rb.address().getPort() + "/echo#"), address);
        ActorRef<Object> remote = a.resolve(address);
        assertEquals(address, remote.address());

        Object answer = a.ask(remote, "hi", Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS);
        assertEquals("echo:hi", answer);

        BlockingQueue<Object> got = new ArrayBlockingQueue<>(10);
        ActorRef<Object> inbox = a.spawn("inbox", self -> self.become(Receive.handler().matchAny(got::add).build()));
        remote.tell(new Ping("ref inside", inbox));
        assertEquals(new Pong("ref inside"), got.poll(30, TimeUnit.SECONDS));
        // the counters are bumped after the transport took the frame, which may be after the reply came
        Conditions.await(Conditions.LONG, () -> ra.metrics().messagesSent(Lane.ORDINARY) >= 2 && rb.metrics().messagesReceived(Lane.ORDINARY) >= 2,
                () -> "sent " + ra.metrics().messagesSent(Lane.ORDINARY) + " bytes " + ra.metrics().bytesSent(Lane.ORDINARY) + " received by b " + rb.metrics().messagesReceived(Lane.ORDINARY) + " b sent " + rb.metrics().messagesSent(Lane.ORDINARY)
                        + " a received " + ra.metrics().messagesReceived(Lane.ORDINARY));
        assertEquals(a.resolve(ra.addressOf(inbox)), inbox, "a local address resolves to the local ref");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aListOfRefsCrossesTheWireAndForwardKeepsTheOriginalSender(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        node(engine, a);
        Remoting rb = node(engine, b);
        ActorRef<Object> remote = a.resolve(rb.addressOf(echo(b)));

        BlockingQueue<Object> first = new ArrayBlockingQueue<>(10);
        BlockingQueue<Object> second = new ArrayBlockingQueue<>(10);
        ActorRef<Object> one = a.spawn("one", self -> self.become(Receive.handler().matchAny(first::add).build()));
        ActorRef<Object> two = a.spawn("two", self -> self.become(Receive.handler().matchAny(second::add).build()));
        remote.tell(new Fanout("to both", List.of(one, two)));
        assertEquals(new Pong("to both"), first.poll(30, TimeUnit.SECONDS));
        assertEquals(new Pong("to both"), second.poll(30, TimeUnit.SECONDS));

        // a local relay forwards to the remote actor: the remote reply goes to the asker, not the relay
        ActorRef<Object> relay = a.spawn("relay", self -> self.become(Receive.handler()
                .match(String.class, t -> self.forward(remote, t))
                .build()));
        assertEquals("echo:forwarded", a.ask(relay, "forwarded", Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void watchingARemoteActorDeliversTerminatedWhenItStops(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        node(engine, a);
        Remoting rb = node(engine, b);
        ActorRef<Object> echo = echo(b);
        ActorRef<Object> remote = a.resolve(rb.addressOf(echo));
        assertEquals("echo:x", a.ask(remote, "x", Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS));
        BlockingQueue<Object> got = new ArrayBlockingQueue<>(10);
        CountDownLatch watching = new CountDownLatch(1);
        a.spawn("watcher", self -> {
            self.watch(remote);
            watching.countDown();
            self.become(Receive.handler().matchAny(got::add).build());
        });
        assertTrue(watching.await(10, TimeUnit.SECONDS));
        // the watch crosses on the control lane; stopping before it lands still answers with TERMINATED
        b.stop(echo);
        Object t = got.poll(30, TimeUnit.SECONDS);
        assertInstanceOf(Terminated.class, t);
        assertEquals(remote, ((Terminated) t).actor());
        assertTrue(remote.isTerminated());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void garbageAndForgedFramesAreRefusedCountedAndTheNodeKeepsServing(Engine engine) throws Exception {
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        Remoting rb = node(engine, b);
        ActorRef<Object> echo = echo(b);
        Transport raw = open.keep(engine.raw());
        CountDownLatch lost = new CountDownLatch(1);
        OutboundLink link = raw.connect(rb.address(), e -> lost.countDown());
        Random random = new Random(42);
        // frames before a handshake, in every lane, with and without the magic bytes
        for (int i = 0; i < 50; i++) {
            byte[] f = new byte[1 + random.nextInt(200)];
            random.nextBytes(f);
            if (i % 2 == 0 && f.length >= 4) {
                f[0] = 'W';
                f[1] = 'F';
                f[2] = 1;
                f[3] = (byte) (1 + random.nextInt(6));
            }
            try {
                link.send(Lane.values()[i % 3], f);
            } catch (IllegalStateException e) {
                break; // the node closed the link, as it should for a bad header
            }
        }
        RemoteMetrics m = rb.metrics();
        Conditions.await(Conditions.LONG, () -> m.dropped(RemoteMetrics.Drop.BAD_HEADER) + m.dropped(RemoteMetrics.Drop.NO_HANDSHAKE)
                + m.dropped(RemoteMetrics.Drop.MALFORMED) > 0, "bad frames are counted");
        // a well-behaved peer is still served
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        node(engine, a);
        ActorRef<Object> remote = a.resolve(rb.addressOf(echo));
        assertEquals("echo:still", a.ask(remote, "still", Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aHandshakeFromASystemNotAllowedIsRefused(Engine engine) throws Exception {
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        Remoting rb = open.keep(Remoting.attach(b, codec(), engine.apply(RemoteSettings.defaults()).withAllowedSystems(java.util.Set.of("gamma"))));
        ActorRef<Object> echo = echo(b);
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        node(engine, a);
        ActorRef<Object> remote = a.resolve(rb.addressOf(echo));
        remote.tell("nobody answers");
        Conditions.await(Conditions.LONG, () -> rb.metrics().dropped(RemoteMetrics.Drop.REFUSED_PEER) > 0, "b counts the refused handshake");
        assertEquals(0, rb.metrics().messagesReceived(Lane.ORDINARY));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aFullOutboundQueueGoesToDeadLettersCounted(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        Remoting ra = open.keep(Remoting.attach(a, codec(), engine.apply(RemoteSettings.defaults()).withQueues(10, 64 * 1024)));
        // nobody listens at this address: the handshake never completes, the queue fills
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        ActorRef<Object> nowhere = a.resolve("weft://ghost@127.0.0.1:" + port + "/x#1");
        for (int i = 0; i < 100; i++) {
            nowhere.tell("m" + i);
        }
        assertTrue(ra.metrics().dropped(RemoteMetrics.Drop.OUTBOUND_OVERFLOW) >= 80);
        assertTrue(a.deadLetters().count(io.weft.actors.DeadLetter.Reason.REMOTE_OUTBOUND_OVERFLOW) >= 80);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void untrustedModeRefusesLifecycleMessagesAndTrustedModeDeliversThem(Engine engine) throws Exception {
        CodecRegistry withDeadLetter = CodecRegistry.builder(MethodHandles.lookup()).register(100, Ping.class).register(101, Pong.class)
                .register(102, io.weft.actors.DeadLetter.class).register(103, io.weft.actors.DeadLetter.Reason.class).build();
        for (boolean untrusted : new boolean[] {true, false}) {
            ActorSystem a = open.keep(ActorSystem.create("alpha"));
            ActorSystem b = open.keep(ActorSystem.create("beta"));
            open.keep(Remoting.attach(a, withDeadLetter, engine.apply(RemoteSettings.defaults())));
            Remoting rb = open.keep(Remoting.attach(b, withDeadLetter, engine.apply(RemoteSettings.defaults()).withUntrusted(untrusted)));
            BlockingQueue<Object> got = new ArrayBlockingQueue<>(10);
            ActorRef<Object> target = b.spawn("target", self -> self.become(Receive.handler().matchAny(got::add).build()));
            ActorRef<Object> remote = a.resolve(rb.addressOf(target));
            remote.tell(new io.weft.actors.DeadLetter("forged", null, null, io.weft.actors.DeadLetter.Reason.RECIPIENT_STOPPED));
            remote.tell("after");
            if (untrusted) {
                assertEquals("after", got.poll(30, TimeUnit.SECONDS), "only the ordinary message arrives");
                assertEquals(1, rb.metrics().dropped(RemoteMetrics.Drop.UNTRUSTED));
            } else {
                assertInstanceOf(io.weft.actors.DeadLetter.class, got.poll(30, TimeUnit.SECONDS));
                assertEquals("after", got.poll(30, TimeUnit.SECONDS));
                assertEquals(0, rb.metrics().dropped(RemoteMetrics.Drop.UNTRUSTED));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void quarantineEndsOnePeerIncarnationForGood(Engine engine) throws Exception {
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        ActorSystem b = open.keep(ActorSystem.create("beta"));
        Remoting ra = node(engine, a);
        Remoting rb = node(engine, b);
        ActorRef<Object> echo = a.resolve(rb.addressOf(echo(b)));
        assertEquals("echo:hi", a.ask(echo, "hi", Duration.ofSeconds(10)).get(30, TimeUnit.SECONDS));
        String host = rb.address().getHostString();
        int port = rb.address().getPort();
        assertTrue(!ra.isQuarantined(host, port, rb.incarnation()));

        BlockingQueue<Object> got = new ArrayBlockingQueue<>(10);
        CountDownLatch watching = new CountDownLatch(1);
        a.spawn(self -> {
            self.watch(echo);
            watching.countDown();
            self.become(Receive.handler().matchAny(got::add).build());
        });
        assertTrue(watching.await(10, TimeUnit.SECONDS));
        assertTrue(ra.quarantine(host, port, rb.incarnation(), "removed from the cluster"));
        assertTrue(!ra.quarantine(host, port, rb.incarnation(), "again"), "a second call reports it already was");
        assertTrue(ra.isQuarantined(host, port, rb.incarnation()));
        assertInstanceOf(Terminated.class, got.poll(30, TimeUnit.SECONDS), "the watcher is told");
        assertTrue(echo.isTerminated(), "a ref to the quarantined incarnation reports terminated");
        assertEquals(1, ra.metrics().quarantined());
    }
}
