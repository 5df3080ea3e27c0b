package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.cluster.InJvmMembers.Node;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Conditions;
import io.weft.actors.runtime.testing.Ports;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Two members in one JVM: graceful leave, subscriptions by consumer and by actor. */
class InJvmClusterTest {

    private final InJvmMembers members = new InJvmMembers();

    @AfterEach
    void closeAll() throws Exception {
        members.close();
    }

    private static MemberEvent await(BlockingQueue<Object> events, Member m, MemberStatus s) throws InterruptedException {
        return (MemberEvent) Conditions.next(events, Conditions.LONG, e -> e instanceof MemberEvent me && me.member().equals(m) && me.status() == s);
    }

    /** Collects the members seen UP, in any order, until all are or 30 s pass. */
    private static java.util.Set<Member> allUp(BlockingQueue<Object> events, java.util.Set<Member> wanted) throws InterruptedException {
        java.util.Set<Member> seen = new java.util.HashSet<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!seen.containsAll(wanted) && System.nanoTime() < deadline) {
            Object e = events.poll(100, TimeUnit.MILLISECONDS);
            if (e instanceof MemberEvent me && me.status() == MemberStatus.UP) {
                seen.add(me.member());
            }
        }
        return seen;
    }

    @Test
    void aGracefulLeaveIsSeenLeavingThenRemovedAndQuarantines() throws Exception {
        int p1 = Ports.free();
        int p2 = Ports.free();
        int pa = p1;
        int pb = p2;
        // b, the one that leaves, is the lowest member (members order by remoting host and port):
        // a graceful leave must not count as a lost half
        int r1 = Ports.free();
        int r2 = Ports.free();
        int remoteA = Math.max(r1, r2);
        int remoteB = Math.min(r1, r2);
        Node na = members.start("a", RemoteSettings.defaults().withAddress("127.0.0.1", remoteA), ClusterPeerMain.fast(pa, List.of(pa, pb)), null);
        Remoting ra = na.remoting();
        Cluster a = na.cluster();
        assertEquals(MemberStatus.UP, a.status(a.self()));
        assertEquals(List.of(a.self()), a.members());

        BlockingQueue<Object> seenByA = new LinkedBlockingQueue<>();
        ActorRef<Object> watcher = na.system().spawn("member-events", self -> self.become(Receive.handler().matchAny(seenByA::add).build()));
        members.keep(a.subscribe(watcher));
        assertNotNull(await(seenByA, a.self(), MemberStatus.UP), "the subscriber first gets the current state");

        Node nb = members.start("b", RemoteSettings.defaults().withAddress("127.0.0.1", remoteB), ClusterPeerMain.fast(pb, List.of(pa, pb)), null);
        Remoting rb = nb.remoting();
        Cluster b = nb.cluster();
        assertEquals(ra.incarnation(), a.self().incarnation());
        assertTrue(b.self().compareTo(a.self()) < 0);
        assertEquals(rb.address().getPort(), b.self().port());
        assertNotNull(await(seenByA, b.self(), MemberStatus.UP), "a sees b UP");
        BlockingQueue<Object> seenByB = new LinkedBlockingQueue<>();
        members.keep(b.subscribe(seenByB::add));
        assertNotNull(await(seenByB, a.self(), MemberStatus.UP), "b's replay names a UP");

        b.leave();
        assertNotNull(await(seenByB, b.self(), MemberStatus.LEAVING));
        assertNotNull(await(seenByB, b.self(), MemberStatus.REMOVED));
        assertEquals(List.of(), b.members());
        assertNotNull(await(seenByA, b.self(), MemberStatus.LEAVING), "a sees b LEAVING");
        assertNotNull(await(seenByA, b.self(), MemberStatus.REMOVED), "then REMOVED, without DOWN");
        assertTrue(ra.isQuarantined(b.self().host(), b.self().port(), b.self().incarnation()), "b's incarnation is quarantined at a");
        assertEquals(List.of(a.self()), a.members());
        assertEquals(MemberStatus.UP, a.status(a.self()), "one of two left gracefully: a stays (a leave is not a partition)");
    }

    @Test
    void aLeaveAnnouncementDeliveredAfterTheLeaversViewWouldBeIsStillSeenLeaving() throws Exception {
        int pa = Ports.free();
        int pb = Ports.free();
        int r1 = Ports.free();
        int r2 = Ports.free();
        // b, the leaver, is the lower member: were a to handle the view without b before b's
        // LEAVING, keep-majority would down a (it holds 1 of 2 and not the lowest)
        ClusterSettings sa0 = ClusterPeerMain.fast(pa, List.of(pa, pb)).withFailureDetection(Duration.ofMillis(500),
                Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(3));
        ClusterSettings sb0 = ClusterPeerMain.fast(pb, List.of(pa, pb)).withFailureDetection(Duration.ofMillis(500),
                Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(3));
        // a holds b's announcement until the view without b has reached a's cluster, or for 2 s
        // (well inside b's 10 s wait for answers)
        ReorderLeave reorder = new ReorderLeave(Duration.ofSeconds(2));
        Cluster a = members.start("a", RemoteSettings.defaults().withAddress("127.0.0.1", Math.max(r1, r2)), sa0, stack -> stack.add(reorder)).cluster();
        BlockingQueue<Object> seenByA = new LinkedBlockingQueue<>();
        members.keep(a.subscribe(seenByA::add));
        Cluster b = members.start("b", RemoteSettings.defaults().withAddress("127.0.0.1", Math.min(r1, r2)), sb0, null).cluster();
        assertNotNull(await(seenByA, b.self(), MemberStatus.UP), "a sees b UP");

        b.leave();
        assertTrue(reorder.awaitHeld(), "a's stack held b's announcement");
        List<MemberEvent> aboutB = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && (aboutB.isEmpty() || aboutB.get(aboutB.size() - 1).status() != MemberStatus.REMOVED)) {
            Object e = seenByA.poll(100, TimeUnit.MILLISECONDS);
            if (e instanceof MemberEvent me && me.member().equals(b.self())) {
                aboutB.add(me);
            }
        }
        assertEquals(List.of(MemberStatus.LEAVING, MemberStatus.REMOVED), aboutB.stream().map(MemberEvent::status).toList(),
                "a sees b LEAVING then REMOVED, never DOWN: " + aboutB);
        assertEquals(MemberStatus.UP, a.status(a.self()), "a stays up: a graceful leave is not a lost half");
        assertEquals(List.of(a.self()), a.members());
    }

    @Test
    void aPartitionedMinorityWithTerminateOnDownClosesItsSystem() throws Exception {
        List<Integer> seeds = InJvmMembers.freePorts(3);
        Cluster[] clusters = new Cluster[3];
        ActorSystem[] systems = new ActorSystem[3];
        org.jgroups.protocols.DISCARD discard = new org.jgroups.protocols.DISCARD();
        for (int i = 0; i < 3; i++) {
            ClusterSettings s = ClusterPeerMain.fast(seeds.get(i), seeds).withSplitBrain(SplitBrain.KEEP_MAJORITY, i == 2);
            Node n = members.start("n" + i, RemoteSettings.defaults(), s, i == 2 ? stack -> stack.add(1, discard) : null);
            systems[i] = n.system();
            clusters[i] = n.cluster();
        }
        BlockingQueue<Object> seenBy0 = new LinkedBlockingQueue<>();
        BlockingQueue<Object> seenBy2 = new LinkedBlockingQueue<>();
        members.keep(clusters[0].subscribe(seenBy0::add));
        members.keep(clusters[2].subscribe(seenBy2::add));
        java.util.Set<Member> all = java.util.Set.of(clusters[0].self(), clusters[1].self(), clusters[2].self());
        assertEquals(all, allUp(seenBy0, all), "member 0 sees all UP");
        assertEquals(all, allUp(seenBy2, all), "member 2 sees all UP");
        discard.discardAll(true);
        MemberEvent down = await(seenBy2, clusters[2].self(), MemberStatus.DOWN);
        assertNotNull(down, "the minority downs itself");
        assertTrue(down.reason().startsWith("keep-majority"), down.reason());
        assertNotNull(await(seenBy2, clusters[2].self(), MemberStatus.REMOVED));
        Conditions.await(Conditions.LONG, systems[2]::isClosed, "terminateOnDown closed the minority's system");
        assertNotNull(await(seenBy0, clusters[2].self(), MemberStatus.REMOVED), "the majority removes it");
        assertEquals(MemberStatus.UP, clusters[0].status(clusters[0].self()));
        assertTrue(!systems[0].isClosed() && !systems[1].isClosed());
    }

    @Test
    void aSubscriberMayCallTheClusterFromItsCallback() throws Exception {
        int p = Ports.free();
        Cluster a = members.start("a", p, List.of(p)).cluster();
        BlockingQueue<Object> got = new LinkedBlockingQueue<>();
        members.keep(a.subscribe(e -> {
            try {
                a.subscribe(x -> got.add(x.status())).close();
                got.add("subscribed");
            } catch (Exception ex) {
                got.add(ex);
            }
        }));
        assertEquals(MemberStatus.UP, got.poll(60, TimeUnit.SECONDS), "the nested subscriber gets the current state");
        assertEquals("subscribed", got.poll(60, TimeUnit.SECONDS), "subscribe() from a callback does not wait for its own thread");
    }
}
