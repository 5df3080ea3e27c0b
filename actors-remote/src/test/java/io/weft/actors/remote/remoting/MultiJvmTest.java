package io.weft.actors.remote.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.Terminated;
import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.remote.remoting.PeerMain.Blob;
import io.weft.actors.remote.remoting.PeerMain.Counted;
import io.weft.actors.remote.remoting.PeerMain.Ping;
import io.weft.actors.remote.remoting.PeerMain.Pong;
import io.weft.actors.remote.remoting.PeerMain.Report;
import io.weft.actors.remote.remoting.PeerMain.Seq;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import io.weft.actors.remote.transport.Transport;
import io.weft.actors.runtime.testing.Conditions;
import io.weft.actors.runtime.testing.Resources;
import io.weft.actors.runtime.testing.Ports;
import java.io.OutputStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Two JVMs on loopback, this one ("alpha") and a {@link PeerMain} ("beta"), over each {@link Engine}. */
class MultiJvmTest {

    @RegisterExtension
    final Resources open = new Resources();

    private Remoting alpha(Engine engine, ActorSystem a, int advertised) throws Exception {
        return open.keep(Remoting.attach(a, PeerMain.codec(), PeerMain.fast(engine.apply(RemoteSettings.defaults())).withAdvertisedPort(advertised)));
    }

    private static BlockingQueue<Object> inbox(ActorSystem a, String name, ActorRef<?>[] ref) {
        BlockingQueue<Object> got = new ArrayBlockingQueue<>(1000);
        ref[0] = a.spawn(name, self -> self.become(Receive.handler().matchAny(got::add).build()));
        return got;
    }

