package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;

/**
 * Savina count: a producer actor sends N increments to a counter actor (default 1,000,000), then
 * asks for the total, which must be N.
 */
public final class Count extends Workload {

    private static final Object INC = "inc";

    /** Creates the workload. */
    public Count() {
        super("count");
    }

    private static int n(Scale s) {
        return s.pick(10_000, 300_000, 1_000_000);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d messages", n(s));
    }

    @Override
    public int liveActors(Scale s) {
        return 2;
    }

    /** Asks the counter for its total. */
    private record Retrieve(Ref replyTo) {
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int n = n(s);
        CompletableFuture<Long> done = new CompletableFuture<>();
        Ref counter = kit.spawn(new Handler() {
            long count;

            @Override
            public void onMessage(Object m, Ctx c) {
                if (m == INC) {
                    count++;
                } else if (m instanceof Retrieve r) {
                    r.replyTo().tell(count);
                    c.stop();
                }
            }
        });
        Ref producer = kit.spawn((m, c) -> {
            if (m == START) {
                for (int i = 0; i < n; i++) {
                    counter.tell(INC);
                }
                counter.tell(new Retrieve(c.self()));
            } else if (m instanceof Long total) {
                done.complete(total);
                c.stop();
            }
        });
        producer.tell(START);
        check("count", n, await(done));
    }
}
