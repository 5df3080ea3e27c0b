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
 * warning counts them). Beside the wall time it gives the JVM's CPU time during the close (all
 * threads: the bodies' carriers, the closing thread, the collector), the closing thread's own share,
 * and the collectors' time: on a shared machine the wall time depends on what else runs.
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
        long cpu0 = processCpuNanos();
        long own0 = THREADS.getCurrentThreadCpuTime();
        long gc0 = gcMillis();
        long t2 = System.nanoTime();
        system.close();
        long t3 = System.nanoTime();
        long cpu = processCpuNanos() - cpu0;
        long own = THREADS.getCurrentThreadCpuTime() - own0;
        long gc = gcMillis() - gc0;
        System.out.printf(Locale.ROOT, "actors %,d: spawned and started in %,d ms; close took %,d ms; bodies ended before close returned %,d (%.1f %%)%n",
                n, TimeUnit.NANOSECONDS.toMillis(t1 - t0), TimeUnit.NANOSECONDS.toMillis(t3 - t2), ended.get(), 100.0 * ended.get() / n);
        System.out.printf(Locale.ROOT, "  close: CPU %,d ms (%.1f us per actor; %.2f cores busy), of it the closing thread %,d ms; collectors %,d ms%n",
                TimeUnit.NANOSECONDS.toMillis(cpu), cpu / 1000.0 / n, (double) cpu / (t3 - t2), TimeUnit.NANOSECONDS.toMillis(own), gc);
    }

    private static final java.lang.management.ThreadMXBean THREADS = java.lang.management.ManagementFactory.getThreadMXBean();

    /** @return the CPU time of all the JVM's threads so far, in ns (0 if the JVM does not say) */
    private static long processCpuNanos() {
        return java.lang.management.ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime() : 0;
    }

    /** @return the collection time of every collector so far, in ms */
    private static long gcMillis() {
        long t = 0;
        for (java.lang.management.GarbageCollectorMXBean b : java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) {
            t += Math.max(0, b.getCollectionTime());
        }
        return t;
    }
}
