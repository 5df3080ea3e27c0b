package io.weft.actors.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.Receive;
import io.weft.actors.Topic;
import io.weft.actors.cluster.InJvmMembers.Node;
import io.weft.actors.runtime.testing.Conditions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Named topics across three members in one JVM: fan-out once per subscriber, order, a leave, no subscribers. */
class ClusterTopicsTest {

    private final InJvmMembers members = new InJvmMembers();

    @AfterEach
    void closeAll() throws Exception {
        members.close();
    }

    /** A subscriber that puts what it gets on a queue. */
    private static ActorRef<Object> collector(ActorSystem system, String name, BlockingQueue<String> got) {
        return system.spawn(name, self -> self.become(Receive.handler().match(String.class, got::add).build()));
    }

    /** Takes messages until {@code last} arrives (at most 30 s), all of them in arrival order. */
    private static List<String> until(BlockingQueue<String> q, String last) throws InterruptedException {
        List<String> got = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (System.nanoTime() < deadline && (got.isEmpty() || !got.get(got.size() - 1).equals(last))) {
            String m = q.poll(100, TimeUnit.MILLISECONDS);
            if (m != null) {
                got.add(m);
            }
        }
        return got;
    }

    /** Waits (at most 30 s) until a member's registry shows {@code n} members with subscribers of the topic. */
    private static void awaitSubscribedMembers(Cluster c, String topic, int n) {
        Conditions.await(Conditions.LONG, () -> c.registry().lookup("weft.topic:" + topic).size() == n,
                () -> c.self() + " sees " + n + " relays, not " + c.registry().lookup("weft.topic:" + topic));
    }

    @Test
    void aPublishReachesEverySubscriberOnOtherMembersOnceInOrderAndStopsReachingALeaver() throws Exception {
        List<Integer> seeds = InJvmMembers.freePorts(3);
        // a's first subscriber subscribes before a joins: joining announces existing topics
        ActorSystem sa = members.keep(ActorSystem.create("a"));
        BlockingQueue<String> a1 = new LinkedBlockingQueue<>();
        BlockingQueue<String> a2 = new LinkedBlockingQueue<>();
        Topic.of(sa, "news", String.class).subscribe(collector(sa, "a1", a1));
        Node a = members.join(sa, seeds.get(0), seeds);
        Topic.of(sa, "news", String.class).subscribe(collector(sa, "a2", a2));
        Node b = members.start("b", seeds.get(1), seeds);
        BlockingQueue<String> b1 = new LinkedBlockingQueue<>();
        Topic.of(b.system(), "news", String.class).subscribe(collector(b.system(), "b1", b1));
        Node c = members.start("c", seeds.get(2), seeds);
        Topic<String> onC = Topic.of(c.system(), "news", String.class);
        awaitSubscribedMembers(c.cluster(), "news", 2);

        long deadBefore = c.system().deadLetters().count(DeadLetter.Reason.NO_SUBSCRIBERS);
        List<String> sent = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            sent.add("m" + i);
        }
        sent.add("end");
        for (String m : sent) {
            onC.publish(m);
        }
        assertEquals(sent, until(a1, "end"), "a's first subscriber (subscribed before the join): each message once, in publish order");
        assertEquals(sent, until(a2, "end"), "a's second subscriber: the same (one relay per member fans out locally)");
        assertEquals(sent, until(b1, "end"), "b's subscriber: the same");
        assertEquals(deadBefore, c.system().deadLetters().count(DeadLetter.Reason.NO_SUBSCRIBERS),
                "subscribers on other members only: no NO_SUBSCRIBERS dead letter on the publisher");

        // b leaves: a publish on c still reaches a, not b; b's topic is local again
        b.cluster().leave();
        awaitSubscribedMembers(c.cluster(), "news", 1);
        onC.publish("after");
        assertEquals(List.of("after"), until(a1, "after"));
        Topic.of(b.system(), "news", String.class).publish("local on b");
        assertEquals(List.of("local on b"), until(b1, "local on b"), "b, gone, got nothing from c; its own publish stays local");
    }

    @Test
    void aPublishWithNoSubscribersAnywhereIsADeadLetterOnThePublisher() throws Exception {
        List<Integer> seeds = InJvmMembers.freePorts(2);
        Node a = members.start("a", seeds.get(0), seeds);
        Node b = members.start("b", seeds.get(1), seeds);
        BlockingQueue<String> b1 = new LinkedBlockingQueue<>();
        ActorRef<Object> sub = collector(b.system(), "b1", b1);
        Topic.of(b.system(), "quiet", String.class).subscribe(sub);
        awaitSubscribedMembers(a.cluster(), "quiet", 1);
        Topic.of(b.system(), "quiet", String.class).unsubscribe(sub);
        awaitSubscribedMembers(a.cluster(), "quiet", 0);

        long before = a.system().deadLetters().count(DeadLetter.Reason.NO_SUBSCRIBERS);
        Topic.of(a.system(), "quiet", String.class).publish("unheard");
        assertEquals(before + 1, a.system().deadLetters().count(DeadLetter.Reason.NO_SUBSCRIBERS),
                "no subscriber on any member: one NO_SUBSCRIBERS dead letter on the publishing member");
    }
}
