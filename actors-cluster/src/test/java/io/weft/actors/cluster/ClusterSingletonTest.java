package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.Behavior;
import io.weft.actors.DeadLetter;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.cluster.InJvmMembers.Node;
import io.weft.actors.runtime.testing.Conditions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Cluster singletons on three members in one JVM: one instance, routing from every member, a move, buffering and overflow. */
class ClusterSingletonTest {

    private final InJvmMembers members = new InJvmMembers();

    @AfterEach
    void closeAll() throws Exception {
        members.close();
    }

    /** Takes n received messages, each at most 30 s apart. */
    private static List<String> take(BlockingQueue<String> received, int n) throws InterruptedException {
        List<String> got = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String s = received.poll(30, TimeUnit.SECONDS);
            if (s == null) {
                throw new AssertionError("only " + got.size() + " of " + n + " messages arrived within 30 s of each other: " + got);
            }
            got.add(s);
        }
        return got;
    }

    /** A factory of instances that count their starts and record "host:message" for each message. */
    private static Supplier<Behavior<String>> recorder(AtomicInteger starts, BlockingQueue<String> received) {
        return () -> self -> {
            starts.incrementAndGet();
            String host = self.system().name();
            self.become(Receive.<String>handler().match(String.class, m -> received.add(host + ":" + m)).build());
        };
    }

    @Test
    void runsOnceOnTheOldestIsReachedFromEveryMemberAndMovesWhenItLeaves() throws Exception {
        List<Node> ns = members.start("a", "b", "c");
        Node a = ns.get(0);
        Node b = ns.get(1);
        Node c = ns.get(2);
        AtomicInteger starts = new AtomicInteger();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        List<ActorRef<String>> proxies = new ArrayList<>();
        for (Node n : List.of(a, b, c)) {
            proxies.add(n.cluster().singleton("recorder", Props.named("recorder"), recorder(starts, received), SingletonSettings.defaults()));
        }
        proxies.get(0).tell("from-a");
        proxies.get(1).tell("from-b");
        proxies.get(2).tell("from-c");
        List<String> got = take(received, 3);
        assertEquals(List.of("a:from-a", "a:from-b", "a:from-c"), got.stream().sorted().toList(),
                "every proxy reaches the one instance, on the oldest member a");
        assertEquals(1, starts.get(), "one instance cluster-wide");

        a.cluster().leave();
        Conditions.await(Conditions.LONG, () -> b.cluster().members().size() == 2 && c.cluster().members().size() == 2, "b and c see a gone");
        int n = 200;
        for (int i = 0; i < n; i++) {
            proxies.get(1).tell("b" + i);
            proxies.get(2).tell("c" + i);
        }
        got = take(received, 2 * n);
        List<String> fromB = got.stream().filter(s -> s.startsWith("b:b")).toList();
        List<String> fromC = got.stream().filter(s -> s.startsWith("b:c")).toList();
        List<String> wantB = new ArrayList<>();
        List<String> wantC = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            wantB.add("b:b" + i);
            wantC.add("b:c" + i);
        }
        assertEquals(wantB, fromB, "b's proxy: every message reaches the instance now on b, in order");
        assertEquals(wantC, fromC, "c's proxy: every message reaches the instance now on b, in order");
        assertEquals(2, starts.get(), "the instance started once more, on b, the next oldest");
        assertEquals(0, b.cluster().singletonDropped("recorder") + c.cluster().singletonDropped("recorder"));
    }

    @Test
    void aProxyBuffersInOrderUntilAnInstanceAppearsAndCountsOverflow() throws Exception {
        List<Node> ns = members.start("a", "b");
        Node a = ns.get(0);
        Node b = ns.get(1);
        ActorRef<String> proxy = b.cluster().singletonProxy("late", SingletonSettings.defaults().withBufferSize(10));
        long overflowBefore = b.system().deadLetters().count(DeadLetter.Reason.MAILBOX_OVERFLOW);
        for (int i = 0; i < 15; i++) {
            proxy.tell("m" + i);
        }
        Conditions.await(Conditions.LONG, () -> b.cluster().singletonDropped("late") == 5, "five of fifteen dropped beyond the buffer of ten: "
                + b.cluster().singletonDropped("late"));
        Conditions.await(Conditions.LONG, () -> b.system().deadLetters().count(DeadLetter.Reason.MAILBOX_OVERFLOW) - overflowBefore == 5,
                "the five dropped are dead letters");

        AtomicInteger starts = new AtomicInteger();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        a.cluster().singleton("late", Props.named("late"), recorder(starts, received), SingletonSettings.defaults());
        List<String> want = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            want.add("a:m" + i);
        }
        assertEquals(want, take(received, 10), "the buffered ten arrive in order at the instance on a");
        proxy.tell("after");
        assertEquals("a:after", received.poll(30, TimeUnit.SECONDS), "later messages follow the flushed ones");
        assertEquals(5, b.cluster().singletonDropped("late"));
        assertEquals(1, starts.get());
    }

    @Test
    void badInputsAreRefused() throws Exception {
        Node a = members.start("a").get(0);
        AtomicInteger starts = new AtomicInteger();
        BlockingQueue<String> received = new LinkedBlockingQueue<>();
        assertThrows(IllegalArgumentException.class, () -> a.cluster().singleton(" ", Props.named("x"), recorder(starts, received),
                SingletonSettings.defaults()));
        assertThrows(IllegalArgumentException.class, () -> a.cluster().singleton("x", null, recorder(starts, received),
                SingletonSettings.defaults()));
        assertThrows(IllegalArgumentException.class, () -> SingletonSettings.defaults().withBufferSize(-1));
        a.cluster().singleton("one", Props.named("one"), recorder(starts, received), SingletonSettings.defaults());
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> a.cluster().singleton("one", Props.named("one-again"), recorder(starts, received), SingletonSettings.defaults()));
        assertTrue(e.getMessage().contains("already managed"), e.getMessage());
    }
}
