package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Channel;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.runtime.ContractMatrix.Fixture;
import io.weft.actors.runtime.ContractMatrix.MailboxKind;
import io.weft.actors.runtime.ContractMatrix.Mode;
import io.weft.actors.runtime.ContractMatrix.SchedulerKind;
import io.weft.actors.spi.Scheduler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Serializability and fairness (Prokopec 2016, §2.1) under every scheduling policy of
 * {@link ContractMatrix}: the built-ins, the ForkJoin scheduler with each optimization set, the fair
 * scheduler, a user-defined scheduler, the user-policy examples, and {@link ContractCheckingScheduler},
 * which asserts the runtime's side of the SPI contract. The one-handler-at-a-time/FIFO test draws
 * {@code fifoCross} (every scheduler × every mailbox kind its traffic fits in); the starvation tests
 * draw {@code fairnessSchedulers} (unbounded mailboxes: their self-sends never fill one). The
 * piggyback scheduler is left out of both: it runs one actor on the spawning thread until it stops
 * (SerializabilityContractTest covers it).
 */
class SchedulerContractTest {

    @ParameterizedTest(name = "{0}, {1}, {2}")
    @MethodSource("io.weft.actors.runtime.ContractMatrix#fifoCross")
    void oneHandlerAtATimeAcrossChannelsAndFifoPerSender(SchedulerKind kind, MailboxKind mailbox, Mode mode) throws Exception {
        int senders = 3;
        int perSender = 4_000;
        int side = 2_000;
        String p = kind + ", " + mailbox + ", " + mode;
        try (Fixture f = Fixture.open(kind, "contract")) {
            ActorSystem system = f.system();
            AtomicBoolean inside = new AtomicBoolean();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicInteger reorders = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            CompletableFuture<Channel<String>> sideChannel = new CompletableFuture<>();
            long[] handled = new long[1]; // plain: only ever touched by the actor
            int total = senders * perSender + side;
            Runnable enter = () -> {
                if (inside.getAndSet(true)) {
                    overlaps.incrementAndGet();
                }
            };
            Runnable exit = () -> {
                inside.set(false);
                if (++handled[0] == total) {
                    done.countDown();
                }
            };
            CompletableFuture<ActorRef<Integer>> ref = new CompletableFuture<>();
            f.start(mode, f.props("fifo", mailbox), mode.behavior((ActorContext<Integer> self) -> {
                Channel<String> s = self.open(String.class);
                int[] last = new int[senders];
                int[] lastSide = new int[1];
                ref.complete(self.self());
                sideChannel.complete(s);
                return Receive.<Integer>handler()
                        .match(Integer.class, n -> {
                            enter.run();
                            int sender = n / 1_000_000;
                            int seq = n % 1_000_000;
                            if (seq != last[sender] + 1) {
                                reorders.incrementAndGet();
                            }
                            last[sender] = seq;
                            exit.run();
                        })
                        .on(s, String.class, str -> {
                            enter.run();
                            int seq = Integer.parseInt(str);
                            if (seq != lastSide[0] + 1) {
                                reorders.incrementAndGet();
                            }
                            lastSide[0] = seq;
                            exit.run();
                        })
                        .build();
            }));
            ActorRef<Integer> actor = ref.get(30, TimeUnit.SECONDS);
            Channel<String> sc = sideChannel.get(30, TimeUnit.SECONDS);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < senders; t++) {
                int id = t;
                threads.add(Thread.ofPlatform().start(() -> {
                    for (int i = 1; i <= perSender; i++) {
                        actor.tell(id * 1_000_000 + i);
                    }
                }));
            }
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 1; i <= side; i++) {
                    sc.tell(Integer.toString(i));
                }
            }));
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), p + ": not every message was handled");
            assertEquals(0, overlaps.get(), p + ": two handlers of one actor overlapped");
            assertEquals(0, reorders.get(), p + ": messages of one sender were reordered");
            assertEquals(0, system.metrics().messagesDropped(), p + ": messages dropped");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("io.weft.actors.runtime.ContractMatrix#fairnessSchedulers")
    void aSelfSendingActorDoesNotStarveOthers(SchedulerKind p) throws Exception {
        int light = 8;
        int each = 200;
        try (Fixture f = Fixture.open(p, "contract")) {
            ActorSystem system = f.system();
            Scheduler scheduler = f.scheduler();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong spins = new AtomicLong();
            CountDownLatch spun = new CountDownLatch(1);
            ActorRef<String> spinner = system.spawn(Props.defaults().withScheduler(scheduler), self ->
                    self.loop(() -> self.react(Receive.<String>handler().match(String.class, s -> {
                        spins.incrementAndGet();
                        spun.countDown();
                        if (!stop.get()) {
                            self.self().tell(s); // never yields on its own
                        }
                    }).build())));
            spinner.tell("go");
            spinner.tell("go"); // two tokens: its queue is never empty
            long left = unhandledByLightActors(system, scheduler, light, each);
            stop.set(true);
            assertEquals(0, left, p + ": light actors starved by a self-sending actor; messages left");
            assertTrue(spun.await(60, TimeUnit.SECONDS), p + ": the self-sending actor never ran");
        }
    }

    /**
     * Busy actors on every worker (self-senders whose queues never empty, and endless ping-pong
     * pairs) must not starve actors spawned and told from outside the scheduler's threads. With a
     * ForkJoinPool a worker runs its local queue until it is empty before it looks at tasks
     * submitted from outside; the busy actors keep that queue non-empty for ever.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("io.weft.actors.runtime.ContractMatrix#fairnessSchedulers")
    void busyActorsOnEveryWorkerDoNotStarveActorsToldFromOutside(SchedulerKind p) throws Exception {
        int busy = 2; // the system's parallelism: one self-sender and one ping-pong pair per worker
        int light = 8;
        int each = 50;
        try (Fixture f = Fixture.open(p, "contract")) {
            ActorSystem system = f.system();
            Scheduler scheduler = f.scheduler();
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch running = new CountDownLatch(2 * busy); // each busy actor's first message
            for (int i = 0; i < busy; i++) {
                boolean[] spinnerStarted = {false}; // touched by the spinner only
                ActorRef<String> spinner = system.spawn(Props.defaults().withScheduler(scheduler), self ->
                        self.loop(() -> self.react(Receive.<String>handler().match(String.class, s -> {
                            if (!spinnerStarted[0]) {
                                spinnerStarted[0] = true;
                                running.countDown();
                            }
                            if (!stop.get()) {
                                self.self().tell(s);
                            }
                        }).build())));
                spinner.tell("go");
                spinner.tell("go");
                AtomicReference<ActorRef<Integer>> partner = new AtomicReference<>();
                ActorRef<Integer> ping = system.spawn(Props.defaults().withScheduler(scheduler), self ->
                        self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> {
                            if (n == 0) {
                                running.countDown();
                            }
                            if (!stop.get()) {
                                partner.get().tell(n + 1);
                            }
                        }).build())));
                partner.set(system.spawn(Props.defaults().withScheduler(scheduler), self ->
                        self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> {
                            if (!stop.get()) {
                                ping.tell(n + 1);
                            }
                        }).build()))));
                ping.tell(0);
            }
            assertTrue(running.await(60, TimeUnit.SECONDS), p + ": not every busy actor started");
            long left = unhandledByLightActors(system, scheduler, light, each);
            stop.set(true);
            assertEquals(0, left, p + ": actors told from outside starved by busy actors; messages left");
        }
    }

    /**
     * From the calling (non-scheduler) thread: spawns {@code light} actors on {@code scheduler},
     * tells each of them {@code each} messages, and waits (60 s at most) until all are handled.
     *
     * @return how many messages were still unhandled (0: all were)
     */
    private static long unhandledByLightActors(ActorSystem system, Scheduler scheduler, int light, int each)
            throws InterruptedException {
        CountDownLatch done = new CountDownLatch(light * each);
        List<ActorRef<Integer>> actors = new ArrayList<>();
        for (int i = 0; i < light; i++) {
            actors.add(system.spawn(Props.defaults().withScheduler(scheduler), self ->
                    self.loop(() -> self.react(Receive.<Integer>handler().match(Integer.class, n -> done.countDown()).build()))));
        }
        for (int k = 0; k < each; k++) {
            for (ActorRef<Integer> a : actors) {
                a.tell(k);
            }
        }
        done.await(60, TimeUnit.SECONDS);
        return done.getCount();
    }
}
