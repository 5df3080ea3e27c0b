package io.weft.actors.loom.semantics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Channel;
import io.weft.actors.Constraints;
import io.weft.actors.Join;
import io.weft.actors.Receive;
import io.weft.actors.runtime.ContractMatrix.Mode;
import io.weft.actors.Terminated;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Synchronization constraints, join patterns and multi-channel receive, for both kinds of actor. */
class CoordinationTest {

    private static final long WAIT = 30;
    private static final int CAPACITY = 2;

    record Put(int item) {
    }

    record Get() {
    }

    record Left(int value) {
    }

    record Right(int value) {
    }

    record Other(int value) {
    }

    private ActorSystem system;

    @BeforeEach
    void start() {
        system = ActorSystem.builder().name("coordination").parallelism(2).build();
    }

    @AfterEach
    void stop() {
        system.close();
    }

    private static <T> T await(CompletableFuture<T> f) throws Exception {
        return f.get(WAIT, TimeUnit.SECONDS);
    }

    /** Seed 001 §4.2's bounded buffer: handlers say how, constraints say when. */
    private static Behavior<Object> bufferWithConstraints(Mode mode, AtomicInteger maxSize) {
        return self -> {
            ArrayDeque<Integer> items = new ArrayDeque<>();
            Constraints<Object> when = Constraints.builder()
                    .disable(Put.class, p -> items.size() == CAPACITY)
                    .disable(Get.class, g -> items.isEmpty())
                    .build();
            mode.serve(self, when.guard(Receive.<Object>handler()
                    .match(Put.class, p -> {
                        items.addLast(p.item());
                        maxSize.accumulateAndGet(items.size(), Math::max);
                    })
                    .match(Get.class, g -> self.reply(items.removeFirst()))
                    .build()));
        };
    }

    /** The same buffer with the conditions as guards inside the handler. */
    private static Behavior<Object> bufferWithGuards(Mode mode, AtomicInteger maxSize) {
        return self -> {
            ArrayDeque<Integer> items = new ArrayDeque<>();
            mode.serve(self, Receive.<Object>handler()
                    .match(Put.class, p -> items.size() < CAPACITY, p -> {
                        items.addLast(p.item());
                        maxSize.accumulateAndGet(items.size(), Math::max);
                    })
                    .match(Get.class, g -> !items.isEmpty(), g -> self.reply(items.removeFirst()))
                    .build());
        };
    }

