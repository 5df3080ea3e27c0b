package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.weft.actors.Actor;
import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Behavior;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.SchedulerTuning;
import io.weft.actors.runtime.examples.ManualResource;
import io.weft.actors.runtime.examples.PriorityScheduler;
import io.weft.actors.runtime.examples.ResourceScheduler;
import io.weft.actors.spi.Scheduler;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.params.provider.Arguments;

/**
 * The one test matrix of Weft's contract suites: three axes (scheduler × mailbox kind × mode) and
 * the named slices of their product that the suites draw with
 * {@code @MethodSource("io.weft.actors.runtime.ContractMatrix#slice")}. actors-loom's suites draw
 * from this class too (actors-runtime publishes its test classes as a test-jar) and add the
 * thread-based modes, which need the virtual-thread scheduler.
 *
 * <h2>Axes</h2>
 * <ul>
 *   <li>{@link #schedulers()}: the ForkJoin scheduler with the default, no and all optimizations,
 *       the fair, timer, dedicated-thread and piggyback built-ins, a user-defined single-thread
 *       scheduler, the priority and resource examples, and {@link ContractCheckingScheduler}, which
 *       asserts the runtime's side of the SPI contract (in every cross).
 *       {@link #VIRTUAL_THREAD} is the thread-based actors' scheduler; it exists only with
 *       actors-loom, so only {@link #threadCross()} names it.</li>
 *   <li>{@link #ampleMailboxes()}: unbounded, and bounded with each overflow policy at a capacity
 *       ({@value #AMPLE}) above any contract test's traffic, so the contract (one handler at a
 *       time, FIFO per sender, nothing lost) holds unchanged; {@link #smallMailboxes()}: bounded
 *       at {@value #SMALL} with each policy, where senders outrun the actor and messages are
 *       dropped (DROP_NEW, DROP_OLD), refused (FAIL) or wait (BLOCK). The unbounded kind is the
 *       JVM's unbounded queue: {@code AdaptiveQueue} by default, and JCTools' linked queue in the
 *       surefire execution {@code linked-mailbox} (actors-runtime and actors-loom), which runs the
 *       contract suites again with {@code -Dweft.mailbox=linked}.</li>
 *   <li>{@link Mode}: how the actor waits: {@code loop(react)}, {@code become}, an {@link Actor}
 *       subclass, blocking {@code receive} on its own thread, and an event-based start that
 *       switches to a thread ({@code switchToThread}, actors-loom only).</li>
 * </ul>
 *
 * <h2>Slices, and who draws them</h2>
 * <ul>
 *   <li>{@link #coreCross()}: every scheduler × every mailbox kind (ample), {@code loop(react)}:
 *       the core contract, crossed in full. SerializabilityContractTest and (without the
 *       piggyback scheduler, see {@link #fifoCross()}) SchedulerContractTest's
 *       one-handler-at-a-time/FIFO-across-channels test.</li>
 *   <li>{@link #modeCross()}: every scheduler × the other modes it can run: {@code become} (a
 *       delivery path of its own) with every mailbox kind (ample), the {@code Actor} subclass and
 *       blocking {@code receive} on a dedicated thread with the unbounded one:
 *       SerializabilityContractTest. These two modes share {@code loop(react)}'s delivery path
 *       (the subclass) or are crossed with the mailbox kinds in {@link #threadCross()} (receive),
 *       so they are not crossed again.</li>
 *   <li>{@link #channelFairnessCross()}: the schedulers whose turns are cut by a count × every
 *       mailbox kind (ample): ChannelsTest's flooded-channel test, whose bound is one turn. The fair
 *       scheduler (turns ordered by message age: the flood is older than the light message, so it
 *       rightly goes first) and the dedicated thread (a turn runs until the queues are empty) make
 *       no such promise.</li>
 *   <li>{@link #dropCross()}: every scheduler × every small mailbox kind, {@code loop(react)}:
 *       SerializabilityContractTest's counted-drops test (handled + dropped == sent).</li>
 *   <li>{@link #fairnessSchedulers()}: every scheduler that runs more than one actor at a time
 *       (not piggyback), unbounded mailbox: SchedulerContractTest's starvation tests, which are
 *       about the scheduler only (their self-sends never fill a mailbox).</li>
 *   <li>{@link #threadCross()}: the schedulers that give an actor its own thread × every mailbox
 *       kind (ample), blocking {@code receive}: ThreadActorContractTest (spawned actors) and
 *       actors-loom's ThreadSerializabilityContractTest.</li>
 *   <li>{@link #semanticsModes()}: {@code loop(react)} and blocking {@code receive}:
 *       actors-loom's semantics suites (coordination, failure handling), whose behaviors are
 *       written once for an actor that serves messages in a loop; default scheduler and mailbox,
 *       as they check what happens, not how it is scheduled.</li>
 * </ul>
 * Size: the full product is 11 schedulers × 9 mailbox kinds × 5 modes per test; the slices run
 * 166 cases of the core contract in actors-runtime (55 core, 67 mode, 44 drop; 20 000 messages
 * each, about 20 s, most of it the timer scheduler's 1 ms ticks), 50 + 20 of SchedulerContractTest
 * and 40 of ChannelsTest (a few seconds), and in actors-loom 15 thread-based core cases and
 * 18 places × 6 receive tests (about 2 s).
 * Not crossed: the starvation tests with mailbox kinds (their traffic is self-sends, which a
 * bounded mailbox only refuses once full, and BLOCK refuses to a react sender), the semantics
 * suites with schedulers (they check what happens, not how it is scheduled).
 */
