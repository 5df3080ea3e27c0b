package io.weft.actors.verify;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.DeadLetter;
import io.weft.actors.LifecycleEvent;
import io.weft.actors.Mailbox;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

/**
 * Message-conservation fuzz: one seeded run builds a random actor graph (event-based and
 * thread-based actors, several schedulers and mailbox kinds, actors that switch mode), floods it
 * with messages from external threads and from the actors themselves, and injects faults (handlers
 * that throw exceptions and errors, actors that stop themselves, restarts, {@code close()} from
 * outside and from inside an actor at a random point). At the end it checks:
 *
 * <ul>
 *   <li>conservation: every message sent was handled exactly once or went to dead letters exactly
 *       once (bounded-mailbox drops are dead letters with reason {@code MAILBOX_OVERFLOW});
 *   <li>per-sender FIFO: each actor incarnation handles the messages of one sender in send order;
 *   <li>shutdown: {@code close()} returned, no actor is alive, and every platform thread the system
 *       started has ended.
 * </ul>
 *
 * <p>The seed fixes the graph, the message script and the fault decisions; the thread interleaving
 * is not under the seed's control, so a failing seed replays the same scenario, not the same
 * schedule (run it repeatedly to reproduce a rare race).
 */
public final class ConservationFuzz {

    /** The kinds of actor a slot can hold. */
    enum Kind {
        REACT_POOL, REACT_DEDICATED, THREAD_VIRTUAL, THREAD_DEDICATED, REACT_THEN_THREAD, THREAD_THEN_REACT
    }

    /**
     * The outcome of one run.
     *
     * @param seed the seed
     * @param plan a one-line description of the graph and the faults
     * @param sent messages sent
     * @param handled messages handled (including those whose handler then threw)
     * @param deadLetters messages that went to dead letters, by reason
     * @param violations every invariant violation found; empty on success
     */
    public record Result(long seed, String plan, long sent, long handled, Map<DeadLetter.Reason, Long> deadLetters,
            List<String> violations) {

        /** @return whether every invariant held */
        public boolean ok() {
            return violations.isEmpty();
        }

        @Override
        public String toString() {
            return "seed " + seed + " [" + plan + "]: sent " + sent + ", handled " + handled + ", dead letters " + deadLetters
                    + (ok() ? ", OK" : ", VIOLATIONS " + violations);
        }
    }

    /** A fuzz message; {@code id} is unique per run, {@code seq} counts per (sender, target slot). */
    record Msg(int id, int sender, int slot, long seq) {
    }

    private static final int MAX_MESSAGES = 20_000;
    private static final long QUIESCENCE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(30);

    private final long seed;
    private final SplittableRandom plan;
    private final ActorSystem system;
    private final int slots;
    private final Kind[] kinds;
    private final Mailbox[] mailboxes;
    private final AtomicReferenceArray<ActorRef<Msg>> refs;
    private final AtomicInteger nextId = new AtomicInteger();
    private final AtomicInteger nextSender = new AtomicInteger(100);
    private final AtomicIntegerArray handled = new AtomicIntegerArray(MAX_MESSAGES);
    private final AtomicIntegerArray dead = new AtomicIntegerArray(MAX_MESSAGES);
    private final AtomicIntegerArray told = new AtomicIntegerArray(MAX_MESSAGES);
    private final AtomicLong sentCount = new AtomicLong();
    private final AtomicLong accounted = new AtomicLong();
    private final AtomicLongArray deadByReason = new AtomicLongArray(DeadLetter.Reason.values().length);
    private final List<String> violations = new CopyOnWriteArrayList<>();
    private final Map<ActorRef<?>, Boolean> failedActors = new ConcurrentHashMap<>();
    private final AtomicInteger stoppedEvents = new AtomicInteger();
    private final AtomicInteger spawned = new AtomicInteger();
    private volatile Thread waiter;
    private final double pThrow;
    private final double pError;
    private final double pStop;
    private final double pForward;
    private final double pSwitch;
    private final double pCloseInside;

