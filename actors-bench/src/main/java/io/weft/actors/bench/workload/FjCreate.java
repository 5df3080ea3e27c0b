package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Kit;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Savina fjcreate: create N actors (default 40,000), send each one message that costs a small
 * computation, after which it stops. All N must have run.
 */
public final class FjCreate extends Workload {

    private static final Object WORK = "work";

    /** Creates the workload. */
    public FjCreate() {
        super("fjcreate");
    }

    private static int n(Scale s) {
        return s.pick(1_000, 5_000, 40_000);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d actors created, one message each", n(s));
    }

    @Override
    public int liveActors(Scale s) {
        return 1;
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int n = n(s);
        CompletableFuture<Integer> done = new CompletableFuture<>();
        AtomicInteger finished = new AtomicInteger();
        for (int i = 0; i < n; i++) {
            double theta = 37.2 + i;
            kit.spawn((m, c) -> {
                if (compute(theta) >= 0) {
                    int f = finished.incrementAndGet();
                    if (f == n) {
                        done.complete(f);
                    }
                }
                c.stop();
            }).tell(WORK);
        }
        check("actors run", n, await(done));
    }
}
