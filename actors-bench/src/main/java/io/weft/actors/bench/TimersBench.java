package io.weft.actors.bench;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.runtime.internal.schedule.TimerWheel;
import io.weft.actors.spi.Ticker;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code timers}: the cost of actor timers ({@link io.weft.actors.Timers}) at scale.
 *
 * <ol>
 *   <li>Wheel alone: the same number of timers on the runtime's timer wheel with no actor, each
 *       recording its own lateness when the wheel thread fires it.
 *   <li>Memory: N pending single timers (due in an hour), spread over 1,000 actors, keys and
 *       message shared (made before the measurement), so the figure is what the runtime keeps per
 *       timer: the growth of the heap after {@code System.gc()}, as {@code memory} measures actors.
 *   <li>Lateness: N single timers over 1,000 actors, all started first, each due at a random time
 *       in an S-second window that opens 20 s after the first start (so that starting them is over
 *       before the first is due), each message carrying its due time; the actor that receives it
 *       records {@code System.nanoTime() - due}. Printed: p50, p99, p99.9 and max over all N.
 * </ol>
 */
public final class TimersBench {

    private static final int ACTORS = 1_000;
    /** The lateness window opens this long after the first timer is started. */
    private static final int LEAD_SECONDS = 20;

    private TimersBench() {
    }

    /** A timer message that carries its own due time. */
    private record Due(long dueNanos) {
    }

