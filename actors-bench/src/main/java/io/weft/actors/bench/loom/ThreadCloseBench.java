package io.weft.actors.bench.loom;

import io.weft.actors.ActorContext;
import io.weft.actors.ActorSystem;
import io.weft.actors.Props;
import io.weft.actors.Receive;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code thread-close}: how long {@code close()} of a system takes with N thread-based actors
 * parked in {@code receive}, and how many of their bodies ended (their {@code finally} ran) before
 * close returned; the rest were ended from outside after the stop grace period (the system's
 * warning counts them).
 */
public final class ThreadCloseBench {

    private static final Receive<Object, Object> ANY = Receive.<Object, Object>returning().matchAny(m -> m).build();

    private ThreadCloseBench() {
    }

    /**
     * @param args {@code [--actors N]}
     * @throws Exception on failure
     */
    public static void main(String[] args) throws Exception {
        int n = 1_000_000;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--actors" -> n = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("thread-close: unknown option \"" + args[i] + "\"");
            }
        }
        AtomicLong ended = new AtomicLong();
        CountDownLatch parked = new CountDownLatch(n);
        ActorSystem system = ActorSystem.builder().name("thread-close").build();
        long t0 = System.nanoTime();
        for (int i = 0; i < n; i++) {
            system.spawnThread(Props.defaults(), (ActorContext<Object> self) -> {
                try {
                    parked.countDown();
                    for (;;) {
                        self.receive(ANY);
                    }
                } finally {
                    ended.incrementAndGet();
                }
            });
        }
        if (!parked.await(10, TimeUnit.MINUTES)) {
            throw new IllegalStateException("thread-close: the actors did not start within 10 minutes");
        }
        long t1 = System.nanoTime();
        System.gc();
        long t2 = System.nanoTime();
        system.close();
        long t3 = System.nanoTime();
        System.out.printf(Locale.ROOT, "actors %,d: spawned and started in %,d ms; close took %,d ms; bodies ended before close returned %,d (%.1f %%)%n",
                n, TimeUnit.NANOSECONDS.toMillis(t1 - t0), TimeUnit.NANOSECONDS.toMillis(t3 - t2), ended.get(), 100.0 * ended.get() / n);
    }
}
