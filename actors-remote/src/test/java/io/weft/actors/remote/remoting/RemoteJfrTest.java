package io.weft.actors.remote.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import java.lang.invoke.MethodHandles;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingStream;
import org.junit.jupiter.api.Test;

/** The remoting layer's JFR events, read back from a recording stream. */
class RemoteJfrTest {

    /** Events of one type, and a latch that opens when one matching the predicate arrives. */
    private static final class Seen {
        final List<RecordedEvent> events = new CopyOnWriteArrayList<>();
        final CountDownLatch latch = new CountDownLatch(1);
        final Predicate<RecordedEvent> wanted;

        Seen(Predicate<RecordedEvent> wanted) {
            this.wanted = wanted;
        }

        void add(RecordedEvent e) {
            events.add(e);
            if (wanted.test(e)) {
                latch.countDown();
            }
        }

        boolean await() throws InterruptedException {
            return latch.await(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void handshakesDropsLanesAndPeersAreRecorded() throws Exception {
        Seen done = new Seen(e -> e.getString("state").equals("HANDSHAKE_DONE") && e.getString("system").equals("alpha")
                && e.getLong("incarnation") != 0);
        Seen timeout = new Seen(e -> e.getString("state").equals("HANDSHAKE_TIMEOUT") && e.getString("peerSystem").equals("ghost"));
        Seen drop = new Seen(e -> e.getString("reason").equals("UNREACHABLE") && e.getString("system").equals("alpha")
                && e.getString("lane").equals("ORDINARY"));
        Seen lane = new Seen(e -> e.getString("system").equals("alpha") && e.getString("lane").equals("ORDINARY")
                && e.getLong("messagesSent") >= 1 && e.getLong("bytesSent") > 0);
        Seen peer = new Seen(e -> e.getString("system").equals("alpha") && e.getString("peerSystem").equals("beta")
                && e.getBoolean("established"));
        CodecRegistry codec = CodecRegistry.builder(MethodHandles.lookup()).build();
        try (RecordingStream rs = new RecordingStream()) {
            rs.enable("io.weft.RemoteAssociation");
            rs.enable("io.weft.RemoteDrop");
            rs.enable("io.weft.RemoteLane").withPeriod(Duration.ofMillis(200));
            rs.enable("io.weft.RemotePeer").withPeriod(Duration.ofMillis(200));
            rs.onEvent("io.weft.RemoteAssociation", e -> {
                done.add(e);
                timeout.add(e);
            });
            rs.onEvent("io.weft.RemoteDrop", drop::add);
            rs.onEvent("io.weft.RemoteLane", lane::add);
            rs.onEvent("io.weft.RemotePeer", peer::add);
            rs.startAsync();
            try (ActorSystem a = ActorSystem.create("alpha"); ActorSystem b = ActorSystem.create("beta");
                    Remoting ra = Remoting.attach(a, codec, RemoteSettings.defaults()
                            .withFailureDetection(Duration.ofMillis(100), 10.0, Duration.ofSeconds(7), Duration.ofSeconds(3))
                            .withHandshakeTimeout(Duration.ofSeconds(3), Duration.ofSeconds(60)));
                    Remoting rb = Remoting.attach(b, codec, RemoteSettings.defaults())) {
                ActorRef<Object> echo = b.spawn("echo", self -> self.become(Receive.handler()
                        .match(String.class, t -> self.reply("echo:" + t)).build()));
                ActorRef<Object> remote = a.resolve(rb.addressOf(echo));
                assertEquals("echo:x", a.ask(remote, "x", Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS));
                int port;
                try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
                    port = s.getLocalPort();
                }
                a.resolve("weft://ghost@127.0.0.1:" + port + "/x#1").tell("lost");
                assertTrue(done.await(), "a handshake done event; saw " + done.events);
                assertTrue(timeout.await(), "a handshake timeout event; saw " + timeout.events);
                assertTrue(drop.await(), "a drop event; saw " + drop.events);
                assertTrue(lane.await(), "a lane event with the sent message; saw " + lane.events.size());
                assertTrue(peer.await(), "a peer event for beta; saw " + peer.events);
                assertTrue(ra.metrics().phi().size() >= 1);
            }
        }
    }
}
