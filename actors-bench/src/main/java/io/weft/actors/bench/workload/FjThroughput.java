package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Savina fjthrput: the main thread sends N messages to each of A actors (default 60 x 10,000);
 * each message costs a small computation. Every actor must see exactly N messages.
 */
public final class FjThroughput extends Workload {

    private static final Object WORK = "work";

    /** Creates the workload. */
    public FjThroughput() {
        super("fjthrput");
    }

    private static int actors(Scale s) {
        return s.pick(6, 60, 60);
    }

    private static int n(Scale s) {
        return s.pick(500, 3_000, 10_000);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d actors x %,d messages", actors(s), n(s));
    }

    @Override
    public int liveActors(Scale s) {
        return actors(s);
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int a = actors(s);
        int n = n(s);
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger finished = new AtomicInteger();
        AtomicLong processed = new AtomicLong();
        Ref[] refs = new Ref[a];
        for (int i = 0; i < a; i++) {
            refs[i] = kit.spawn(new Handler() {
                int count;
                double sink;

                @Override
                public void onMessage(Object m, Ctx c) {
                    sink += compute(37.2 + count);
                    if (++count == n) {
                        processed.addAndGet(sink > 0 ? count : -count);
                        c.stop();
                        if (finished.incrementAndGet() == a) {
                            done.complete(processed.get());
                        }
                    }
                }
            });
        }
        for (int k = 0; k < n; k++) {
            for (Ref r : refs) {
                r.tell(WORK);
            }
        }
        check("messages processed", (long) a * n, await(done));
    }
}
