package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Channel;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import io.weft.actors.Routers;
import io.weft.actors.SupervisorStrategy;
import io.weft.actors.Terminated;
import io.weft.actors.Topic;
import io.weft.actors.spi.EventQueue;
import io.weft.actors.stream.Pipeline;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.Stage;
import io.weft.actors.spi.Frame;
import io.weft.actors.spi.Scheduler;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * The code of docs/guide.md. Each {@code tag::name[]} region is a code block of the guide;
 * {@link GuideMatchesSnippetsTest} checks that the guide shows exactly this code.
 */
@ExtendWith(WeftExtension.class)
class GuideSnippetsTest {

    @Test
    void firstActor() {
        // tag::first-actor[]
        try (ActorSystem system = ActorSystem.create("hello")) {
            ActorRef<String> greeter = system.spawn("greeter", self ->
                    self.loop(() -> self.react(Receive.<String>handler()
                            .match(String.class, name -> self.reply("hello, " + name))
                            .build())));
            String answer = system.<String, String>ask(greeter, "world", Duration.ofSeconds(5)).join();
            System.out.println(answer); // hello, world
            // end::first-actor[]
            assertEquals("hello, world", answer);
            // tag::first-actor[]
        }
        // end::first-actor[]
    }

    @Test
    void become(ActorSystem system) throws Exception {
        // tag::become[]
        ActorRef<Integer> counter = system.spawn("counter", self -> {
            long[] count = {0};
            self.become(Receive.<Integer>handler() // the handler of every message from now on
                    .match(Integer.class, n -> n >= 0, n -> count[0] += n)
                    .match(Integer.class, n -> self.reply(count[0])) // a negative number asks for the count
                    .build());
        });
        counter.tell(40);
        counter.tell(2);
        long count = system.<Integer, Long>ask(counter, -1, Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS);
        // end::become[]
        assertEquals(42L, count);
    }

    @Test
    void threadBased(ActorSystem system) throws Exception {
        // tag::thread-based[]
        ActorRef<Object> accumulator = system.spawnThread("accumulator", self -> {
            long[] sum = {0};
            while (true) {
                // blocks this actor's virtual thread, not a pool worker
                self.receive(Receive.<Object>handler()
                        .match(Integer.class, n -> sum[0] += n)
                        .match(String.class, s -> self.reply(sum[0])) // sender() is this message's sender
                        .build());
            }
        });
        accumulator.tell(40);
        accumulator.tell(2);
        long total = system.<Object, Long>ask(accumulator, "total?", Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS);
        // end::thread-based[]
        assertEquals(42L, total);
    }

    @Test
    void switchToThread(ActorSystem system) throws Exception {
        // tag::switch-to-thread[]
        ActorRef<String> importer = system.spawn("importer", self ->
                self.react(Receive.<String>handler()
                        .match(String.class, path -> self.switchToThread(() -> {
                            // now on a virtual thread of its own: blocking I/O is fine here
                            self.receive(Receive.<String>handler()
                                    .match(String.class, s -> self.reply("imported " + path + " after " + s))
                                    .build());
                        }))
                        .build()));
        importer.tell("/data/orders.csv");
        CompletableFuture<String> done = system.ask(importer, "go", Duration.ofSeconds(5));
        // end::switch-to-thread[]
        assertEquals("imported /data/orders.csv after go", done.get(5, TimeUnit.SECONDS));
    }

    /** A request that carries the channel to answer on. */
    record Quote(String item, Channel<Long> replyTo) {
    }

    @Test
    void channels(ActorSystem system, TestProbe<String> out) {
        ActorRef<Quote> pricing = system.spawn("pricing", self -> self.loop(() -> self.react(Receive.<Quote>handler()
                .match(Quote.class, q -> q.replyTo().tell((long) q.item().length() * 100))
                .build())));
        // tag::channels[]
        ActorRef<String> shop = system.spawn("shop", self -> {
            Channel<Long> prices = self.open(Long.class); // a second, typed mailbox of this actor
            self.loop(() -> self.react(Receive.<String>handler()
                    .match(String.class, item -> pricing.tell(new Quote(item, prices)))
                    .on(prices, Long.class, cents -> out.ref().tell("price: " + cents))
                    .build()));
        });
        shop.tell("apple");
        // end::channels[]
        out.expectMessage("price: 500");
    }