    /**
     * @param args {@code [--count N] [--spread-seconds S]} (default 1,000,000 timers, S = 3)
     * @return the exit status
     * @throws Exception on failure
     */
    public static int run(String[] args) throws Exception {
        int count = 1_000_000;
        int spread = 3;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--count" -> count = Integer.parseInt(args[++i]);
                case "--spread-seconds" -> spread = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("timers: unknown option \"" + args[i] + "\"");
            }
        }
        if (count < ACTORS || count % ACTORS != 0) {
            throw new IllegalArgumentException("--count: must be a positive multiple of " + ACTORS + ", was " + count);
        }
        if (spread < 1) {
            throw new IllegalArgumentException("--spread-seconds: must be at least 1, was " + spread);
        }
        System.out.printf(Locale.ROOT, "timers: %,d timers over %,d actors; JVM %s, %d CPUs, max heap %d MB%n", count, ACTORS,
                Runtime.version(), Runtime.getRuntime().availableProcessors(), Runtime.getRuntime().maxMemory() >> 20);
        memory(count);
        wheelAlone(count, spread);
        lateness(count, spread);
        return 0;
    }

    private static void memory(int count) throws Exception {
        int perActor = count / ACTORS;
        Object[] keys = new Object[perActor];
        for (int i = 0; i < perActor; i++) {
            keys[i] = "key-" + i;
        }
        String message = "tick";
        CountDownLatch armed = new CountDownLatch(ACTORS);
        try (ActorSystem system = ActorSystem.builder().name("timers-memory").build()) {
            Receive<Object, Void> arm = Receive.<Object>handler().matchAny(m -> { }).build();
            List<ActorRef<Object>> actors = new ArrayList<>(ACTORS);
            for (int a = 0; a < ACTORS; a++) {
                actors.add(system.spawn((ActorContext<Object> self) -> self.become(Receive.<Object>handler()
                        .match(String.class, "arm"::equals, s -> {
                            for (Object k : keys) {
                                self.timers().startSingle(k, message, Duration.ofHours(1));
                            }
                            armed.countDown();
                        }).build())));
            }
            // warm up the timer facility with one timer (its thread, its queues)
            ActorRef<Object> warm = system.spawn((ActorContext<Object> self) -> {
                self.timers().startSingle("warm", "warm", Duration.ofHours(1));
                self.become(arm);
            });
            warm.tell("x");
            long before = Memory.usedAfterGc();
            long start = System.nanoTime();
            for (ActorRef<Object> a : actors) {
                a.tell("arm");
            }
            if (!armed.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("timers were not started within 5 minutes");
            }
            long armNanos = System.nanoTime() - start;
            long after = Memory.usedAfterGc();
            System.out.printf(Locale.ROOT, "memory: %,d pending single timers: %.1f bytes per timer (heap %+,d bytes); started in %d ms"
                    + " (%.0f ns per timer)%n", count, (after - before) / (double) count, after - before,
                    TimeUnit.NANOSECONDS.toMillis(armNanos), armNanos / (double) count);
        }
    }

    private static void lateness(int count, int spread) throws Exception {
        int perActor = count / ACTORS;
        long[][] late = new long[ACTORS][perActor];
        CountDownLatch fired = new CountDownLatch(count);
        long spreadNanos = TimeUnit.SECONDS.toNanos(spread);
        long windowOpens = System.nanoTime() + TimeUnit.SECONDS.toNanos(LEAD_SECONDS);
        CountDownLatch armed = new CountDownLatch(ACTORS);
        java.util.concurrent.atomic.AtomicBoolean tooLate = new java.util.concurrent.atomic.AtomicBoolean();
        try (ActorSystem system = ActorSystem.builder().name("timers-lateness").build()) {
            List<ActorRef<Object>> actors = new ArrayList<>(ACTORS);
            for (int a = 0; a < ACTORS; a++) {
                int index = a;
                actors.add(system.spawn((ActorContext<Object> self) -> {
                    int[] got = {0};
                    SplittableRandom random = new SplittableRandom(index);
                    self.become(Receive.<Object>handler()
                            .match(Due.class, d -> {
                                late[index][got[0]++] = System.nanoTime() - d.dueNanos();
                                fired.countDown();
                            })
                            .match(String.class, "arm"::equals, s -> {
                                for (int i = 0; i < perActor; i++) {
                                    long due = windowOpens + random.nextLong(spreadNanos);
                                    long delay = due - System.nanoTime();
                                    if (delay <= 0) {
                                        tooLate.set(true); // reported below: started too late to measure
                                        delay = 1;
                                    }
                                    self.timers().startSingle(i, new Due(due), Duration.ofNanos(delay));
                                }
                                armed.countDown();
                            }).build());
                }));
            }
            long start = System.nanoTime();
            for (ActorRef<Object> a : actors) {
                a.tell("arm");
            }
            if (!armed.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException("the timers were not started within 5 minutes");
            }
            long armedAfter = System.nanoTime() - start;
            if (!fired.await(5, TimeUnit.MINUTES)) {
                throw new IllegalStateException(fired.getCount() + " timers had not fired after 5 minutes");
            }
            long took = System.nanoTime() - start;
            long[] all = new long[count];
            for (int a = 0; a < ACTORS; a++) {
                System.arraycopy(late[a], 0, all, a * perActor, perActor);
            }
            Arrays.sort(all);
            if (tooLate.get()) {
                throw new IllegalStateException("starting the timers took more than " + LEAD_SECONDS + " s: no lateness measured");
            }
            System.out.printf(Locale.ROOT, "lateness: %,d single timers (started in %d ms) due in a %d s window opening %d s after the"
                    + " first start, all handled %d ms after it:%n  p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms, min %.2f ms%n",
                    count, TimeUnit.NANOSECONDS.toMillis(armedAfter), spread, LEAD_SECONDS, TimeUnit.NANOSECONDS.toMillis(took), ms(all[count / 2]), ms(all[(int) (count * 0.99)]),
                    ms(all[(int) (count * 0.999)]), ms(all[count - 1]), ms(all[0]));
        }
    }

    /** A timer of the wheel alone that records its own lateness when it fires. */
    private static final class Probe extends TimerWheel.Timeout {
        private final long[] late;
        private final int index;
        private final CountDownLatch fired;

        Probe(long[] late, int index, CountDownLatch fired) {
            this.late = late;
            this.index = index;
            this.fired = fired;
        }

        @Override
        protected long expire(long now, long due) {
            late[index] = System.nanoTime() - due;
            fired.countDown();
            return Long.MIN_VALUE;
        }
    }

    /** The same timers on the runtime's timer wheel alone, with no actor: its own lateness. */
    private static void wheelAlone(int count, int spread) throws Exception {
        TimerWheel wheel = TimerWheel.withDefaultTick(Ticker.SYSTEM, "timers-bench-wheel");
        long[] late = new long[count];
        CountDownLatch fired = new CountDownLatch(count);
        SplittableRandom random = new SplittableRandom(42);
        long start = System.nanoTime();
        long windowOpens = start + TimeUnit.SECONDS.toNanos(LEAD_SECONDS);
        for (int i = 0; i < count; i++) {
            wheel.schedule(new Probe(late, i, fired), windowOpens + random.nextLong(TimeUnit.SECONDS.toNanos(spread)));
        }
        long armedAfter = System.nanoTime() - start;
        if (!fired.await(5, TimeUnit.MINUTES)) {
            throw new IllegalStateException(fired.getCount() + " wheel timers had not fired after 5 minutes");
        }
        wheel.shutdown();
        Arrays.sort(late);
        System.out.printf(Locale.ROOT, "wheel alone (no actors): %,d timers (started in %d ms) due in a %d s window opening %d s later:%n"
                + "  p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms, max %.2f ms, min %.2f ms%n", count,
                TimeUnit.NANOSECONDS.toMillis(armedAfter), spread, LEAD_SECONDS, ms(late[count / 2]), ms(late[(int) (count * 0.99)]),
                ms(late[(int) (count * 0.999)]), ms(late[count - 1]), ms(late[0]));
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }
}
