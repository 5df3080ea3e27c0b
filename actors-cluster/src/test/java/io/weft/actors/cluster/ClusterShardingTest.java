package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Receive;
import io.weft.actors.cluster.InJvmMembers.Node;
import io.weft.actors.runtime.testing.Conditions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Sharded entities on cluster members in one JVM: first message, routing from every member, passivation, a move, overflow, bad input. */
class ClusterShardingTest {

    private static final Duration ASK = Duration.ofSeconds(20);
    private final InJvmMembers members = new InJvmMembers();

    @AfterEach
    void closeAll() throws Exception {
        members.close();
    }

    private List<Node> nodes(String... names) throws Exception {
        return members.start(names);
    }

    /**
     * Entities that count their starts, record "id:message" for each message and answer a
     * message that has a sender with "host:id:n" (n: messages this incarnation handled).
     */
    private static Function<String, Behavior<String>> recorder(AtomicInteger starts, BlockingQueue<String> received) {
        return id -> self -> {
            starts.incrementAndGet();
            String host = self.system().name();
            int[] n = {0};
            self.become(Receive.<String>handler().match(String.class, m -> {
                n[0]++;
                received.add(id + ":" + m);
                if (self.sender() != null) {
                    self.reply(host + ":" + id + ":" + n[0]);
                }
            }).build());
        };
    }

    private static String ask(Node from, String type, String id, String message) throws Exception {
        ActorRef<String> ref = from.cluster().sharding().entityRef(type, id);
        return from.system().<String, String>ask(ref, message, ASK).get(30, TimeUnit.SECONDS);
    }

    private static int entities(List<Node> nodes, String type) {
        int n = 0;
        for (Node x : nodes) {
            n += x.cluster().sharding().localEntityCount(type);
        }
        return n;
    }

    @Test
    void anEntityStartsOnItsFirstMessageAndEveryMemberReachesTheSameOne() throws Exception {
        List<Node> ns = nodes("a", "b", "c");
        AtomicInteger starts = new AtomicInteger();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        for (Node n : ns) {
            n.cluster().sharding().init("counter", recorder(starts, received), ShardingSettings.defaults());
        }
        String first = ask(ns.get(0), "counter", "e1", "x");
        String host = first.substring(0, first.indexOf(':'));
        assertEquals(host + ":e1:1", first);
        assertEquals(host + ":e1:2", ask(ns.get(1), "counter", "e1", "x"), "b reaches the same entity");
        assertEquals(host + ":e1:3", ask(ns.get(2), "counter", "e1", "x"), "c reaches the same entity");
        assertEquals(1, starts.get(), "started once, on its first message");
        assertEquals(1, entities(ns, "counter"));

        Set<String> hosts = new HashSet<>();
        for (int i = 0; i < 30; i++) {
            String id = "id-" + i;
            String h = ask(ns.get(i % 3), "counter", id, "x").split(":")[0];
            for (Node n : ns) {
                assertEquals(h, ask(n, "counter", id, "x").split(":")[0], id + " is on one member whoever asks");
            }
            hosts.add(h);
        }
        assertEquals(Set.of("a", "b", "c"), hosts, "30 ids spread over all three members");
        assertEquals(31, starts.get());
        assertEquals(31, entities(ns, "counter"));
        for (Node n : ns) {
            assertEquals(0, n.cluster().sharding().bufferDropped("counter"));
            assertEquals(0, n.cluster().sharding().lostWithNode("counter"));
        }
        for (Node n : List.of(ns.get(2), ns.get(1))) { // c, then b: each hands everything over before leaving the view
            BlockingQueue<MemberEvent> seen = new LinkedBlockingQueue<>();
            n.cluster().subscribe(seen::add);
            n.cluster().leave();
            assertEquals("left the cluster", removedReason(seen, n), n.cluster().self() + " handed everything over");
        }
        assertEquals(0, ns.get(0).cluster().sharding().lostWithNode("counter"));
    }