    /** A request that names its reply destination. */
    record GetBalance(String account, ActorRef<Long> replyTo) {
    }

    @Test
    void askWith(ActorSystem system) throws Exception {
        ActorRef<GetBalance> bank = system.spawn("bank", self -> self.loop(() -> self.react(Receive.<GetBalance>handler()
                .match(GetBalance.class, g -> g.replyTo().tell(g.account().equals("alice") ? 100L : 0L))
                .build())));
        // tag::ask[]
        // the reply destination travels inside the message
        CompletableFuture<Long> balance = system.askWith(bank,
                replyTo -> new GetBalance("alice", replyTo), Duration.ofSeconds(5));
        // end::ask[]
        assertEquals(100L, balance.get(5, TimeUnit.SECONDS));
    }

    @Test
    void typedAsk(ActorSystem system) throws Exception {
        // tag::typed-ask[]
        interface KvCmd { }
        record Put(String key, String value) implements KvCmd { }
        // the request carries its typed reply destination
        record Get(String key, ActorRef<Optional<String>> replyTo) implements KvCmd { }

        ActorRef<KvCmd> kv = system.spawn("kv", (ActorContext<KvCmd> self) -> {
            Map<String, String> store = new HashMap<>();
            self.become(Receive.<KvCmd>handler()
                    .match(Put.class, p -> store.put(p.key(), p.value()))
                    .match(Get.class, g -> g.replyTo().tell(Optional.ofNullable(store.get(g.key()))))
                    .build());
        });
        kv.tell(new Put("a", "1"));
        // R = Optional<String>, from Get's reply ref; CompletableFuture<Integer> here would not compile
        CompletableFuture<Optional<String>> value = system.askWith(kv, replyTo -> new Get("a", replyTo), Duration.ofSeconds(5));
        // end::typed-ask[]
        assertEquals(Optional.of("1"), value.get(5, TimeUnit.SECONDS));
    }

    /** A typed actor's protocol. */
    sealed interface Supervise permits WatchIt {
    }

    record WatchIt(ActorRef<?> target) implements Supervise {
    }

    @Test
    void signals(ActorSystem system) throws Exception {
        CompletableFuture<ActorRef<?>> stopped = new CompletableFuture<>();
        ActorRef<String> worker = system.spawn(self -> self.react(Receive.<String>handler().matchAny(m -> self.stop()).build()));
        // tag::signals[]
        ActorRef<Supervise> monitor = system.spawn("monitor", (ActorContext<Supervise> self) -> self.become(Receive.<Supervise>handler()
                .match(WatchIt.class, w -> self.watch(w.target()))
                .onSignal(Terminated.class, t -> stopped.complete(t.actor())) // arrives whatever the message type
                .build()));
        monitor.tell(new WatchIt(worker));
        // end::signals[]
        worker.tell("stop");
        assertEquals(worker, stopped.get(5, TimeUnit.SECONDS));
    }

    record Loaded(String row) {
    }

    record LoadFailed(Throwable cause) {
    }

    @Test
    void pipeTo(ActorSystem system) throws Exception {
        CompletableFuture<Object> got = new CompletableFuture<>();
        // tag::pipe-to[]
        ActorRef<Object> loader = system.spawn("loader", (ActorContext<Object> self) -> {
            CompletableFuture<String> row = CompletableFuture.supplyAsync(() -> "row 7"); // any asynchronous call
            // the result comes back as a message, handled on the actor's turn like any other
            self.pipeTo(row, self.self(), (r, failure) -> failure == null ? new Loaded(r) : new LoadFailed(failure));
            self.become(Receive.handler()
                    .match(Loaded.class, l -> got.complete(l.row()))
                    .match(LoadFailed.class, f -> got.completeExceptionally(f.cause()))
                    .build());
        });
        // end::pipe-to[]
        assertEquals("row 7", got.get(5, TimeUnit.SECONDS));
        assertTrue(loader != null);
    }