    private ConservationFuzz(long seed) {
        this.seed = seed;
        this.plan = new SplittableRandom(seed);
        this.system = ActorSystem.builder().name("fuzz-" + Long.toHexString(seed))
                .parallelism(1 + plan.nextInt(2)).batchSize(1 + plan.nextInt(64)).build();
        this.slots = 2 + plan.nextInt(6);
        this.kinds = new Kind[slots];
        this.mailboxes = new Mailbox[slots];
        this.refs = new AtomicReferenceArray<>(slots);
        Kind[] all = Kind.values();
        for (int i = 0; i < slots; i++) {
            kinds[i] = all[plan.nextInt(all.length)];
            int m = plan.nextInt(4);
            mailboxes[i] = m <= 1 ? Mailbox.unbounded()
                    : Mailbox.bounded(1 + plan.nextInt(32), m == 2 ? Mailbox.Overflow.DROP_NEW : Mailbox.Overflow.DROP_OLD);
        }
        this.pThrow = plan.nextDouble() * 0.02;
        this.pError = plan.nextDouble() * 0.005;
        this.pStop = plan.nextDouble() * 0.01;
        this.pForward = plan.nextDouble() * 0.6;
        this.pSwitch = plan.nextDouble() * 0.05;
        this.pCloseInside = plan.nextInt(8) == 0 ? 0.002 : 0;
    }

    /**
     * Runs one seed.
     *
     * @param seed the seed
     * @return the outcome
     */
    public static Result run(long seed) {
        return new ConservationFuzz(seed).execute();
    }

    private String describe(int externalSenders, int perSender, int closeAt) {
        StringBuilder b = new StringBuilder();
        b.append("parallelism ").append(system.settings().parallelism()).append(", batch ").append(system.settings().batchSize())
                .append(", actors");
        for (int i = 0; i < slots; i++) {
            b.append(' ').append(kinds[i]).append(mailboxes[i].isBounded()
                    ? "/" + mailboxes[i].overflow() + "(" + mailboxes[i].capacity() + ")" : "");
        }
        b.append(String.format(", senders %d x %d, close at %s, throw %.3f error %.4f stop %.3f forward %.2f switch %.3f closeInside %.3f",
                externalSenders, perSender, closeAt < 0 ? "end" : String.valueOf(closeAt), pThrow, pError, pStop, pForward, pSwitch, pCloseInside));
        return b.toString();
    }

