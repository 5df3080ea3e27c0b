package io.weft.actors.verify;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The soak run: {@code soak [minutes] [firstSeed]} runs conservation-fuzz seeds back to back (each a
 * fresh system with a random mixed workload and faults) for the given time (default 10 minutes),
 * then prints the heap used after a full GC at the start and at the end, the number of runs and
 * messages, and every invariant violation. Exits with status 1 on any violation.
 */
public final class Soak {

    private Soak() {
    }

    /**
     * @param args minutes (default 10) and first seed (default 1)
     */
    public static void main(String[] args) {
        // injected failures are expected: do not log each one with its stack trace
        System.setProperty("org.slf4j.simpleLogger.log.io.weft.actors.runtime.internal.system.WeftSystem", "off");
        double minutes = args.length > 0 ? Double.parseDouble(args[0]) : 10;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 1;
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        long heapStart = heapAfterGc(memory);
        System.out.printf("soak: %.1f minutes from seed %d; heap after GC at start: %.1f MiB%n", minutes, seed, heapStart / 1048576.0);
        long end = System.nanoTime() + Duration.ofSeconds((long) (minutes * 60)).toNanos();
        long runs = 0;
        long sent = 0;
        long handled = 0;
        List<ConservationFuzz.Result> failures = new ArrayList<>();
        long lastReport = System.nanoTime();
        while (System.nanoTime() - end < 0) {
            ConservationFuzz.Result r = ConservationFuzz.run(seed++);
            runs++;
            sent += r.sent();
            handled += r.handled();
            if (!r.ok()) {
                failures.add(r);
                System.out.println("FAILED " + r);
            }
            if (System.nanoTime() - lastReport > Duration.ofMinutes(1).toNanos()) {
                lastReport = System.nanoTime();
                System.out.printf("soak: %d runs, %d messages sent, %d handled, %d failed runs, heap now %.1f MiB%n",
                        runs, sent, handled, failures.size(), memory.getHeapMemoryUsage().getUsed() / 1048576.0);
            }
        }
        long heapEnd = heapAfterGc(memory);
        System.out.printf("soak done: %d runs (seeds up to %d), %d messages sent, %d handled, %d invariant violations;"
                + " heap after GC: start %.1f MiB, end %.1f MiB; live threads %d%n",
                runs, seed - 1, sent, handled, failures.stream().mapToInt(f -> f.violations().size()).sum(),
                heapStart / 1048576.0, heapEnd / 1048576.0, Thread.activeCount());
        if (!failures.isEmpty()) {
            System.exit(1);
        }
    }

    private static long heapAfterGc(MemoryMXBean memory) {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return memory.getHeapMemoryUsage().getUsed();
    }
}