public final class ContractMatrix {

    /** The capacity of the ample bounded mailboxes: more than any contract test sends to one actor. */
    public static final int AMPLE = 1 << 16;
    /** The capacity of the small bounded mailboxes: senders outrun the actor. */
    public static final int SMALL = 64;

    private ContractMatrix() {
    }

    /** Creates the scheduler of one kind in a {@link Fixture}. */
    @FunctionalInterface
    public interface SchedulerFactory {
        /**
         * Creates the scheduler.
         *
         * @param system the fixture's system
         * @param fixture where to register what must be shut down or checked after the test
         * @return the scheduler to spawn on
         */
        Scheduler create(ActorSystem system, Fixture fixture);
    }

    /**
     * One value of the scheduler axis.
     *
     * @param name for the report
     * @param tuning the system's ForkJoin tuning
     * @param factory how to create the scheduler
     * @param spawnsOnCaller whether {@code spawn} runs the actor on the calling thread until it stops
     * @param ownsThread whether the scheduler gives each actor its own thread (thread-based modes)
     * @param eventBased whether event-based actors can run on it
     * @param turnBudget how many messages one turn of an actor handles at most: {@link #SYSTEM_BATCH}
     *     for the system's {@code batchSize}, {@link #NO_BUDGET} for a scheduler whose turns are not
     *     cut by a count (the fair scheduler orders by message age, a dedicated thread runs its actor
     *     until the queues are empty)
     */
    public record SchedulerKind(String name, SchedulerTuning tuning, SchedulerFactory factory, boolean spawnsOnCaller,
            boolean ownsThread, boolean eventBased, int turnBudget) {

        /** {@link #turnBudget()}: the system's {@code batchSize}. */
        public static final int SYSTEM_BATCH = 0;
        /** {@link #turnBudget()}: turns are not cut by a count. */
        public static final int NO_BUDGET = -1;

        /**
         * The most messages one turn handles in a system with {@code batchSize}.
         *
         * @param batchSize the system's batch size
         * @return the bound
         * @throws IllegalStateException for {@link #NO_BUDGET}
         */
        public int turnBound(int batchSize) {
            if (turnBudget == NO_BUDGET) {
                throw new IllegalStateException(name + ": turns are not cut by a count");
            }
            return turnBudget == SYSTEM_BATCH ? batchSize : turnBudget;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /**
     * One value of the mailbox axis.
     *
     * @param name for the report
     * @param mailbox the kind
     */
    public record MailboxKind(String name, Mailbox mailbox) {
        @Override
        public String toString() {
            return name;
        }

        /**
         * Whether this kind can refuse or drop a message of a contract test.
         *
         * @return true for the small bounded kinds
         */
        public boolean small() {
            return mailbox.isBounded() && mailbox.capacity() < AMPLE;
        }
    }

    /** How the actor waits for its messages: one value of the mode axis. */
    public enum Mode {
        /** {@code loop(() -> react(handler))}. */
        REACT_LOOP,
        /** {@code become(handler)}: the persistent continuation, delivered on a path of its own. */
        BECOME,
        /** An {@link Actor} subclass whose {@code act()} loops {@code react(handler)}. */
        ACTOR_SUBCLASS,
        /** A thread-based actor ({@code spawnThread}) calling {@code receive(handler)} in a loop. */
        THREAD_RECEIVE,
        /** An event-based start that calls {@code switchToThread} and then receives in a loop (actors-loom). */
        SWITCH_TO_THREAD;

        /**
         * Whether the actor blocks on its own thread (spawned with {@code spawnThread}).
         *
         * @return true for {@link #THREAD_RECEIVE}
         */
        public boolean spawnedAsThread() {
            return this == THREAD_RECEIVE;
        }

        /**
         * Whether the actor ends up blocking in {@code receive} (its handler may not call {@code stop}
         * to end a loop; the system's close ends it).
         *
         * @return true for the thread-based modes
         */
        public boolean threadBased() {
            return this == THREAD_RECEIVE || this == SWITCH_TO_THREAD;
        }

        /**
         * A behavior that runs {@code setup} once and then handles every message with the handler it
         * returns, waiting in this mode.
         *
         * @param setup given the actor's context (to open channels, record the ref), returns the handler
         * @param <M> the message type
         * @return the behavior
         */
        public <M> Behavior<M> behavior(Function<ActorContext<M>, Receive<? super M, ?>> setup) {
            return switch (this) {
                case REACT_LOOP -> ctx -> {
                    Receive<? super M, ?> h = setup.apply(ctx);
                    ctx.loop(() -> ctx.react(h));
                };
                case BECOME -> ctx -> ctx.become(setup.apply(ctx));
                case ACTOR_SUBCLASS -> new Actor<M>() {
                    @Override
                    protected void act() {
                        Receive<? super M, ?> h = setup.apply(context());
                        loop(() -> react(h));
                    }
                };
                case THREAD_RECEIVE -> ctx -> {
                    Receive<? super M, ?> h = setup.apply(ctx);
                    receiveForever(ctx, h);
                };
                case SWITCH_TO_THREAD -> ctx -> {
                    Receive<? super M, ?> h = setup.apply(ctx);
                    ctx.switchToThread(() -> receiveForever(ctx, h));
                };
            };
        }

        private static <M> void receiveForever(ActorContext<M> ctx, Receive<? super M, ?> h) {
            for (;;) {
                ctx.receive(h);
            }
        }

        /**
         * Spawns {@code behavior} in this mode ({@code spawn} or {@code spawnThread}).
         *
         * @param system the system
         * @param props the props
         * @param behavior the behavior
         * @param <M> the message type
         * @return the actor
         */
        public <M> ActorRef<M> spawn(ActorSystem system, Props props, Behavior<M> behavior) {
            return spawnedAsThread() ? system.spawnThread(props, behavior) : system.spawn(props, behavior);
        }

        /**
         * Spawns {@code behavior} in this mode with default props.
         *
         * @param system the system
         * @param behavior the behavior
         * @param <M> the message type
         * @return the actor
         */
        public <M> ActorRef<M> spawn(ActorSystem system, Behavior<M> behavior) {
            return spawn(system, Props.defaults(), behavior);
        }

        /**
         * Spawns a supervised actor from a behavior factory in this mode.
         *
         * @param system the system
         * @param props the props
         * @param factory makes the behavior (again on a restart)
         * @param <M> the message type
         * @return the actor
         */
        public <M> ActorRef<M> spawn(ActorSystem system, Props props, Supplier<? extends Behavior<M>> factory) {
            return spawnedAsThread() ? system.spawnThread(props, factory) : system.spawn(props, factory);
        }

        /**
         * Spawns a child from a behavior factory in this mode.
         *
         * @param parent the parent's context
         * @param props the props
         * @param factory makes the behavior
         * @param <C> the child's message type
         * @return the child
         */
        public <C> ActorRef<C> spawnChild(ActorContext<?> parent, Props props, Supplier<? extends Behavior<C>> factory) {
            return spawnedAsThread() ? parent.spawnChildThread(props, factory) : parent.spawnChild(props, factory);
        }

        /**
         * Handles messages with {@code handler} for ever, from inside a behavior spawned with
         * {@link #spawn}: a react loop, a persistent continuation, or a receive loop.
         *
         * @param self the actor's context
         * @param handler the handler
         * @throws UnsupportedOperationException for the modes that shape the behavior itself
         *     ({@link #ACTOR_SUBCLASS}, {@link #SWITCH_TO_THREAD}): use {@link #behavior}
         */
        public void serve(ActorContext<?> self, Receive<Object, ?> handler) {
            switch (this) {
                case REACT_LOOP -> self.loop(() -> self.react(handler));
                case BECOME -> self.become(handler);
                case THREAD_RECEIVE -> {
                    for (;;) {
                        self.receive(handler);
                    }
                }
                default -> throw new UnsupportedOperationException(this + " shapes the behavior itself: use behavior(setup)");
            }
        }
    }

    // ------------------------------------------------------------------ the scheduler axis

    /** The virtual-thread scheduler of thread-based actors (needs actors-loom). */
    public static final SchedulerKind VIRTUAL_THREAD = new SchedulerKind("virtualThread", SchedulerTuning.defaults(),
            (s, f) -> s.schedulers().virtualThread(), false, true, false, SchedulerKind.NO_BUDGET);

    /**
     * Every scheduler event-based actors run on, the contract checker included.
     *
     * @return the scheduler axis
     */
    public static Stream<SchedulerKind> schedulers() {
        SchedulerTuning all = SchedulerTuning.defaults().withLazyActivations(true).withLocalSteal(true)
                .withLazyScheduling(true).withSpeculation(true);
        return Stream.of(
                event("forkJoin(defaults)", SchedulerTuning.defaults(), (s, f) -> s.schedulers().forkJoin()),
                event("forkJoin(none)", SchedulerTuning.none(), (s, f) -> s.schedulers().forkJoin()),
                event("forkJoin(all)", all, (s, f) -> s.schedulers().forkJoin()),
                new SchedulerKind("fair", SchedulerTuning.defaults(), (s, f) -> s.schedulers().fair(), false, false, true,
                        SchedulerKind.NO_BUDGET),
                event("timer", SchedulerTuning.defaults(), (s, f) -> s.schedulers().timer(Duration.ofMillis(1))),
                new SchedulerKind("dedicatedThread", SchedulerTuning.defaults(), (s, f) -> s.schedulers().dedicatedThread(),
                        false, true, true, SchedulerKind.NO_BUDGET),
                new SchedulerKind("piggyback", SchedulerTuning.defaults(), (s, f) -> s.schedulers().piggyback(),
                        true, false, true, SchedulerKind.NO_BUDGET),
                event("userDefined", SchedulerTuning.defaults(), 7, (s, f) -> {
                    SingleThreadScheduler user = new SingleThreadScheduler("contract-user", 7);
                    f.singleThreads.add(user);
                    return user;
                }),
                event("priority(example)", SchedulerTuning.defaults(), 20, (s, f) -> {
                    PriorityScheduler priority = new PriorityScheduler(2, 20);
                    f.cleanup.add(priority);
                    return priority.at(1);
                }),
                event("contract-checker", SchedulerTuning.defaults(), 20, (s, f) -> {
                    ContractCheckingScheduler checker = new ContractCheckingScheduler(2, 20);
                    f.checkers.add(checker);
                    return checker;
                }),
                event("resource(example)", SchedulerTuning.defaults(), 20, (s, f) -> {
                    ExecutorService slots = Executors.newFixedThreadPool(2, r -> {
                        Thread t = new Thread(r, "resource-slot");
                        t.setDaemon(true);
                        return t;
                    });
                    f.cleanup.add(slots::shutdownNow);
                    return new ResourceScheduler(ManualResource.slots(1, slots), 20);
                }));
    }

    private static SchedulerKind event(String name, SchedulerTuning tuning, SchedulerFactory factory) {
        return event(name, tuning, SchedulerKind.SYSTEM_BATCH, factory);
    }

    private static SchedulerKind event(String name, SchedulerTuning tuning, int turnBudget, SchedulerFactory factory) {
        return new SchedulerKind(name, tuning, factory, false, false, true, turnBudget);
    }

    // ------------------------------------------------------------------ the mailbox axis

    /**
     * Unbounded, and bounded at {@link #AMPLE} with each overflow policy.
     *
     * @return the mailbox kinds under which a contract test's traffic always fits
     */
    public static Stream<MailboxKind> ampleMailboxes() {
        return Stream.concat(Stream.of(new MailboxKind("unbounded", Mailbox.unbounded())), bounded(AMPLE));
    }

    /**
     * Bounded at {@link #SMALL} with each overflow policy.
     *
     * @return the mailbox kinds that senders overflow
     */
    public static Stream<MailboxKind> smallMailboxes() {
        return bounded(SMALL);
    }

    private static Stream<MailboxKind> bounded(int capacity) {
        return Stream.of(Mailbox.Overflow.values())
                .map(o -> new MailboxKind("bounded(" + capacity + ", " + o + ")", Mailbox.bounded(capacity, o)));
    }

    // ------------------------------------------------------------------ the slices

    /**
     * Every scheduler × every ample mailbox kind, {@link Mode#REACT_LOOP}.
     *
     * @return (SchedulerKind, MailboxKind, Mode)
     */
    public static Stream<Arguments> coreCross() {
        return schedulers().flatMap(s -> ampleMailboxes().map(m -> Arguments.of(s, m, Mode.REACT_LOOP)));
    }

    /**
     * {@link #coreCross()} without the schedulers that run the actor on the spawning thread (for tests
     * that spawn from the test thread and never stop the actor).
     *
     * @return (SchedulerKind, MailboxKind, Mode)
     */
    public static Stream<Arguments> fifoCross() {
        return coreCross().filter(a -> !((SchedulerKind) a.get()[0]).spawnsOnCaller());
    }

    /**
     * Every scheduler × the other modes it runs: {@link Mode#BECOME} with every ample mailbox kind
     * (the persistent continuation takes messages off the queue on a path of its own), and
     * {@link Mode#ACTOR_SUBCLASS} and (on the schedulers that give an actor its own thread)
     * {@link Mode#THREAD_RECEIVE} with the unbounded mailbox.
     *
     * @return (SchedulerKind, MailboxKind, Mode)
     */
    public static Stream<Arguments> modeCross() {
        MailboxKind unbounded = ampleMailboxes().findFirst().orElseThrow();
        return schedulers().flatMap(s -> Stream.concat(
                ampleMailboxes().map(m -> Arguments.of(s, m, Mode.BECOME)),
                Stream.of(Mode.ACTOR_SUBCLASS, Mode.THREAD_RECEIVE)
                        .filter(m -> !m.spawnedAsThread() || s.ownsThread())
                        .map(m -> Arguments.of(s, unbounded, m))));
    }

    /**
     * The schedulers whose turns are cut by a count ({@link SchedulerKind#turnBudget()}) × every ample
     * mailbox kind, {@link Mode#REACT_LOOP}.
     *
     * @return (SchedulerKind, MailboxKind, Mode)
     */
    public static Stream<Arguments> channelFairnessCross() {
        return fifoCross().filter(a -> ((SchedulerKind) a.get()[0]).turnBudget() != SchedulerKind.NO_BUDGET);
    }

    /**
     * Every scheduler × every small mailbox kind, {@link Mode#REACT_LOOP}.
     *
     * @return (SchedulerKind, MailboxKind, Mode)
     */
    public static Stream<Arguments> dropCross() {
        return schedulers().flatMap(s -> smallMailboxes().map(m -> Arguments.of(s, m, Mode.REACT_LOOP)));
    }

    /**
     * Every scheduler that runs more than one actor at a time.
     *
     * @return the schedulers of the starvation tests
     */
    public static Stream<SchedulerKind> fairnessSchedulers() {
        return schedulers().filter(s -> !s.spawnsOnCaller());
    }

    /**
     * The schedulers that give an actor its own thread (dedicated platform thread; virtual thread
     * where actors-loom is present) × every ample mailbox kind, {@link Mode#THREAD_RECEIVE}; with
     * actors-loom also {@link Mode#SWITCH_TO_THREAD} from the ForkJoin scheduler.
     *
     * @return (SchedulerKind, MailboxKind, Mode)
     */
    public static Stream<Arguments> threadCross() {
        List<Arguments> out = new ArrayList<>();
        List<SchedulerKind> owning = new ArrayList<>(schedulers().filter(SchedulerKind::ownsThread).toList());
        boolean loom = virtualThreadsAvailable();
        if (loom) {
            owning.add(VIRTUAL_THREAD);
        }
        for (SchedulerKind s : owning) {
            ampleMailboxes().forEach(m -> out.add(Arguments.of(s, m, Mode.THREAD_RECEIVE)));
        }
        if (loom) {
            SchedulerKind forkJoin = schedulers().findFirst().orElseThrow();
            ampleMailboxes().forEach(m -> out.add(Arguments.of(forkJoin, m, Mode.SWITCH_TO_THREAD)));
        }
        return out.stream();
    }

    /**
     * {@link Mode#REACT_LOOP} and {@link Mode#THREAD_RECEIVE}.
     *
     * @return the modes of the semantics suites
     */
    public static Stream<Mode> semanticsModes() {
        return Stream.of(Mode.REACT_LOOP, Mode.THREAD_RECEIVE);
    }

    /**
     * Whether thread-based actors can get a virtual thread here (actors-loom is present).
     *
     * @return true with actors-loom
     */
    public static boolean virtualThreadsAvailable() {
        try (ActorSystem probe = ActorSystem.builder().name("matrix-probe").parallelism(1).build()) {
            probe.schedulers().virtualThread();
            return true;
        } catch (UnsupportedOperationException e) {
            return false;
        }
    }

    // ------------------------------------------------------------------ the fixture

    /**
     * One test's system and scheduler of one {@link SchedulerKind}; closing it closes the system,
     * shuts down what the scheduler needs shut down, and asserts that no user-level scheduler saw
     * the runtime break the SPI contract.
     */
    public static final class Fixture implements AutoCloseable {
        private final List<AutoCloseable> cleanup = new CopyOnWriteArrayList<>();
        private final List<ContractCheckingScheduler> checkers = new CopyOnWriteArrayList<>();
        private final List<SingleThreadScheduler> singleThreads = new CopyOnWriteArrayList<>();
        private final List<Thread> spawners = new CopyOnWriteArrayList<>();
        private final SchedulerKind kind;
        private final ActorSystem system;
        private final Scheduler scheduler;

        private Fixture(SchedulerKind kind, ActorSystem.Builder builder) {
            this.kind = kind;
            this.system = builder.schedulerTuning(kind.tuning()).build();
            this.scheduler = kind.factory().create(system, this);
        }

        /**
         * Opens a fixture: a system with parallelism 2 and the kind's tuning, and the kind's scheduler.
         *
         * @param kind the scheduler kind
         * @param name the system's name
         * @return the fixture
         */
        public static Fixture open(SchedulerKind kind, String name) {
            return new Fixture(kind, ActorSystem.builder().name(name).parallelism(2));
        }

        /**
         * Opens a fixture with a batch size of its own.
         *
         * @param kind the scheduler kind
         * @param name the system's name
         * @param batchSize the system's batch size
         * @return the fixture
         */
        public static Fixture open(SchedulerKind kind, String name, int batchSize) {
            return new Fixture(kind, ActorSystem.builder().name(name).parallelism(2).batchSize(batchSize));
        }

        /**
         * The system.
         *
         * @return the system
         */
        public ActorSystem system() {
            return system;
        }

        /**
         * The scheduler of the kind.
         *
         * @return the scheduler
         */
        public Scheduler scheduler() {
            return scheduler;
        }

        /**
         * Props on the kind's scheduler with {@code mailbox}.
         *
         * @param name the actor's name
         * @param mailbox the mailbox kind
         * @return the props
         */
        public Props props(String name, MailboxKind mailbox) {
            return Props.named(name).withScheduler(scheduler).withMailbox(mailbox.mailbox());
        }

        /**
         * Spawns {@code behavior} in {@code mode}; for a scheduler that runs the actor on the spawning
         * thread, spawns from a platform thread of its own (the behavior must stop the actor; close
         * joins that thread). The test gets the ref from inside the behavior.
         *
         * @param mode the mode
         * @param props the props
         * @param behavior the behavior
         * @param <M> the message type
         */
        public <M> void start(Mode mode, Props props, Behavior<M> behavior) {
            if (kind.spawnsOnCaller()) {
                spawners.add(Thread.ofPlatform().name("spawner-" + kind.name())
                        .start(() -> mode.spawn(system, props, behavior)));
            } else {
                mode.spawn(system, props, behavior);
            }
        }

        @Override
        public void close() {
            try {
                for (Thread spawner : spawners) {
                    Probes.join(spawner);
                }
            } finally {
                system.close();
                for (AutoCloseable c : cleanup) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        throw new IllegalStateException(kind + ": could not shut down " + c, e);
                    }
                }
                for (ContractCheckingScheduler checker : checkers) {
                    checker.shutdown();
                }
                for (SingleThreadScheduler user : singleThreads) {
                    user.shutdown(); // a system shuts down only the schedulers it created
                }
            }
            for (ContractCheckingScheduler checker : checkers) {
                assertEquals(0, checker.violations.get(), () -> kind + ": the runtime broke the scheduler contract: "
                        + checker.reports);
            }
            for (SingleThreadScheduler user : singleThreads) {
                assertEquals(0, user.protocolErrors.get(), kind + ": frames run off the scheduler's thread or with a foreign state");
            }
            assertFalse(spawners.stream().anyMatch(Thread::isAlive), kind + ": the spawning thread did not return");
        }
    }
}