    @Test
    void unhandled(ActorSystem system) throws Exception {
        // tag::unhandled[]
        // keeps at most 1,000 messages its handler does not match; beyond that the oldest is a dead letter
        ActorRef<Object> orders = system.spawn(Props.named("orders").withMaxKept(1_000), (ActorContext<Object> self) ->
                self.become(Receive.handler()
                        .match(Integer.class, id -> self.reply("order " + id))
                        .build()));
        orders.tell("not an order"); // kept, counted in mailboxDepth and keptMessages
        String answer = system.<Object, String>ask(orders, 7, Duration.ofSeconds(5)).get(5, TimeUnit.SECONDS);
        long kept = system.metrics().keptMessages();      // 1
        int depth = system.metrics().mailboxDepth(orders); // 1: queued plus kept

        // Pekko's behaviour: an unmatched message is a dead letter (UNHANDLED) at once
        ActorRef<Object> strict = system.spawn(Props.named("strict").withUnhandledToDeadLetters(), (ActorContext<Object> self) ->
                self.become(Receive.handler().match(Integer.class, id -> { }).build()));
        // end::unhandled[]
        strict.tell("dropped");
        assertEquals("order 7", answer);
        assertEquals(1, kept);
        assertEquals(1, depth);
    }

    @Test
    void deadLetters() {
        // tag::dead-letters[]
        // dead letters are logged at INFO: the first at once, then one line a second with a count
        // ("12 dead letters in the last second, first: ..."); switch it off if you watch them yourself
        try (ActorSystem quiet = ActorSystem.builder().name("quiet").logDeadLetters(false).build()) {
            quiet.deadLetters().subscribe(letter -> System.out.println(letter.reason() + ": " + letter.message()));
            // end::dead-letters[]
            assertTrue(!quiet.settings().logDeadLetters());
            // tag::dead-letters[]
        }
        // end::dead-letters[]
    }

    @Test
    void failures(ActorSystem system) throws Exception {
        // tag::failures[]
        CountDownLatch failed = new CountDownLatch(1);
        system.lifecycle().subscribe(event -> {
            if (event.kind() == LifecycleEvent.Kind.FAILED) {
                System.out.println(event.actor() + " failed: " + event.cause());
                failed.countDown(); // restart it, alert, ...
            }
        });
        ActorRef<String> parser = system.spawn("parser", self -> self.loop(() -> self.react(Receive.<String>handler()
                .match(String.class, s -> System.out.println(Integer.parseInt(s)))
                .build())));
        parser.tell("not a number"); // the handler throws: the actor stops, FAILED is published
        // end::failures[]
        assertTrue(failed.await(30, TimeUnit.SECONDS));
    }

    @Test
    void supervision(ActorSystem system) throws Exception {
        // tag::supervision[]
        ActorRef<String> supervisor = system.spawn("supervisor", self -> {
            ActorRef<String> worker = self.spawnChild(
                    Props.named("worker").withSupervisor(SupervisorStrategy.restarting()),
                    () -> child -> child.become(Receive.<String>handler()
                            .match(String.class, "boom"::equals, s -> {
                                throw new IllegalStateException("planted failure");
                            })
                            .match(String.class, s -> child.reply("done: " + s))
                            .build()));
            self.become(Receive.<String>handler()
                    .match(String.class, s -> self.forward(worker, s))
                    .build());
        });
        supervisor.tell("boom"); // the worker fails; its supervisor strategy restarts it
        String answer = system.<String, String>ask(supervisor, "job", Duration.ofSeconds(30)).get(30, TimeUnit.SECONDS);
        // end::supervision[]
        assertEquals("done: job", answer);
    }

    // tag::streaming-stages[]
    /** Upper-cases each line. */
    static final class Upper extends Stage<String, String> {
        @Override
        protected void consume(String line) {
            emit(line.toUpperCase());
        }
    }

    /** Counts the lines and emits the count at the end of the stream. */
    static final class Count extends Stage<String, Integer> {
        private int lines;

        @Override
        protected void consume(String line) {
            lines++;
        }

        @Override
        protected void onStop() {
            emit(lines);
        }
    }
    // end::streaming-stages[]

