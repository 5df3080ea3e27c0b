package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import java.net.InetAddress;
import java.net.ServerSocket;
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

    private final List<AutoCloseable> open = new ArrayList<>();

    @AfterEach
    void closeAll() throws Exception {
        for (int i = open.size() - 1; i >= 0; i--) {
            open.get(i).close();
        }
    }

    private <T extends AutoCloseable> T keep(T c) {
        open.add(c);
        return c;
    }

    private static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    private static MemberEvent await(BlockingQueue<Object> events, Member m, MemberStatus s) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline) {
            Object e = events.poll(100, TimeUnit.MILLISECONDS);
            if (e instanceof MemberEvent me && me.member().equals(m) && me.status() == s) {
                return me;
            }
        }
        return null;
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
        int p1 = freePort();
        int p2 = freePort();
        int pa = p1;
        int pb = p2;
        // b, the one that leaves, is the lowest member (members order by remoting host and port):
        // a graceful leave must not count as a lost half
        int r1 = freePort();
        int r2 = freePort();
        int remoteA = Math.max(r1, r2);
        int remoteB = Math.min(r1, r2);
        ActorSystem sa = keep(ActorSystem.create("a"));
        Remoting ra = keep(Remoting.attach(sa, ClusterPeerMain.codec(), RemoteSettings.defaults().withAddress("127.0.0.1", remoteA)));
        Cluster a = keep(Cluster.join(sa, ra, ClusterPeerMain.fast(pa, List.of(pa, pb))));
        assertEquals(MemberStatus.UP, a.status(a.self()));
        assertEquals(List.of(a.self()), a.members());

        BlockingQueue<Object> seenByA = new LinkedBlockingQueue<>();
        ActorRef<Object> watcher = sa.spawn("member-events", self -> self.become(Receive.handler().matchAny(seenByA::add).build()));
        keep(a.subscribe(watcher));
        assertNotNull(await(seenByA, a.self(), MemberStatus.UP), "the subscriber first gets the current state");

        ActorSystem sb = keep(ActorSystem.create("b"));
        Remoting rb = keep(Remoting.attach(sb, ClusterPeerMain.codec(), RemoteSettings.defaults().withAddress("127.0.0.1", remoteB)));
        Cluster b = keep(Cluster.join(sb, rb, ClusterPeerMain.fast(pb, List.of(pa, pb))));
        assertEquals(ra.incarnation(), a.self().incarnation());
        assertTrue(b.self().compareTo(a.self()) < 0);
        assertEquals(rb.address().getPort(), b.self().port());
        assertNotNull(await(seenByA, b.self(), MemberStatus.UP), "a sees b UP");
        BlockingQueue<Object> seenByB = new LinkedBlockingQueue<>();
        keep(b.subscribe(seenByB::add));
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
        int pa = freePort();
        int pb = freePort();
        int r1 = freePort();
        int r2 = freePort();
        // b, the leaver, is the lower member: were a to handle the view without b before b's
        // LEAVING, keep-majority would down a (it holds 1 of 2 and not the lowest)
        ClusterSettings sa0 = ClusterPeerMain.fast(pa, List.of(pa, pb)).withFailureDetection(Duration.ofMillis(500),
                Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(3));
        ClusterSettings sb0 = ClusterPeerMain.fast(pb, List.of(pa, pb)).withFailureDetection(Duration.ofMillis(500),
                Duration.ofSeconds(10), Duration.ofSeconds(1), Duration.ofSeconds(5), Duration.ofSeconds(3));
        // a holds b's announcement until the view without b has reached a's cluster, or for 2 s
        // (well inside b's 10 s wait for answers)
        ReorderLeave reorder = new ReorderLeave(Duration.ofSeconds(2));
        ActorSystem sa = keep(ActorSystem.create("a"));
        Remoting ra = keep(Remoting.attach(sa, ClusterPeerMain.codec(), RemoteSettings.defaults().withAddress("127.0.0.1", Math.max(r1, r2))));
        Cluster a = keep(io.weft.actors.cluster.internal.ClusterCore.start(sa, ra, sa0, stack -> stack.add(reorder)));
        BlockingQueue<Object> seenByA = new LinkedBlockingQueue<>();
        keep(a.subscribe(seenByA::add));
        ActorSystem sb = keep(ActorSystem.create("b"));
        Remoting rb = keep(Remoting.attach(sb, ClusterPeerMain.codec(), RemoteSettings.defaults().withAddress("127.0.0.1", Math.min(r1, r2))));
        Cluster b = keep(Cluster.join(sb, rb, sb0));
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
        int[] p = {freePort(), freePort(), freePort()};
        List<Integer> seeds = List.of(p[0], p[1], p[2]);
        Cluster[] members = new Cluster[3];
        ActorSystem[] systems = new ActorSystem[3];
        Remoting[] remotings = new Remoting[3];
        org.jgroups.protocols.DISCARD discard = new org.jgroups.protocols.DISCARD();
        for (int i = 0; i < 3; i++) {
            systems[i] = keep(ActorSystem.create("n" + i));
            remotings[i] = keep(Remoting.attach(systems[i], ClusterPeerMain.codec(), RemoteSettings.defaults()));
            ClusterSettings s = ClusterPeerMain.fast(p[i], seeds).withSplitBrain(SplitBrain.KEEP_MAJORITY, i == 2);
            members[i] = keep(io.weft.actors.cluster.internal.ClusterCore.start(systems[i], remotings[i], s,
                    i == 2 ? stack -> stack.add(1, discard) : null));
        }
        BlockingQueue<Object> seenBy0 = new LinkedBlockingQueue<>();
        BlockingQueue<Object> seenBy2 = new LinkedBlockingQueue<>();
        keep(members[0].subscribe(seenBy0::add));
        keep(members[2].subscribe(seenBy2::add));
        java.util.Set<Member> all = java.util.Set.of(members[0].self(), members[1].self(), members[2].self());
        assertEquals(all, allUp(seenBy0, all), "member 0 sees all UP");
        assertEquals(all, allUp(seenBy2, all), "member 2 sees all UP");
        discard.discardAll(true);
        MemberEvent down = await(seenBy2, members[2].self(), MemberStatus.DOWN);
        assertNotNull(down, "the minority downs itself");
        assertTrue(down.reason().startsWith("keep-majority"), down.reason());
        assertNotNull(await(seenBy2, members[2].self(), MemberStatus.REMOVED));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!systems[2].isClosed() && System.nanoTime() < deadline) {
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(20));
        }
        assertTrue(systems[2].isClosed(), "terminateOnDown closed the minority's system");
        assertNotNull(await(seenBy0, members[2].self(), MemberStatus.REMOVED), "the majority removes it");
        assertEquals(MemberStatus.UP, members[0].status(members[0].self()));
        assertTrue(!systems[0].isClosed() && !systems[1].isClosed());
    }

    @Test
    void aSubscriberMayCallTheClusterFromItsCallback() throws Exception {
        int p = freePort();
        ActorSystem sa = keep(ActorSystem.create("a"));
        Remoting ra = keep(Remoting.attach(sa, ClusterPeerMain.codec(), RemoteSettings.defaults()));
        Cluster a = keep(Cluster.join(sa, ra, ClusterPeerMain.fast(p, List.of(p))));
        BlockingQueue<Object> got = new LinkedBlockingQueue<>();
        keep(a.subscribe(e -> {
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