    private static Terminated watch(ActorSystem a, ActorRef<Object> remote, Runnable thenDo) throws Exception {
        BlockingQueue<Object> got = new ArrayBlockingQueue<>(10);
        BlockingQueue<Boolean> watching = new ArrayBlockingQueue<>(1);
        a.spawn(self -> {
            self.watch(remote);
            watching.add(true);
            self.become(Receive.handler().matchAny(got::add).build());
        });
        assertNotNull(watching.poll(10, TimeUnit.SECONDS));
        thenDo.run();
        Object t = got.poll(60, TimeUnit.SECONDS);
        return assertInstanceOf(Terminated.class, t, "a Terminated arrives");
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void tellAskRefsOrderAndALargeMessageAcrossJvms(Engine engine) throws Exception {
        Peer peer = open.keep(new Peer(0, 0, engine));
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        Remoting ra = alpha(engine, a, 0);
        ActorRef<Object> echo = a.resolve(peer.echo);
        assertEquals("echo:hi", a.ask(echo, "hi", Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS));

        ActorRef<?>[] me = new ActorRef<?>[1];
        BlockingQueue<Object> got = inbox(a, "inbox", me);
        @SuppressWarnings("unchecked")
        ActorRef<Object> replyTo = (ActorRef<Object>) me[0];
        echo.tell(new Ping("ref inside", replyTo));
        assertEquals(new Pong("ref inside"), got.poll(60, TimeUnit.SECONDS));

        // 100,000 messages from one sender, with a 4 MiB message sent to another actor meanwhile
        ActorRef<Object> checker = a.resolve(peer.checker);
        ActorRef<Object> sizer = a.resolve(peer.sizer);
        int n = 100_000;
        for (int i = 0; i < n; i++) {
            checker.tell(new Seq(i));
            if (i == n / 2) {
                sizer.tell(new Blob(new byte[4 << 20]), replyTo);
            }
        }
        assertEquals(4 << 20, got.poll(60, TimeUnit.SECONDS), "the large message arrives");
        Object counted = a.askWith(checker, r -> new Report(r), Duration.ofSeconds(60)).get(90, TimeUnit.SECONDS);
        assertEquals(new Counted(n, 0), counted, "all arrive, in order");
        assertEquals(0, ra.metrics().dropped(RemoteMetrics.Drop.OUTBOUND_OVERFLOW));
        assertTrue(ra.metrics().messagesSent(Lane.LARGE) >= 1);
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void watchDeliversTerminatedWhenThePeerJvmIsKilled(Engine engine) throws Exception {
        Peer peer = open.keep(new Peer(0, 0, engine));
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        Remoting ra = alpha(engine, a, 0);
        ActorRef<Object> echo = a.resolve(peer.echo);
        assertEquals("echo:x", a.ask(echo, "x", Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS));
        long[] killedAt = new long[1];
        Terminated t = watch(a, echo, () -> {
            try {
                killedAt[0] = System.nanoTime();
                peer.kill();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        System.out.printf("peer killed: Terminated after %d ms%n", (System.nanoTime() - killedAt[0]) / 1_000_000);
        assertEquals(echo, t.actor());
        assertTrue(echo.isTerminated());
        assertEquals(1, ra.metrics().quarantined());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void watchDeliversTerminatedWhenTheLinkIsCut(Engine engine) throws Exception {
        Cuttable toBeta = open.keep(Cuttable.forEngine(engine));
        Cuttable toAlpha = open.keep(Cuttable.forEngine(engine));
        int betaPort = Ports.free();
        toBeta.target(betaPort);
        Peer peer = open.keep(new Peer(betaPort, toBeta.port(), engine));
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        Remoting ra = alpha(engine, a, toAlpha.port());
        toAlpha.target(ra.address().getPort());
        ActorRef<Object> echo = a.resolve(peer.echo);
        assertTrue(peer.echo.contains(":" + toBeta.port() + "/"), peer.echo);
        assertEquals("echo:x", a.ask(echo, "x", Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS));
        long[] cutAt = new long[1];
        Terminated t = watch(a, echo, () -> {
            cutAt[0] = System.nanoTime();
            toBeta.cut();
            toAlpha.cut();
        });
        System.out.printf("link cut: Terminated after %d ms%n", (System.nanoTime() - cutAt[0]) / 1_000_000);
        assertEquals(echo, t.actor());
        assertTrue(peer.process.process().isAlive(), "the peer is alive; only its link was cut");
        assertEquals(1, ra.metrics().quarantined());
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void aRestartedPeerIsANewIncarnationAndTheOldOneIsQuarantined(Engine engine) throws Exception {
        int port = Ports.free();
        Peer first = open.keep(new Peer(port, 0, engine));
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        Remoting ra = alpha(engine, a, 0);
        ActorRef<Object> old = a.resolve(first.echo);
        assertEquals("echo:1", a.ask(old, "1", Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS));
        first.kill();
        Peer second = open.keep(new Peer(port, 0, engine));
        assertNotEquals(first.incarnation, second.incarnation);
        Conditions.await(Duration.ofSeconds(60), old::isTerminated, "a ref to the old incarnation reports terminated");
        ActorRef<Object> fresh = a.resolve(second.echo);
        assertEquals("echo:2", a.ask(fresh, "2", Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS));
        assertTrue(ra.metrics().quarantined() >= 1);
        long before = a.deadLetters().count(io.weft.actors.DeadLetter.Reason.REMOTE_UNREACHABLE);
        old.tell("to the dead");
        assertEquals(before + 1, a.deadLetters().count(io.weft.actors.DeadLetter.Reason.REMOTE_UNREACHABLE));
    }

    @ParameterizedTest
    @EnumSource(Engine.class)
    void randomAndMutatedFramesAtTheListeningPortAreRefusedAndThePeerStaysUp(Engine engine) throws Exception {
        Peer peer = open.keep(new Peer(0, 0, engine));
        int port = Integer.parseInt(peer.echo.replaceAll(".*:(\\d+)/.*", "$1"));
        Random random = new Random(7);
        if (engine == Engine.AERON) {
            // raw UDP garbage, below Aeron's framing
            try (DatagramSocket s = new DatagramSocket()) {
                for (int i = 0; i < 200; i++) {
                    byte[] junk = new byte[1 + random.nextInt(1400)];
                    random.nextBytes(junk);
                    s.send(new DatagramPacket(junk, junk.length, InetAddress.getLoopbackAddress(), port));
                }
            }
        } else {
            // raw TCP garbage, below gRPC
            for (int i = 0; i < 20; i++) {
                try (Socket s = new Socket(InetAddress.getLoopbackAddress(), port); OutputStream out = s.getOutputStream()) {
                    byte[] junk = new byte[1 + random.nextInt(4096)];
                    random.nextBytes(junk);
                    out.write(junk);
                    out.flush();
                } catch (java.io.IOException e) {
                    // the peer may close first: fine
                }
            }
        }
        // well-formed transport links carrying random frames and mutations of a valid handshake
        byte[] hello = {'W', 'F', 1, 1, 4, 'e', 'v', 'i', 'l', 9, '1', '2', '7', '.', '0', '.', '0', '.', '1', (byte) 0xa0, 0x1f, 2, 0};
        int sent = 0;
        for (int round = 0; round < 10; round++) {
            try (Transport raw = engine.raw()) {
                OutboundLink link = raw.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), e -> { });
                for (int i = 0; i < 30; i++) {
                    byte[] f;
                    if (i % 3 == 0) {
                        f = new byte[1 + random.nextInt(300)];
                        random.nextBytes(f);
                    } else {
                        f = hello.clone();
                        for (int m = 0; m < 1 + random.nextInt(3); m++) {
                            f[random.nextInt(f.length)] = (byte) random.nextInt(256);
                        }
                        if (i % 3 == 2) {
                            f = java.util.Arrays.copyOf(f, random.nextInt(f.length) + 1);
                        }
                    }
                    try {
                        link.send(Lane.values()[random.nextInt(3)], f);
                        sent++;
                    } catch (IllegalStateException e) {
                        break;
                    }
                }
            }
        }
        assertTrue(sent > 0);
        assertTrue(peer.process.process().isAlive(), "the peer JVM is up");
        long drops = peer.drops();
        System.out.printf("fuzz: %d frames sent, %d counted drops at the peer%n", sent, drops);
        assertTrue(drops > 0, "refusals are counted, got " + drops);
        ActorSystem a = open.keep(ActorSystem.create("alpha"));
        alpha(engine, a, 0);
        assertEquals("echo:ok", a.ask(a.resolve(peer.echo), "ok", Duration.ofSeconds(30)).get(60, TimeUnit.SECONDS));
    }
}