    @Test
    void anIdleEntityIsPassivatedAndStartsAgainOnItsNextMessage() throws Exception {
        List<Node> ns = nodes("a", "b");
        AtomicInteger starts = new AtomicInteger();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        ShardingSettings settings = ShardingSettings.defaults().withPassivateAfter(Duration.ofMillis(300));
        for (Node n : ns) {
            n.cluster().sharding().init("idle", recorder(starts, received), settings);
        }
        String first = ask(ns.get(0), "idle", "sleepy", "x");
        assertTrue(first.endsWith(":sleepy:1"), first);
        Conditions.await(Conditions.LONG, () -> entities(ns, "idle") == 0, "the idle entity is passivated");
        String again = ask(ns.get(1), "idle", "sleepy", "x");
        assertTrue(again.endsWith(":sleepy:1"), "a new incarnation handles the next message: " + again);
        assertEquals(2, starts.get());
        assertEquals(1, entities(ns, "idle"));
    }

    @Test
    void messagesRacingAPassivationReachTheNextIncarnationInOrder() throws Exception {
        List<Node> ns = nodes("a", "b");
        AtomicInteger starts = new AtomicInteger();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        ShardingSettings settings = ShardingSettings.defaults().withPassivateAfter(Duration.ofMillis(50));
        for (Node n : ns) {
            n.cluster().sharding().init("flicker", recorder(starts, received), settings);
        }
        int ids = 10;
        int rounds = 30;
        for (int r = 0; r < rounds; r++) {
            for (int i = 0; i < ids; i++) {
                ActorRef<String> ref = ns.get(i % 2).cluster().sharding().entityRef("flicker", "f" + i);
                for (int k = 0; k < 3; k++) {
                    ref.tell("r" + r + "k" + k);
                }
            }
            LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(r % 3 == 0 ? 80 : 20)); // pace the sender around the idle time
        }
        Map<String, List<String>> byId = new ConcurrentHashMap<>();
        for (int n = 0; n < ids * rounds * 3; n++) {
            String got = received.poll(30, TimeUnit.SECONDS);
            if (got == null) {
                throw new AssertionError("only " + n + " of " + ids * rounds * 3 + " messages arrived: " + byId);
            }
            String[] f = got.split(":");
            byId.computeIfAbsent(f[0], x -> new ArrayList<>()).add(f[1]);
        }
        for (int i = 0; i < ids; i++) {
            List<String> want = new ArrayList<>();
            List<String> fromOne = new ArrayList<>();
            for (int r = 0; r < rounds; r++) {
                for (int k = 0; k < 3; k++) {
                    want.add("r" + r + "k" + k);
                }
            }
            fromOne.addAll(byId.get("f" + i));
            assertEquals(want, fromOne, "f" + i + ": every message once, in order, across passivations");
        }
        assertTrue(starts.get() >= ids, starts.get() + " starts for " + ids + " entities");
        System.out.printf("passivation race: %d entity starts for %d entities and %d messages%n", starts.get(), ids, ids * rounds * 3);
        for (Node n : ns) {
            assertEquals(0, n.cluster().sharding().bufferDropped("flicker"));
        }
    }

    @Test
    void aLeavingMemberHandsItsShardsOverAndMessagesKeepTheirOrder() throws Exception {
        List<Node> ns = nodes("a", "b", "c");
        AtomicInteger starts = new AtomicInteger();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        for (Node n : ns) {
            n.cluster().sharding().init("moving", recorder(starts, received), ShardingSettings.defaults().withPassivateAfter(Duration.ZERO));
        }
        Node a = ns.get(0);
        Node c = ns.get(2);
        int ids = 20;
        int perId = 150;
        int onC = 0;
        for (int i = 0; i < ids; i++) {
            if (ask(a, "moving", "m" + i, "hello").startsWith("c:")) {
                onC++;
            }
        }
        assertTrue(onC > 0, "some of the 20 entities live on c, which leaves");
        received.clear();
        BlockingQueue<MemberEvent> seenByC = new LinkedBlockingQueue<>();
        c.cluster().subscribe(seenByC::add);
        CompletableFuture<Void> leaving = new CompletableFuture<>();
        Thread leaver = Thread.ofPlatform().start(() -> {
            try {
                c.cluster().leave();
                leaving.complete(null);
            } catch (RuntimeException e) {
                leaving.completeExceptionally(e);
            }
        });
        for (int k = 0; k < perId; k++) {
            for (int i = 0; i < ids; i++) {
                a.cluster().sharding().<String>entityRef("moving", "m" + i).tell("s" + k);
            }
            if (k == perId / 3) {
                LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(1)); // let the leave start while messages flow
            }
        }
        leaving.get(60, TimeUnit.SECONDS);
        leaver.join(TimeUnit.SECONDS.toMillis(30));
        Conditions.await(Conditions.LONG, () -> a.cluster().members().size() == 2, "a sees c gone");
        for (int i = 0; i < ids; i++) {
            String answer = ask(a, "moving", "m" + i, "done");
            assertNotEquals("c", answer.split(":")[0], "m" + i + " answers from a member still in the cluster");
        }
        Map<String, List<String>> byId = new ConcurrentHashMap<>();
        for (String r : received) {
            String[] f = r.split(":");
            if (f[1].startsWith("s")) {
                byId.computeIfAbsent(f[0], x -> new ArrayList<>()).add(f[1]);
            }
        }
        List<String> want = new ArrayList<>();
        for (int k = 0; k < perId; k++) {
            want.add("s" + k);
        }
        for (int i = 0; i < ids; i++) {
            assertEquals(want, byId.get("m" + i), "m" + i + ": every message handled once, in send order, across the move");
        }
        for (Node n : ns) {
            assertEquals(0, n.cluster().sharding().bufferDropped("moving"), n.cluster().self() + " dropped nothing");
            assertEquals(0, n.cluster().sharding().lostWithNode("moving"), n.cluster().self() + " lost nothing: the leave was graceful");
        }
        assertEquals(0, c.cluster().sharding().localEntityCount("moving"), "the leaver hosts nothing");
        assertEquals("left the cluster", removedReason(seenByC, c), "c handed everything over before leaving the view");

        // a quiet leave (nothing in flight, every acknowledgement sent before it) also hands over in full
        Node b = ns.get(1);
        BlockingQueue<MemberEvent> seenByB = new LinkedBlockingQueue<>();
        b.cluster().subscribe(seenByB::add);
        b.cluster().leave();
        assertEquals("left the cluster", removedReason(seenByB, b), "b handed everything over before leaving the view");
        for (int i = 0; i < ids; i++) {
            assertTrue(ask(a, "moving", "m" + i, "done").startsWith("a:"), "m" + i + " answers from a, the last member");
        }
        assertEquals(0, a.cluster().sharding().lostWithNode("moving"));
    }

    private static String removedReason(BlockingQueue<MemberEvent> events, Node n) throws InterruptedException {
        MemberEvent e = Conditions.next(events, Conditions.LONG, x -> x.member().equals(n.cluster().self()) && x.status() == MemberStatus.REMOVED);
        if (e == null) {
            throw new AssertionError(n.cluster().self() + " was not REMOVED within 30 s");
        }
        return e.reason();
    }

    @Test
    void aFullBufferDropsCountsAndDeadLettersThenTheKeptMessagesArriveInOrder() throws Exception {
        List<Node> ns = nodes("a", "b");
        Node a = ns.get(0);
        Node b = ns.get(1);
        AtomicInteger starts = new AtomicInteger();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        ShardingSettings settings = ShardingSettings.defaults().withShards(1).withBufferSize(5);
        // only a hosts the type: its single shard is either claimed from b (which does not answer)
        // or owned by b (whose region is unknown), so a keeps its messages
        a.cluster().sharding().init("late", recorder(starts, received), settings);
        long overflow = a.system().deadLetters().count(DeadLetter.Reason.MAILBOX_OVERFLOW);
        ActorRef<String> ref = a.cluster().sharding().entityRef("late", "one");
        for (int i = 0; i < 20; i++) {
            ref.tell("m" + i);
        }
        Conditions.await(Conditions.LONG, () -> a.cluster().sharding().bufferDropped("late") == 15, "15 of 20 dropped beyond the buffer of 5: "
                + a.cluster().sharding().bufferDropped("late"));
        Conditions.await(Conditions.LONG, () -> a.system().deadLetters().count(DeadLetter.Reason.MAILBOX_OVERFLOW) - overflow == 15, "the 15 are dead letters");
        assertEquals(0, starts.get(), "no entity runs while the shard waits");

        b.cluster().sharding().init("late", recorder(starts, received), settings);
        List<String> got = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String s = received.poll(30, TimeUnit.SECONDS);
            if (s == null) {
                throw new AssertionError("only " + got.size() + " of the 5 kept messages arrived: " + got);
            }
            got.add(s);
        }
        assertEquals(List.of("one:m0", "one:m1", "one:m2", "one:m3", "one:m4"), got, "the kept five, in order");
        assertTrue(ask(a, "late", "one", "x").contains(":one:6"), "later messages follow them");
        assertEquals(1, starts.get());
    }

    @Test
    void badInputIsRefusedWithMessagesNamingTheValueAndTheFix() throws Exception {
        Node a = nodes("a").get(0);
        ClusterSharding sh = a.cluster().sharding();
        Function<String, Behavior<String>> f = recorder(new AtomicInteger(), new LinkedBlockingQueue<>());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> sh.init(" ", f, ShardingSettings.defaults()));
        assertTrue(e.getMessage().contains("\" \"") && e.getMessage().contains("non-blank"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> sh.init(null, f, ShardingSettings.defaults()));
        assertTrue(e.getMessage().contains("null"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> sh.init("a/b", f, ShardingSettings.defaults()));
        assertTrue(e.getMessage().contains("a/b") && e.getMessage().contains("'/'"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> sh.init("t", null, ShardingSettings.defaults()));
        assertTrue(e.getMessage().contains("\"t\"") && e.getMessage().contains("factory"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ShardingSettings.defaults().withShards(0));
        assertTrue(e.getMessage().contains("shards 0"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ShardingSettings.defaults().withBufferSize(-1));
        assertTrue(e.getMessage().contains("-1"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> ShardingSettings.defaults().withPassivateAfter(Duration.ofSeconds(-1)));
        assertTrue(e.getMessage().contains("Duration.ZERO"), e.getMessage());

        IllegalStateException s = assertThrows(IllegalStateException.class, () -> sh.entityRef("nope", "x"));
        assertTrue(s.getMessage().contains("\"nope\"") && s.getMessage().contains("init(\"nope\""), s.getMessage());
        sh.init("t", f, ShardingSettings.defaults());
        s = assertThrows(IllegalStateException.class, () -> sh.init("t", f, ShardingSettings.defaults()));
        assertTrue(s.getMessage().contains("already registered"), s.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> sh.entityRef("t", " "));
        assertTrue(e.getMessage().contains("entity id \" \"") && e.getMessage().contains("\"t\""), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> sh.entityRef("t", null));
        assertTrue(e.getMessage().contains("null"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> sh.entityRef("", "x"));
        assertTrue(e.getMessage().contains("entity type"), e.getMessage());
        assertEquals(0, sh.bufferDropped("nope"));
        assertEquals(0, sh.lostWithNode("nope"));
        assertEquals(0, sh.localEntityCount("nope"));
    }
}
