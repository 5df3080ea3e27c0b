package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Receive;
import io.weft.actors.Topic;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The user event stream and topics: type filtering, unsubscribe on stop, no subscribers, bad inputs. */
class PubSubTest {

    private static final long WAIT_S = 30;

    private ActorSystem system;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("pubsub").parallelism(2).build();
    }

    @AfterEach
    void close() {
        system.close();
    }

    /** An actor that puts what it gets on {@code out}. */
    private ActorRef<Object> recorder(BlockingQueue<Object> out) {
        return system.spawn(self -> self.become(Receive.<Object>handler().matchAny(out::add).build()));
    }

    private static Object take(BlockingQueue<Object> q) throws InterruptedException {
        Object o = q.poll(WAIT_S, TimeUnit.SECONDS);
        assertNotNull(o, "timed out waiting for a delivery");
        return o;
    }

    private void stopAndAwait(ActorRef<?> ref) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        system.lifecycle().subscribe(e -> {
            if (e.kind() == LifecycleEvent.Kind.STOPPED && e.actor().equals(ref)) {
                stopped.countDown();
            }
        });
        system.stop(ref);
        assertTrue(stopped.await(WAIT_S, TimeUnit.SECONDS));
    }

    @Test
    void aSubscriberToASupertypeGetsItsSubtypesAndEachEventOnce() throws Exception {
        BlockingQueue<Object> numbers = new LinkedBlockingQueue<>();
        BlockingQueue<Object> integers = new LinkedBlockingQueue<>();
        BlockingQueue<Object> strings = new LinkedBlockingQueue<>();
        ActorRef<Object> n = recorder(numbers);
        ActorRef<Object> i = recorder(integers);
        ActorRef<Object> s = recorder(strings);
        assertTrue(system.eventStream().subscribe(Number.class, n));
        assertTrue(system.eventStream().subscribe(Integer.class, n), "a second class for the same actor");
        assertFalse(system.eventStream().subscribe(Number.class, n), "already subscribed");
        system.eventStream().subscribe(Integer.class, i);
        system.eventStream().subscribe(CharSequence.class, s);
        assertEquals(2, system.eventStream().subscriberCount(Integer.class));
        system.eventStream().publish(1);
        system.eventStream().publish(2.5);
        system.eventStream().publish("text");
        assertEquals(1, take(numbers));
        assertEquals(2.5, take(numbers));
        assertEquals(1, take(integers));
        assertEquals("text", take(strings));
        system.eventStream().publish("end");
        system.eventStream().publish(3);
        system.eventStream().publish(4.0);
        assertEquals("end", take(strings));
        assertEquals(3, take(integers));
        assertEquals(3, take(numbers));
        assertEquals(4.0, take(numbers), "3 once, although subscribed through Number and Integer");
    }

    @Test
    void unsubscribeEndsDeliveryAndAStoppedActorIsUnsubscribedByItself() throws Exception {
        BlockingQueue<Object> a = new LinkedBlockingQueue<>();
        BlockingQueue<Object> b = new LinkedBlockingQueue<>();
        ActorRef<Object> ra = recorder(a);
        ActorRef<Object> rb = recorder(b);
        system.eventStream().subscribe(String.class, ra);
        system.eventStream().subscribe(String.class, rb);
        assertTrue(system.eventStream().unsubscribe(String.class, ra));
        assertFalse(system.eventStream().unsubscribe(String.class, ra));
        system.eventStream().publish("one");
        assertEquals("one", take(b));
        stopAndAwait(rb);
        assertEquals(0, system.eventStream().subscriberCount(String.class), "the stopped actor's subscription is gone");
        assertFalse(system.eventStream().subscribe(String.class, rb), "a stopped actor cannot subscribe");
        assertEquals(0, system.eventStream().subscriberCount(String.class));
    }

    @Test
    void anEventNobodySubscribedToIsACountedDeadLetter() throws Exception {
        CountDownLatch dead = new CountDownLatch(1);
        system.deadLetters().subscribe(d -> {
            if (d.reason() == DeadLetter.Reason.NO_SUBSCRIBERS && d.message().equals("unheard")) {
                dead.countDown();
            }
        });
        system.eventStream().publish("unheard");
        assertTrue(dead.await(WAIT_S, TimeUnit.SECONDS));
        assertEquals(1, system.deadLetters().count(DeadLetter.Reason.NO_SUBSCRIBERS));
    }

    @Test
    void aTopicReachesEverySubscriberAndForgetsStoppedOnes() throws Exception {
        Topic<String> orders = Topic.of(system, "orders", String.class);
        assertSame(orders, system.topic("orders", String.class), "one topic per name");
        BlockingQueue<Object> a = new LinkedBlockingQueue<>();
        BlockingQueue<Object> b = new LinkedBlockingQueue<>();
        ActorRef<Object> ra = recorder(a);
        ActorRef<Object> rb = recorder(b);
        assertTrue(orders.subscribe(ra));
        assertFalse(orders.subscribe(ra));
        orders.subscribe(rb);
        assertEquals(2, orders.subscriberCount());
        orders.publish("o1");
        assertEquals("o1", take(a));
        assertEquals("o1", take(b));
        assertTrue(orders.unsubscribe(ra));
        orders.publish("o2");
        assertEquals("o2", take(b));
        assertNull(a.poll());
        stopAndAwait(rb);
        assertEquals(0, orders.subscriberCount());
        long before = system.deadLetters().count(DeadLetter.Reason.NO_SUBSCRIBERS);
        orders.publish("o3");
        assertEquals(before + 1, system.deadLetters().count(DeadLetter.Reason.NO_SUBSCRIBERS), "counted at once, on the publisher");
    }

    @Test
    void topicsAndTheEventStreamRefuseBadInputsClearly() {
        Topic<String> t = system.topic("t", String.class);
        NullPointerException nullTopic = assertThrows(NullPointerException.class, () -> t.publish(null));
        assertTrue(nullTopic.getMessage().contains("topic \"t\": cannot publish null"), nullTopic.getMessage());
        NullPointerException nullEvent = assertThrows(NullPointerException.class, () -> system.eventStream().publish(null));
        assertTrue(nullEvent.getMessage().contains("cannot publish null"), nullEvent.getMessage());
        IllegalArgumentException otherType = assertThrows(IllegalArgumentException.class, () -> system.topic("t", Integer.class));
        assertTrue(otherType.getMessage().contains("exists with message type java.lang.String, asked for java.lang.Integer"),
                otherType.getMessage());
        IllegalArgumentException blank = assertThrows(IllegalArgumentException.class, () -> system.topic(" ", String.class));
        assertTrue(blank.getMessage().contains("must not be blank"), blank.getMessage());
        @SuppressWarnings({"unchecked", "rawtypes"})
        Topic<Object> raw = (Topic) t;
        IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class, () -> raw.publish(42));
        assertTrue(wrong.getMessage().contains("carries java.lang.String, was given a java.lang.Integer"), wrong.getMessage());
        assertThrows(NullPointerException.class, () -> t.subscribe(null));
        assertThrows(NullPointerException.class, () -> system.eventStream().subscribe(null, recorder(new LinkedBlockingQueue<>())));
    }
}
