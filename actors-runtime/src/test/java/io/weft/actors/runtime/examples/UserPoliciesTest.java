package io.weft.actors.runtime.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The user-policy examples of docs/scheduling.md do what the docs say. */
class UserPoliciesTest {

    @Test
    void theHigherPriorityActorRunsFirst() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("prio").parallelism(1).build();
                PriorityScheduler prio = new PriorityScheduler(1, 1)) {
            CountDownLatch occupied = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            ActorRef<String> gate = system.spawn(Props.defaults().withScheduler(prio.at(100)), self -> self.react(
                    Receive.<String>handler().match(String.class, s -> {
                        occupied.countDown();
                        try {
                            release.await(); // holds the only thread while the others queue up
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        }
                    }).build()));
            gate.tell("hold");
            assertTrue(occupied.await(30, TimeUnit.SECONDS));
            List<String> order = new CopyOnWriteArrayList<>();
            CountDownLatch done = new CountDownLatch(3);
            for (int p : new int[] {1, 10, 5}) {
                ActorRef<String> a = system.spawn(Props.defaults().withScheduler(prio.at(p)), self -> self.react(
                        Receive.<String>handler().match(String.class, s -> {
                            order.add(s);
                            done.countDown();
                        }).build()));
                a.tell("p" + p);
            }
            release.countDown();
            assertTrue(done.await(30, TimeUnit.SECONDS));
            assertEquals(List.of("p10", "p5", "p1"), order);
        }
    }

    @Test
    void anActorRunsOnlyWhenTheResourceGrantsIt() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("resource").parallelism(1).build();
                ManualResource device = new ManualResource()) {
            AtomicInteger handled = new AtomicInteger();
            CountDownLatch started = new CountDownLatch(1);
            CountDownLatch one = new CountDownLatch(1);
            ActorRef<String> actor = system.spawn(Props.defaults().withScheduler(new ResourceScheduler(device, 50)), self -> {
                started.countDown();
                self.loop(() -> self.react(Receive.<String>handler().match(String.class, s -> {
                    handled.incrementAndGet();
                    one.countDown();
                }).build()));
            });
            actor.tell("work");
            // nothing has run: the start and the message wait for the resource
            assertEquals(1, device.waiting());
            assertEquals(1, started.getCount());
            assertEquals(0, handled.get());
            device.grant();
            assertTrue(started.await(30, TimeUnit.SECONDS));
            assertTrue(one.await(30, TimeUnit.SECONDS));
            assertEquals(1, handled.get());
            // stopping is a turn too: under this policy it runs only when the resource grants it
            system.stop(actor);
            // a grant finds nothing to grant until the stop's turn is queued for the resource (the
            // message's turn may still be ending): wait for it, at most 30 s
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (device.waiting() == 0 && !actor.isTerminated()) {
                assertTrue(System.nanoTime() < deadline, "the stop never asked the resource for a turn");
                Thread.onSpinWait();
            }
            device.grant();
            while (!actor.isTerminated()) {
                assertTrue(terminated(system, actor), "the stop runs once the resource is granted");
            }
        }
    }

    /** Waits (up to 30 s) for the actor's STOPPED event, or returns at once if it already stopped. */
    private static boolean terminated(ActorSystem system, ActorRef<?> actor) throws InterruptedException {
        CountDownLatch stopped = new CountDownLatch(1);
        var subscription = system.lifecycle().subscribe(e -> {
            if (e.actor().equals(actor) && e.kind() == io.weft.actors.LifecycleEvent.Kind.STOPPED) {
                stopped.countDown();
            }
        });
        try {
            return actor.isTerminated() || stopped.await(30, TimeUnit.SECONDS);
        } finally {
            subscription.close();
        }
    }
}
