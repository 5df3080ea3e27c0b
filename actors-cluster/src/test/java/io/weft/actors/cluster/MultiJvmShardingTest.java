package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.runtime.testing.Resources;
import io.weft.actors.runtime.testing.Ports;
import io.weft.actors.runtime.testing.Conditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Sharded entities over three JVMs on loopback: this one ("a", in-process, the client) and two
 * {@link ShardingPeerMain}s. A client on "a" asks 1,000 entities continuously while a member is
 * killed, or while every member restarts one after the other (the two peers, then the client's own
 * member, which stops asking while it is away); every ask is answered or counted (lostWithNode,
 * bufferDropped), and every entity answers afterwards.
 */
class MultiJvmShardingTest {

    private static final int ENTITIES = 1_000;
    private static final Duration ASK = Duration.ofSeconds(8);
    @RegisterExtension
    final Resources open = new Resources();

    private static MemberEvent await(BlockingQueue<MemberEvent> events, Member m, MemberStatus s, Duration within) throws InterruptedException {
        return Conditions.next(events, within, e -> e.member().equals(m) && e.status() == s);
    }

    /** Leaves gracefully (the cluster first, then the remoting and the system) and no longer closes the node after the test. */
    private void close(LocalNode n) throws Exception {
        for (AutoCloseable c : new AutoCloseable[] {n.cluster(), n.remoting(), n.system()}) {
            open.closeNow(c);
        }
    }

    private ClusterPeer peer(String name, int port, int[] seeds) throws Exception {
        return open.keep(new ClusterPeer(ShardingPeerMain.class, name, port, seeds[0] + "," + seeds[1] + "," + seeds[2]));
    }

    /** Starts a peer on another thread (JVM start-up is most of a test's time); join it before anything else can fail. */
    private CompletableFuture<ClusterPeer> peerAsync(String name, int port, int[] seeds) {
        CompletableFuture<ClusterPeer> f = new CompletableFuture<>();
        Thread.ofPlatform().name("start-peer-" + name).start(() -> {
            try {
                f.complete(new ClusterPeer(ShardingPeerMain.class, name, port, seeds[0] + "," + seeds[1] + "," + seeds[2]));
            } catch (Exception | Error e) {
                f.completeExceptionally(e);
            }
        });
        return f;
    }

    private ClusterPeer joined(CompletableFuture<ClusterPeer> f) throws Exception {
        return open.keep(f.get(120, TimeUnit.SECONDS));
    }

