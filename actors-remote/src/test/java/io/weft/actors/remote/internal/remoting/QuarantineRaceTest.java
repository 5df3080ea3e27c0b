package io.weft.actors.remote.internal.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.remote.CodecInput;
import io.weft.actors.remote.CodecOutput;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.MessageCodec;
import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Conditions;
import io.weft.actors.remote.transport.Lane;
import java.lang.invoke.MethodHandles;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** A message whose send races the quarantine of its peer goes to dead letters, not into a queue nobody drains. */
class QuarantineRaceTest {

    /** A message whose encoding waits for the test, holding its send between the quarantine check and the queue. */
    record Held(String text) {
    }

    @Test
    void aSendThatPassedTheQuarantineCheckBeforeTheQuarantineEndsInDeadLetters() throws Exception {
        CountDownLatch encoding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        MessageCodec<Held> slow = new MessageCodec<>() {
            @Override
            public void write(Held value, CodecOutput out) {
                encoding.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                out.writeString(value.text());
            }

            @Override
            public Held read(CodecInput in) {
                return new Held(in.readString());
            }
        };
        CodecRegistry codec = CodecRegistry.builder(MethodHandles.lookup()).register(CodecRegistry.MIN_USER_ID, Held.class, slow).build();
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
            port = s.getLocalPort();
        }
        try (ActorSystem a = ActorSystem.create("alpha");
                Remoting r = Remoting.attach(a, codec, RemoteSettings.defaults())) {
            RemotingCore core = (RemotingCore) r;
            ActorRef<Object> nowhere = a.resolve("weft://ghost@127.0.0.1:" + port + "/x#1");
            Association assoc = core.associations().get("127.0.0.1:" + port);
            assertNotNull(assoc, "the association to the peer: " + core.associations().keySet());
            Thread sender = Thread.ofVirtual().start(() -> nowhere.tell(new Held("late")));
            assertTrue(encoding.await(30, TimeUnit.SECONDS), "the send reaches its encoding");
            core.quarantine(assoc, "quarantined while a send is encoding");
            assoc.join();
            release.countDown();
            sender.join(30_000);
            Conditions.await(Conditions.LONG, () -> a.deadLetters().count(DeadLetter.Reason.REMOTE_UNREACHABLE) >= 1,
                    () -> "the message sent across the quarantine goes to dead letters; queued on the ordinary lane: "
                            + assoc.depth(Lane.ORDINARY));
            assertEquals(0, assoc.depth(Lane.ORDINARY), "nothing is left in the queue of a quarantined association");
            assertTrue(r.metrics().dropped(RemoteMetrics.Drop.UNREACHABLE) >= 1, "the drop is counted");
        }
    }
}