    @Test
    void streaming(ActorSystem system, TestProbe<Integer> results) throws Exception {
        // tag::streaming[]
        RunningPipeline<String> lines = Pipeline.of(new Upper(), new Count()).start(system, results.ref());
        for (String line : new String[] {"a", "b", "c"}) {
            lines.put(line); // blocks while the first stage's bounded queue is full
        }
        lines.complete();
        lines.completion().get(30, TimeUnit.SECONDS);
        // end::streaming[]
        results.expectMessage(3);
    }

    // tag::scheduler-spi[]
    /** A scheduler that counts activations and hands the work to another scheduler. */
    static final class CountingScheduler implements Scheduler {
        private final Scheduler delegate;
        final AtomicLong activations = new AtomicLong();

        CountingScheduler(Scheduler delegate) {
            this.delegate = delegate;
        }

        @Override
        public void initSchedule(Frame frame) {
            delegate.initSchedule(frame); // sets the frame's SchedulerState (its turn length)
        }

        @Override
        public void schedule(Frame frame) {
            activations.incrementAndGet();
            delegate.schedule(frame); // must lead to exactly one frame.execute()
        }

        @Override
        public Queue<EventQueue> newPendingQueue() {
            return delegate.newPendingQueue();
        }
    }
    // end::scheduler-spi[]

    @Test
    void schedulers(ActorSystem system, TestProbe<Integer> out) {
        // tag::schedulers[]
        CountingScheduler counting = new CountingScheduler(system.schedulers().forkJoin());
        ActorRef<Integer> worker = system.spawn(Props.named("counted").withScheduler(counting),
                self -> self.loop(() -> self.react(Receive.<Integer>handler()
                        .match(Integer.class, n -> out.ref().tell(n))
                        .build())));
        worker.tell(1);
        // end::schedulers[]
        out.expectMessage(1);
        assertTrue(counting.activations.get() >= 1);
    }

    @Test
    void testProbe(ActorSystem system, TestProbe<String> probe) {
        // tag::test-probe[]
        ActorRef<String> greeter = system.spawn(self -> self.loop(() -> self.react(Receive.<String>handler()
                .match(String.class, name -> self.reply("hello, " + name))
                .build())));
        greeter.tell("ada", probe.ref()); // the probe is the reply destination
        probe.expectMessage("hello, ada");
        probe.expectNoMessage(Duration.ofMillis(100));
        // end::test-probe[]
    }

    // tag::deterministic[]
    @Test
    void incrementsAreNeverLost() {
        DeterministicScheduler.exploreInterleavings(LongStream.range(0, 100), (scheduler, system) -> {
            int[] counter = {0};
            ActorRef<String> store = system.spawn(scheduler.props("store"), self ->
                    self.loop(() -> self.react(Receive.<String>handler()
                            .match(String.class, s -> counter[0]++)
                            .build())));
            for (int i = 0; i < 3; i++) {
                system.<String>spawn(scheduler.props("client-" + i), self -> store.tell("increment"));
            }
            scheduler.runUntilIdle(); // every actor runs on this thread, in the seed's order
            assertEquals(3, counter[0]);
        });
        // a failure reads: "failed under seed 17 (run 18); replay it with
        // DeterministicScheduler.replay(17L, test)"
    }
    // end::deterministic[]

    @Test
    void manualTime() throws Exception {
        // tag::manual-time[]
        DeterministicScheduler.replay(42, (scheduler, system) -> {
            ActorRef<String> silent = system.spawn(scheduler.props("silent"), self ->
                    self.loop(() -> self.react(Receive.<String>handler().match(String.class, s -> { }).build())));
            CompletableFuture<String> reply = scheduler.ask(silent, "anyone?", Duration.ofSeconds(10));
            scheduler.advance(Duration.ofSeconds(9));
            assertTrue(!reply.isDone());
            scheduler.advance(Duration.ofSeconds(1)); // no real waiting: the clock is manual
            assertTrue(reply.isCompletedExceptionally()); // AskTimeoutException
        });
        // end::manual-time[]
    }

