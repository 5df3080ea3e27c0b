package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;

/** Savina pingpong: two actors exchange a message N times (default 40,000 round trips). */
public final class PingPong extends Workload {

    private static final Object PONG = "pong";

    /** Creates the workload. */
    public PingPong() {
        super("pingpong");
    }

    private static int n(Scale s) {
        return s.pick(1_000, 40_000, 40_000);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d round trips", n(s));
    }

    @Override
    public int liveActors(Scale s) {
        return 2;
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int n = n(s);
        CompletableFuture<Integer> done = new CompletableFuture<>();
        Ref pong = kit.spawn((m, c) -> {
            if (m == STOP) {
                c.stop();
            } else {
                ((Ref) m).tell(PONG);
            }
        });
        Ref ping = kit.spawn(new Handler() {
            int count;

            @Override
            public void onMessage(Object m, Ctx c) {
                if (m == START) {
                    pong.tell(c.self());
                } else if (++count == n) {
                    pong.tell(STOP);
                    c.stop();
                    done.complete(count);
                } else {
                    pong.tell(c.self());
                }
            }
        });
        ping.tell(START);
        check("round trips", n, await(done));
    }
}
