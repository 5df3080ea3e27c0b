package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Resources;
import io.weft.actors.runtime.testing.Ports;
import io.weft.actors.runtime.testing.Conditions;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Three JVMs on loopback: this one ("a", in-process) and two {@link ClusterPeerMain}s ("b", "c"). */
class MultiJvmClusterTest {

    @RegisterExtension
    final Resources open = new Resources();

    private static MemberEvent await(BlockingQueue<MemberEvent> events, Member m, MemberStatus s, int seconds) throws InterruptedException {
        return Conditions.next(events, Duration.ofSeconds(seconds), e -> e.member().equals(m) && e.status() == s);
    }

    private static void allUp(ClusterPeer peer, Member... ms) throws InterruptedException {
        for (Member m : ms) {
            assertNotNull(peer.line("EVENT UP " + m, 60), peer.member + " sees " + m + " UP");
        }
    }

    private record Three(LocalNode a, ClusterPeer b, ClusterPeer c) {
    }

    private Three formThree() throws Exception {
        int[] p = Ports.freePairs(3, 100);
        LocalNode a = LocalNode.start(open, p[0], p);
        String seeds = p[0] + "," + p[1] + "," + p[2];
        ClusterPeer b = open.keep(new ClusterPeer("b", p[1], seeds));
        ClusterPeer c = open.keep(new ClusterPeer("c", p[2], seeds));
        Member am = a.cluster().self();
        assertNotNull(await(a.events(), b.member, MemberStatus.UP, 60), "a sees b UP");
        assertNotNull(await(a.events(), c.member, MemberStatus.UP, 60), "a sees c UP");
        allUp(b, am, b.member, c.member);
        allUp(c, am, b.member, c.member);
        assertEquals(Set.of(am, b.member, c.member), Set.copyOf(a.cluster().members()));
        return new Three(a, b, c);
    }

    @Test
    void aKilledMemberIsSeenDownRemovedAndQuarantinedByTheOthers() throws Exception {
        Three t = formThree();
        LocalNode a = t.a();
        Member c = t.c().member;
        long killedAt = System.nanoTime();
        t.c().kill();
        assertNotNull(await(a.events(), c, MemberStatus.DOWN, 30), "a sees c DOWN");
        long downMs = (System.nanoTime() - killedAt) / 1_000_000;
        assertNotNull(await(a.events(), c, MemberStatus.REMOVED, 5), "then REMOVED");
        System.out.printf("member killed: DOWN after %d ms%n", downMs);
        assertTrue(a.remoting().isQuarantined(c.host(), c.port(), c.incarnation()), "its incarnation is quarantined in the remote layer");
        assertNotNull(t.b().line("EVENT DOWN " + c, 30), "b sees c DOWN");
        assertNotNull(t.b().line("EVENT REMOVED " + c, 30), "b sees c REMOVED");
        assertEquals(Set.of(a.cluster().self(), t.b().member), Set.copyOf(a.cluster().members()));
        assertEquals(MemberStatus.UP, a.cluster().status(a.cluster().self()), "the survivors keep going (2 of 3)");
        assertEquals(MemberStatus.REMOVED, a.cluster().status(c));
        // the survivors still talk
        ActorRef<Object> echoB = a.system().resolve(t.b().echo);
        assertEquals("echo:hi", a.system().ask(echoB, "hi", Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS));
    }

    @Test
    void aPartitionedMemberDownsItselfAndTheMajorityKeepsGoing() throws Exception {
        Three t = formThree();
        LocalNode a = t.a();
        Member c = t.c().member;
        t.c().send("cut");
        assertNotNull(t.c().line("CUT", 30));
        long cutAt = System.nanoTime();
        assertNotNull(t.c().line("EVENT DOWN " + c, 60), "the minority (c alone) downs itself");
        assertNotNull(t.c().line("EVENT REMOVED " + c, 30), "and leaves the group");
        assertNotNull(await(a.events(), c, MemberStatus.DOWN, 60), "the majority sees c DOWN");
        System.out.printf("partition: majority saw DOWN after %d ms%n", (System.nanoTime() - cutAt) / 1_000_000);
        assertNotNull(await(a.events(), c, MemberStatus.REMOVED, 5));
        assertTrue(a.remoting().isQuarantined(c.host(), c.port(), c.incarnation()));
        assertNotNull(t.b().line("EVENT DOWN " + c, 30), "b sees c DOWN");
        assertEquals(MemberStatus.UP, a.cluster().status(a.cluster().self()), "the majority stays up");
        assertEquals(Set.of(a.cluster().self(), t.b().member), Set.copyOf(a.cluster().members()));
        assertFalse(a.events().stream().anyMatch(e -> e.member().equals(a.cluster().self()) && e.status() == MemberStatus.DOWN));
        ActorRef<Object> echoB = a.system().resolve(t.b().echo);
        assertEquals("echo:hi", a.system().ask(echoB, "hi", Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS));
    }
}