    @Test
    void observability(ActorSystem system, TestProbe<Integer> out) throws Exception {
        ActorRef<Integer> worker = system.spawn("worker", self -> self.loop(() -> self.react(Receive.<Integer>handler()
                .match(Integer.class, n -> out.ref().tell(n))
                .build())));
        worker.tell(1);
        out.expectMessage(1);
        // tag::metrics[]
        var metrics = system.metrics();
        System.out.printf("actors=%d sent=%d handled=%d deadLetters=%d queued(worker)=%d%n",
                metrics.liveActors(), metrics.messagesSent(), metrics.messagesHandled(),
                metrics.deadLetters(), metrics.mailboxDepth(worker));
        // end::metrics[]
        assertEquals(2, metrics.liveActors());
        // tag::jfr[]
        try (Recording recording = new Recording()) {
            recording.enable("io.weft.MessageHandled"); // off by default: one event per message
            recording.enable("io.weft.ActorFailed");
            recording.start();
            worker.tell(2);
            // ... run the workload, then recording.dump(Path.of("weft.jfr")) and open it in JMC
            // end::jfr[]
            out.expectMessage(2);
            // tag::jfr[]
        }
        // end::jfr[]
    }

    @Test
    void tuning() {
        // tag::tuning[]
        try (ActorSystem system = ActorSystem.builder()
                .name("tuned")
                .parallelism(4)  // ForkJoinPool workers for react actors; default: CPU count
                .batchSize(100)  // messages per actor turn before the worker moves on; default 50
                .build()) {
            ActorRef<byte[]> ingest = system.spawn(Props.named("ingest")
                            .withMailbox(Mailbox.bounded(10_000, Mailbox.Overflow.DROP_NEW)),
                    self -> self.loop(() -> self.react(Receive.<byte[]>handler()
                            .match(byte[].class, chunk -> { /* ... */ })
                            .build())));
            ingest.tell(new byte[16]);
        }
        // end::tuning[]
    }

    /** A job for the router snippets. */
    record Resize(String image) {
    }

    /** A deposit, routed by its account. */
    record Deposit(String account, long amount) {
    }

    @Test
    void routers(ActorSystem system, TestProbe<String> out) throws Exception {
        // tag::router-pool[]
        ActorRef<Resize> resizers = system.spawn("resizers",
                Routers.<Resize>pool(4, () -> self -> self.become(Receive.<Resize>handler()
                                .match(Resize.class, r -> self.reply("resized " + r.image()))
                                .build()))
                        .withSmallestMailbox()); // or withRoundRobin(), withRandom(), withBroadcast(), withBalancing()
        String done = system.<Resize, String>ask(resizers, new Resize("cat.png"), Duration.ofSeconds(5))
                .get(5, TimeUnit.SECONDS); // a routee's reply goes to the original sender
        // end::router-pool[]
        assertEquals("resized cat.png", done);
        ActorRef<String> audit = out.ref();
        // tag::router-hashing[]
        ActorRef<Deposit> accounts = system.spawn("accounts",
                Routers.<Deposit>pool(8, () -> self -> {
                    java.util.Map<String, Long> balances = new java.util.HashMap<>(); // this routee's accounts only
                    self.become(Receive.<Deposit>handler()
                            .match(Deposit.class, d -> audit.tell(d.account() + "=" + balances.merge(d.account(), d.amount(), Long::sum)))
                            .build());
                }).withConsistentHashing(Deposit::account)); // one account, one routee: no shared state
        accounts.tell(new Deposit("alice", 10));
        accounts.tell(new Deposit("alice", 5));
        // end::router-hashing[]
        out.expectMessage("alice=10");
        out.expectMessage("alice=15");
    }

    /** An event of the pub-sub snippet. */
    record OrderPlaced(long id) {
    }

    @Test
    void pubSub(ActorSystem system, TestProbe<Object> auditor, TestProbe<OrderPlaced> billing) {
        // tag::event-stream[]
        system.eventStream().subscribe(OrderPlaced.class, auditor.ref()); // Object.class would get every event
        system.eventStream().publish(new OrderPlaced(42));
        // end::event-stream[]
        auditor.expectMessage(new OrderPlaced(42));
        // tag::topic[]
        Topic<OrderPlaced> orders = Topic.of(system, "orders", OrderPlaced.class);
        orders.subscribe(billing.ref()); // ends by itself when billing stops
        orders.publish(new OrderPlaced(43));
        // end::topic[]
        billing.expectMessage(new OrderPlaced(43));
    }
}