    private Result execute() {
        int externalSenders = 1 + plan.nextInt(2);
        int perSender = 50 + plan.nextInt(600);
        int closeAt = plan.nextInt(4) == 0 ? plan.nextInt(perSender) : -1;
        String description = describe(externalSenders, perSender, closeAt);
        system.deadLetters().subscribe(this::onDeadLetter);
        system.lifecycle().subscribe(this::onLifecycle);
        String prefix = "weft-" + system.name() + "-";
        try {
            for (int i = 0; i < slots; i++) {
                spawn(i, plan.split());
            }
            List<Thread> senders = new ArrayList<>();
            for (int s = 0; s < externalSenders; s++) {
                SplittableRandom r = plan.split();
                boolean closer = s == 0 && closeAt >= 0;
                Thread t = Thread.ofPlatform().name("fuzz-sender-" + s).unstarted(() -> externalSender(r, perSender, closer ? closeAt : -1));
                senders.add(t);
                t.start();
            }
            for (Thread t : senders) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                if (t.isAlive()) {
                    violations.add("sender thread " + t.getName() + " did not finish in 60 s");
                }
            }
            if (!system.isClosed()) {
                awaitQuiescence();
            }
            system.close();
            system.close(); // idempotent
            check(prefix);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            violations.add("interrupted");
        } catch (RuntimeException | Error e) {
            violations.add("driver threw " + e);
        } finally {
            system.close();
        }
        Map<DeadLetter.Reason, Long> byReason = new EnumMap<>(DeadLetter.Reason.class);
        for (DeadLetter.Reason reason : DeadLetter.Reason.values()) {
            long n = deadByReason.get(reason.ordinal());
            if (n > 0) {
                byReason.put(reason, n);
            }
        }
        long h = 0;
        for (int i = 0; i < Math.min(nextId.get(), MAX_MESSAGES); i++) {
            h += handled.get(i);
        }
        return new Result(seed, description, sentCount.get(), h, byReason, List.copyOf(violations));
    }

    // ------------------------------------------------------------------ sending

    private void externalSender(SplittableRandom r, int count, int closeAt) {
        int me = nextSender.getAndIncrement();
        long[] seqs = new long[slots];
        for (int n = 0; n < count; n++) {
            if (n == closeAt) {
                system.close();
            }
            int slot = r.nextInt(slots);
            send(me, seqs, slot);
            if (r.nextInt(50) == 0) {
                restartIfStopped(r.nextInt(slots), r.split());
            }
        }
    }

    /** Sends one new message from {@code sender}; returns false when the message budget is spent. */
    private boolean send(int sender, long[] seqs, int slot) {
        int id = nextId.getAndIncrement();
        if (id >= MAX_MESSAGES) {
            return false;
        }
        Msg m = new Msg(id, sender, slot, seqs[slot]++);
        sentCount.incrementAndGet();
        told.set(id, 1);
        refs.get(slot).tell(m);
        return true;
    }

    private void restartIfStopped(int slot, SplittableRandom r) {
        ActorRef<Msg> ref = refs.get(slot);
        if (ref.isTerminated() && !system.isClosed()) {
            try {
                spawn(slot, r);
            } catch (IllegalStateException closed) {
                // spawning after close must fail this way; anything else is a violation
                if (!system.isClosed()) {
                    violations.add("spawn failed on an open system: " + closed);
                }
            }
        }
    }

    private void spawn(int slot, SplittableRandom r) {
        Incarnation inc = new Incarnation(slot, r, nextSender.getAndIncrement());
        Props props = Props.defaults().withMailbox(mailboxes[slot]);
        ActorRef<Msg> ref = switch (kinds[slot]) {
            case REACT_POOL, REACT_THEN_THREAD -> system.spawn(props, inc::reactBody);
            case REACT_DEDICATED -> system.spawn(props.withScheduler(system.schedulers().dedicatedThread()), inc::reactBody);
            case THREAD_VIRTUAL, THREAD_THEN_REACT -> system.spawnThread(props, inc::threadBody);
            case THREAD_DEDICATED -> system.spawnThread(props.withScheduler(system.schedulers().dedicatedThread()), inc::threadBody);
        };
        spawned.incrementAndGet();
        refs.set(slot, ref);
    }

    // ------------------------------------------------------------------ one actor incarnation

    /** The state of one actor incarnation; touched only by that actor (serially). */
    private final class Incarnation {
        final int slot;
        final SplittableRandom r;
        final int senderId;
        final long[] seqs = new long[slots];
        final Map<Integer, Long> lastSeq = new HashMap<>();
        final Receive<Msg, Msg> receiveOne = Receive.<Msg, Msg>returning().match(Msg.class, m -> m).build();
        ActorContext<Msg> self;
        boolean stopped;

        Incarnation(int slot, SplittableRandom r, int senderId) {
            this.slot = slot;
            this.r = r;
            this.senderId = senderId;
        }

        void reactBody(ActorContext<Msg> ctx) {
            self = ctx;
            ctx.loop(() -> ctx.react(Receive.<Msg>handler().match(Msg.class, this::onReact).build()));
        }

        void onReact(Msg m) {
            handle(m);
            if (!stopped && kinds[slot] == Kind.REACT_THEN_THREAD && r.nextDouble() < pSwitch) {
                int n = 1 + r.nextInt(20);
                self.switchToThread(() -> receiveSome(n));
            }
        }

        void threadBody(ActorContext<Msg> ctx) {
            self = ctx;
            if (kinds[slot] == Kind.THREAD_THEN_REACT) {
                receiveSome(1 + r.nextInt(30));
                if (!stopped) {
                    // continue as an event-based actor: react on an actor's own thread detaches it
                    ctx.loop(() -> ctx.react(Receive.<Msg>handler().match(Msg.class, this::handle).build()));
                }
                return;
            }
            while (!stopped) {
                handle(ctx.receive(receiveOne));
            }
        }

        void receiveSome(int n) {
            for (int i = 0; i < n && !stopped; i++) {
                handle(self.receive(receiveOne));
            }
        }

        void handle(Msg m) {
            Long last = lastSeq.put(m.sender(), m.seq());
            if (last != null && last >= m.seq()) {
                violations.add("FIFO: " + self.self() + " handled seq " + m.seq() + " from sender " + m.sender()
                        + " after seq " + last);
            }
            // children first, so that sent > accounted while this message is being handled
            if (r.nextDouble() < pForward) {
                int k = 1 + r.nextInt(2);
                for (int i = 0; i < k; i++) {
                    send(senderId, seqs, r.nextInt(slots));
                }
            }
            if (handled.getAndIncrement(m.id()) != 0) {
                violations.add("duplicate: message " + m.id() + " handled twice");
            }
            account();
            double d = r.nextDouble();
            if (d < pCloseInside) {
                system.close();
            } else if (d < pCloseInside + pError) {
                stopped = true;
                throw new StackOverflowError("injected by the fuzz (seed " + seed + ")");
            } else if (d < pCloseInside + pError + pThrow) {
                stopped = true;
                throw new IllegalStateException("injected by the fuzz (seed " + seed + ")");
            } else if (d < pCloseInside + pError + pThrow + pStop) {
                stopped = true;
                self.stop();
            }
        }
    }

    // ------------------------------------------------------------------ accounting

    private void onDeadLetter(DeadLetter d) {
        deadByReason.incrementAndGet(d.reason().ordinal());
        if (d.message() instanceof Msg m) {
            if (dead.getAndIncrement(m.id()) != 0) {
                violations.add("duplicate: message " + m.id() + " dead-lettered twice");
            }
            account();
        }
    }

    private void onLifecycle(LifecycleEvent e) {
        switch (e.kind()) {
            case STARTED -> {
            }
            case STOPPED -> stoppedEvents.incrementAndGet();
            case FAILED -> {
                if (failedActors.put(e.actor(), Boolean.TRUE) != null) {
                    violations.add("actor " + e.actor() + " reported FAILED twice");
                }
            }
        }
    }

    private void account() {
        accounted.incrementAndGet();
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        }
    }

    /** Waits until every sent message is handled or dead (no sender is running any more). */
    private void awaitQuiescence() {
        waiter = Thread.currentThread();
        long deadline = System.nanoTime() + QUIESCENCE_TIMEOUT_NANOS;
        while (accounted.get() != sentCount.get() && !system.isClosed()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                violations.add("not quiescent after 30 s: sent " + sentCount.get() + ", accounted " + accounted.get()
                        + " (a message is stranded)");
                return;
            }
            LockSupport.parkNanos(this, Math.min(left, TimeUnit.MILLISECONDS.toNanos(50)));
        }
        waiter = null;
    }

    private void check(String threadPrefix) throws InterruptedException {
        if (system.actorCount() != 0) {
            violations.add("after close " + system.actorCount() + " actors are still alive");
        }
        int ids = Math.min(nextId.get(), MAX_MESSAGES);
        int lost = 0;
        for (int i = 0; i < ids; i++) {
            if (told.get(i) == 0) {
                continue;
            }
            int h = handled.get(i);
            int d = dead.get(i);
            if (h + d != 1) {
                if (h + d == 0) {
                    lost++;
                    if (lost <= 5) {
                        violations.add("lost: message " + i + " was neither handled nor dead-lettered");
                    }
                } else {
                    violations.add("message " + i + " handled " + h + " times and dead-lettered " + d + " times");
                }
            }
        }
        if (lost > 5) {
            violations.add("lost: " + lost + " messages in total");
        }
        if (sentCount.get() != accounted.get()) {
            violations.add("sent " + sentCount.get() + " != handled + dead-lettered " + accounted.get());
        }
        if (stoppedEvents.get() != spawned.get()) {
            // every actor spawned must have stopped exactly once
            violations.add("lifecycle: " + spawned.get() + " actors spawned but " + stoppedEvents.get() + " STOPPED events");
        }
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(threadPrefix)) {
                t.join(TimeUnit.SECONDS.toMillis(10));
                if (t.isAlive()) {
                    violations.add("thread " + t.getName() + " is still alive after close");
                }
            }
        }
    }

    /**
     * Runs seeds from the command line: {@code fuzz [firstSeed] [count]}.
     *
     * @param args first seed and count
     */
    public static void main(String[] args) {
        long first = args.length > 0 ? Long.parseLong(args[0]) : 1;
        int count = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int failed = 0;
        for (long s = first; s < first + count; s++) {
            Result r = run(s);
            if (Boolean.getBoolean("weft.fuzz.verbose")) {
                System.out.println(r);
            }
            if (!r.ok()) {
                failed++;
                System.out.println("FAILED " + r);
            }
        }
        System.out.println(count + " seeds from " + first + ": " + failed + " failed");
        if (failed > 0) {
            System.exit(1);
        }
    }
}