    private void exerciseBuffer(ActorRef<Object> buffer, AtomicInteger maxSize, boolean getsFirst) throws Exception {
        List<CompletableFuture<Integer>> gets = new ArrayList<>();
        if (getsFirst) {
            for (int i = 0; i < 10; i++) {
                gets.add(system.ask(buffer, new Get(), Duration.ofSeconds(WAIT)));
            }
        }
        for (int i = 1; i <= 10; i++) {
            buffer.tell(new Put(i));
        }
        if (!getsFirst) {
            for (int i = 0; i < 10; i++) {
                gets.add(system.ask(buffer, new Get(), Duration.ofSeconds(WAIT)));
            }
        }
        List<Integer> got = new ArrayList<>();
        for (CompletableFuture<Integer> g : gets) {
            got.add(await(g));
        }
        assertEquals(List.of(1, 2, 3, 4, 5, 6, 7, 8, 9, 10), got, "disabled messages wait in arrival order");
        assertTrue(maxSize.get() <= CAPACITY, "put was handled while full: " + maxSize.get());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void boundedBufferWithSynchronizationConstraints(Mode mode) throws Exception {
        for (boolean getsFirst : new boolean[] {true, false}) {
            AtomicInteger max = new AtomicInteger();
            exerciseBuffer(mode.spawn(system, bufferWithConstraints(mode, max)), max, getsFirst);
        }
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void boundedBufferWithGuards(Mode mode) throws Exception {
        for (boolean getsFirst : new boolean[] {true, false}) {
            AtomicInteger max = new AtomicInteger();
            exerciseBuffer(mode.spawn(system, bufferWithGuards(mode, max)), max, getsFirst);
        }
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void aThrowingConstraintFailsTheActorNotTheSender(Mode mode) throws Exception {
        ActorRef<Object> actor = mode.spawn(system, self -> {
            Constraints<Object> when = Constraints.builder()
                    .disable(Put.class, p -> {
                        throw new ArithmeticException("constraint broke");
                    })
                    .build();
            mode.serve(self, when.guard(Receive.<Object>handler().matchAny(m -> { }).build()));
        });
        CompletableFuture<Terminated> t = Watching.watch(system, actor);
        actor.tell(new Put(1)); // does not throw here
        assertInstanceOf(ArithmeticException.class, await(t).cause());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void joinConsumesWholePatternsAtomically(Mode mode) throws Exception {
        List<String> fired = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        ActorRef<Object> actor = mode.spawn(system, self -> {
            Join<Object> join = Join.builder()
                    .join(Left.class, Right.class, (l, r) -> {
                        fired.add(l.value() + "+" + r.value());
                        if (fired.size() == 3) {
                            done.complete(null);
                        }
                    })
                    .build();
            mode.serve(self, join.handler());
        });
        actor.tell(new Left(1));
        actor.tell(new Left(2));
        actor.tell(new Right(10));
        actor.tell(new Left(3));
        actor.tell(new Right(20));
        actor.tell(new Right(30));
        await(done);
        assertEquals(List.of("1+10", "2+20", "3+30"), fired);
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void joinChoosesFairlyAmongEnabledPatterns(Mode mode) throws Exception {
        List<String> fired = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        ActorRef<Object> actor = mode.spawn(system, self -> {
            Join<Object> join = Join.builder()
                    .join(Left.class, Right.class, (l, r) -> fired.add("LR"))
                    .join(Left.class, Other.class, (l, o) -> fired.add("LO"))
                    .build();
            mode.serve(self, join.handler().orElse(Receive.<Object>handler()
                    .match(String.class, s -> done.complete(null)).build()));
        });
        // both patterns wait for a Left; each Left completes both: the choice must alternate
        for (int i = 0; i < 10; i++) {
            actor.tell(new Right(i));
            actor.tell(new Other(i));
        }
        for (int i = 0; i < 10; i++) {
            actor.tell(new Left(i));
        }
        actor.tell("end");
        await(done);
        assertEquals(10, fired.size());
        assertEquals(5, fired.stream().filter("LR"::equals).count(), fired.toString());
        assertEquals(5, fired.stream().filter("LO"::equals).count(), fired.toString());
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void joinAcrossChannels(Mode mode) throws Exception {
        CompletableFuture<List<Channel<Integer>>> channels = new CompletableFuture<>();
        List<Integer> sums = new CopyOnWriteArrayList<>();
        CompletableFuture<Void> done = new CompletableFuture<>();
        mode.spawn(system, self -> {
            Channel<Integer> a = self.open(Integer.class);
            Channel<Integer> b = self.open(Integer.class);
            Join<Object> join = Join.builder()
                    .join(a, Integer.class, b, Integer.class, (x, y) -> {
                        sums.add(x * 100 + y);
                        if (sums.size() == 2) {
                            done.complete(null);
                        }
                    })
                    .build();
            channels.complete(List.of(a, b));
            mode.serve(self, join.handler());
        });
        List<Channel<Integer>> ch = await(channels);
        ch.get(0).tell(1);
        ch.get(0).tell(2);
        ch.get(1).tell(7);
        ch.get(1).tell(8);
        await(done);
        assertEquals(List.of(107, 208), sums);
    }

    @ParameterizedTest
    @MethodSource("io.weft.actors.runtime.ContractMatrix#semanticsModes")
    void oneReceiveWithCasesOnADataAndAControlChannel(Mode mode) throws Exception {
        record Data(int value) {
        }
        record Halt() {
        }
        CompletableFuture<List<Object>> channels = new CompletableFuture<>();
        CompletableFuture<Integer> total = new CompletableFuture<>();
        ActorRef<Object> actor = mode.spawn(system, self -> {
            Channel<Data> data = self.open(Data.class);
            Channel<Halt> control = self.open(Halt.class);
            channels.complete(List.of(data, control));
            int[] sum = {0};
            mode.serve(self, Receive.<Object>handler()
                    .on(data, Data.class, d -> sum[0] += d.value())
                    .on(control, Halt.class, h -> sum[0] == 55, h -> { // waits, saved, until all data is in
                        total.complete(sum[0]);
                        self.stop();
                    })
                    .build());
        });
        List<Object> ch = await(channels);
        @SuppressWarnings("unchecked")
        Channel<Data> data = (Channel<Data>) ch.get(0);
        @SuppressWarnings("unchecked")
        Channel<Halt> control = (Channel<Halt>) ch.get(1);
        CompletableFuture<Terminated> t = Watching.watch(system, actor);
        for (int i = 1; i <= 10; i++) {
            data.tell(new Data(i));
        }
        control.tell(new Halt()); // may be looked at before the data: its guard keeps it saved
        assertEquals(55, await(total));
        await(t);
    }
}