    private static void awaitAtLeast(LongSupplier value, long target, String what) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (value.getAsLong() < target) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not reached within 30 s: " + what + " (" + value.getAsLong() + " of " + target + ")");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(10));
        }
    }

    /** Asks every entity once from a; returns how many answered. */
    private static int askAll(LocalNode a) throws InterruptedException {
        List<CompletableFuture<Object>> all = new ArrayList<>();
        for (int i = 0; i < ENTITIES; i++) {
            ActorRef<String> ref = a.cluster().sharding().entityRef(ShardingPeerMain.TYPE, "e" + i);
            all.add(a.system().ask(ref, "check", Duration.ofSeconds(20)));
        }
        int answered = 0;
        for (CompletableFuture<Object> f : all) {
            try {
                f.get(30, TimeUnit.SECONDS);
                answered++;
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                // not answered
            }
        }
        return answered;
    }

    /**
     * A client asking the entities round-robin, at most 200 asks in flight and about 5,000 a second (so the peers' JVMs
     * still start quickly on a loaded machine), bounded in count and time.
     */
    private static final class Traffic {
        final AtomicLong sent = new AtomicLong();
        final AtomicLong answered = new AtomicLong();
        final AtomicLong failed = new AtomicLong();
        private final Semaphore inFlight = new Semaphore(200);
        private volatile boolean stop;
        private final Thread thread;

        Traffic(LocalNode a) {
            thread = Thread.ofPlatform().name("sharding-traffic").start(() -> {
                long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
                for (long i = 0; i < 2_000_000 && !stop && System.nanoTime() < end; i++) {
                    try {
                        if (!inFlight.tryAcquire(1, TimeUnit.SECONDS)) {
                            continue;
                        }
                    } catch (InterruptedException e) {
                        return;
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(200_000);
                    ActorRef<String> ref = a.cluster().sharding().entityRef(ShardingPeerMain.TYPE, "e" + (i % ENTITIES));
                    sent.incrementAndGet();
                    a.system().<String, String>ask(ref, "x", ASK).whenComplete((r, t) -> {
                        (t == null ? answered : failed).incrementAndGet();
                        inFlight.release();
                    });
                }
            });
        }

        /** Stops sending and waits (bounded) until every ask has completed. */
        void finish() throws InterruptedException {
            stop = true;
            thread.join(TimeUnit.SECONDS.toMillis(30));
            assertTrue(inFlight.tryAcquire(200, ASK.toSeconds() + 20, TimeUnit.SECONDS), "every ask completed or timed out");
            inFlight.release(200);
        }
    }

    private static long[] stats(ClusterPeer p, String tag) throws InterruptedException, java.io.IOException {
        p.send("stats " + tag);
        String line = p.line("STATS " + tag + " ", 30);
        assertNotNull(line, p.member + " reports its counters");
        String[] f = line.split(" ");
        return new long[] {Long.parseLong(f[2]), Long.parseLong(f[3]), Long.parseLong(f[4])};
    }

    private static void allUp(ClusterPeer p, Member... ms) throws InterruptedException {
        for (Member m : ms) {
            assertNotNull(p.line("EVENT UP " + m, 60), p.member + " sees " + m + " UP");
        }
    }

    @Test
    void killingTheOldestMemberMovesItsShardsAndSingletonAndEveryMessageIsAnsweredOrCounted() throws Exception {
        int[] ports = Ports.freePairs(3, 100);
        ClusterPeer b = peer("b", ports[1], ports); // first up: the oldest, hosts the singleton
        CompletableFuture<ClusterPeer> startingC = peerAsync("c", ports[2], ports);
        LocalNode a;
        try {
            a = LocalNode.start(open, ports[0], ports);
        } finally {
            joined(startingC);
        }
        ClusterPeer c = startingC.get();
        Member am = a.cluster().self();
        awaitAtLeast(() -> a.cluster().status(b.member) == MemberStatus.UP ? 1 : 0, 1, "a sees b UP");
        awaitAtLeast(() -> a.cluster().status(c.member) == MemberStatus.UP ? 1 : 0, 1, "a sees c UP");
        allUp(b, am, b.member, c.member);
        allUp(c, am, b.member, c.member);
        assertEquals(b.member, a.cluster().members().get(0), "b is the oldest");
        ShardingPeerMain.host(a.cluster());
        ActorRef<String> ledger = a.cluster().singletonProxy(ShardingPeerMain.SINGLETON, SingletonSettings.defaults());
        assertEquals("b", a.system().<String, String>ask(ledger, "where", Duration.ofSeconds(20)).get(30, TimeUnit.SECONDS));
        assertEquals(ENTITIES, askAll(a), "every entity answers before the kill");
        assertTrue(stats(b, "before")[2] > 0, "b hosts some of the entities");

        long sentAtKill;
        long downMs;
        Traffic traffic = new Traffic(a);
        try {
            awaitAtLeast(traffic.sent::get, 3_000, "asks before the kill");
            sentAtKill = traffic.sent.get();
            long killedAt = System.nanoTime();
            b.kill();
            Duration bound = Duration.ofSeconds(3 + 1).multipliedBy(2); // failure timeout + verification, doubled for a loaded machine
            assertNotNull(await(a.events(), b.member, MemberStatus.DOWN, bound), "a sees the killed b DOWN within " + bound);
            downMs = (System.nanoTime() - killedAt) / 1_000_000;
            assertNotNull(c.line("EVENT DOWN " + b.member, 30), "c sees b DOWN");
            String host = null;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (host == null && System.nanoTime() < deadline) {
                try {
                    host = a.system().<String, String>ask(ledger, "where", Duration.ofSeconds(2)).get(5, TimeUnit.SECONDS);
                } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                    // the singleton is moving
                }
            }
            assertNotNull(host, "the singleton answers again after the kill");
            assertNotEquals("b", host, "the singleton restarted on a survivor");
            awaitAtLeast(traffic.sent::get, traffic.sent.get() + 3_000, "asks after the kill");
        } finally {
            traffic.finish();
        }
        long[] cs = stats(c, "after");
        long lost = a.cluster().sharding().lostWithNode(ShardingPeerMain.TYPE) + cs[0];
        long dropped = a.cluster().sharding().bufferDropped(ShardingPeerMain.TYPE) + cs[1];
        System.out.printf("sharding kill: b DOWN after %d ms; sent %d (%d before the kill), answered %d, failed %d, lostWithNode %d,"
                + " bufferDropped %d%n", downMs, traffic.sent.get(), sentAtKill, traffic.answered.get(), traffic.failed.get(), lost, dropped);
        assertTrue(traffic.answered.get() + lost + dropped >= traffic.sent.get(), "every ask is answered or counted: sent "
                + traffic.sent.get() + ", answered " + traffic.answered.get() + ", lost with b " + lost + ", dropped " + dropped);
        assertEquals(ENTITIES, askAll(a), "every entity answers after the kill");
        assertEquals(ENTITIES, a.cluster().sharding().localEntityCount(ShardingPeerMain.TYPE) + stats(c, "end")[2],
                "each entity lives once, on a or c");
    }

    @Test
    void aRollingRestartKeepsEveryEntityAnsweringAndEveryMessageHandledOrCounted() throws Exception {
        int[] ports = Ports.freePairs(3, 100);
        LocalNode a = LocalNode.start(open, ports[0], ports);
        CompletableFuture<ClusterPeer> startingB = peerAsync("b", ports[1], ports);
        CompletableFuture<ClusterPeer> startingC = peerAsync("c", ports[2], ports);
        ClusterPeer[] peers = {joined(startingB), joined(startingC)};
        for (ClusterPeer p : peers) {
            awaitAtLeast(() -> a.cluster().status(p.member) == MemberStatus.UP ? 1 : 0, 1, "a sees " + p.member + " UP");
        }
        ShardingPeerMain.host(a.cluster());
        assertEquals(ENTITIES, askAll(a), "every entity answers before the restarts");
        long lostByLeavers = 0;
        long droppedByLeavers = 0;
        Traffic traffic = new Traffic(a);
        try {
            for (int i = 0; i < peers.length; i++) {
                awaitAtLeast(traffic.sent::get, traffic.sent.get() + 2_000, "asks before restarting " + peers[i].member);
                ClusterPeer old = peers[i];
                old.send("leave");
                String left = old.line("LEFT", 60);
                assertNotNull(left, old.member + " left gracefully");
                lostByLeavers += Long.parseLong(left.split(" ")[1]);
                droppedByLeavers += Long.parseLong(left.split(" ")[2]);
                assertNotNull(await(a.events(), old.member, MemberStatus.REMOVED, Duration.ofSeconds(30)), "a sees " + old.member + " removed");
                old.close();
                peers[i] = peer(i == 0 ? "b" : "c", ports[i + 1], ports);
                assertNotNull(await(a.events(), peers[i].member, MemberStatus.UP, Duration.ofSeconds(60)), "the restarted member is UP");
            }
            awaitAtLeast(traffic.sent::get, traffic.sent.get() + 2_000, "asks before restarting the client member");
        } finally {
            traffic.finish();
        }

        // the client member restarts last: it has stopped sending, leaves gracefully and a new incarnation joins at its port
        Member oldA = a.cluster().self();
        close(a);
        MemberEvent removed = await(a.events(), oldA, MemberStatus.REMOVED, Duration.ofSeconds(30));
        assertNotNull(removed, "the old client member " + oldA + " is removed");
        assertEquals("left the cluster", removed.reason(), "the old client member handed everything over");
        for (ClusterPeer p : peers) {
            assertNotNull(p.line("EVENT REMOVED " + oldA, 30), p.member + " sees " + oldA + " removed");
        }
        lostByLeavers += a.cluster().sharding().lostWithNode(ShardingPeerMain.TYPE);
        droppedByLeavers += a.cluster().sharding().bufferDropped(ShardingPeerMain.TYPE);
        LocalNode a2 = LocalNode.start(open, ports[0], ports);
        Member newA = a2.cluster().self();
        assertNotEquals(oldA, newA, "the restarted client member is a new incarnation");
        for (ClusterPeer p : peers) {
            awaitAtLeast(() -> a2.cluster().status(p.member) == MemberStatus.UP ? 1 : 0, 1, newA + " sees " + p.member + " UP");
            allUp(p, newA);
        }
        ShardingPeerMain.host(a2.cluster());
        Traffic traffic2 = new Traffic(a2);
        try {
            awaitAtLeast(traffic2.sent::get, 2_000, "asks from the restarted client member");
        } finally {
            traffic2.finish();
        }

        long sent = traffic.sent.get() + traffic2.sent.get();
        long answered = traffic.answered.get() + traffic2.answered.get();
        long failed = traffic.failed.get() + traffic2.failed.get();
        long lost = a2.cluster().sharding().lostWithNode(ShardingPeerMain.TYPE) + lostByLeavers;
        long dropped = a2.cluster().sharding().bufferDropped(ShardingPeerMain.TYPE) + droppedByLeavers;
        for (ClusterPeer p : peers) {
            long[] s = stats(p, "after");
            lost += s[0];
            dropped += s[1];
        }
        System.out.printf("sharding rolling restart: sent %d (%d by the restarted client), answered %d, failed %d, lostWithNode %d,"
                + " bufferDropped %d%n", sent, traffic2.sent.get(), answered, failed, lost, dropped);
        assertEquals(sent, answered + lost + dropped, "every ask is answered or counted, over both client incarnations: sent "
                + sent + ", answered " + answered + ", failed " + failed + ", lost " + lost + ", dropped " + dropped);
        assertEquals(ENTITIES, askAll(a2), "every entity answers after the restarts");
        assertEquals(ENTITIES, a2.cluster().sharding().localEntityCount(ShardingPeerMain.TYPE) + stats(peers[0], "end")[2]
                + stats(peers[1], "end")[2], "each entity lives once, on a, b or c");
    }
}
