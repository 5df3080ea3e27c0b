package io.weft.actors.loom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;

/**
 * The token ring of Haller and Odersky 2009, §7.1 at CI size: n thread-based processes, each neighbouring pair
 * joined by a react-based queue actor, k tokens; each process takes from its right queue with a
 * blocking receive and puts into its left one. The full-size run (600,000 processes) is
 * {@code java -jar actors-bench.jar ring}.
 */
class TokenRingTest {

    private record Token(int id, int hopsLeft) {
    }

    private record Take(ActorRef<Object> taker) {
    }

    private record Put(Token token) {
    }

    private static void queue(ActorContext<Object> self) {
        ArrayDeque<Token> items = new ArrayDeque<>();
        List<ActorRef<Object>> takers = new ArrayList<>(1);
        self.loop(() -> self.react(Receive.<Object>handler()
                .match(Put.class, p -> {
                    if (takers.isEmpty()) {
                        items.addLast(p.token());
                    } else {
                        takers.remove(0).tell(p.token());
                    }
                })
                .match(Take.class, t -> {
                    Token first = items.pollFirst();
                    if (first == null) {
                        takers.add(t.taker());
                    } else {
                        t.taker().tell(first);
                    }
                })
                .build()));
    }

    @Test
    void tokensGoRoundARingOfThreadBasedProcessesJoinedByQueueActors() throws Exception {
        int n = 500;
        int k = 10;
        int hops = 2_000;
        LongAdder passes = new LongAdder();
        ConcurrentLinkedQueue<Integer> retiredIds = new ConcurrentLinkedQueue<>();
        CountDownLatch retired = new CountDownLatch(k);
        try (ActorSystem system = ActorSystem.builder().name("ring").parallelism(2).build()) {
            List<ActorRef<Object>> queues = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                queues.add(system.spawn("queue-" + i, TokenRingTest::queue));
            }
            Receive<Object, Token> takeToken = Receive.<Object, Token>returning().match(Token.class, t -> t).build();
            for (int i = 0; i < n; i++) {
                ActorRef<Object> right = queues.get(i);
                ActorRef<Object> left = queues.get((i + 1) % n);
                system.spawnThread("process-" + i, self -> {
                    while (true) {
                        right.tell(new Take(self.self()));
                        Token t = self.receive(takeToken);
                        if (t.hopsLeft() == 0) {
                            retiredIds.add(t.id());
                            retired.countDown();
                        } else {
                            passes.increment();
                            left.tell(new Put(new Token(t.id(), t.hopsLeft() - 1)));
                        }
                    }
                });
            }
            assertEquals(2L * n, system.actorCount());
            for (int t = 0; t < k; t++) {
                queues.get(t * n / k).tell(new Put(new Token(t, hops)));
            }
            assertTrue(retired.await(60, TimeUnit.SECONDS), "tokens retired: " + retiredIds);
            assertEquals((long) k * hops, passes.sum());
            assertEquals(k, retiredIds.size());
            assertEquals(k, retiredIds.stream().distinct().count());
        }
    }
}
