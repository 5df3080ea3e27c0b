package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;

/**
 * Streaming ping-pong (Prokopec 2016, Fig. 10): like {@link PingPong}, but the ping actor keeps a window
 * of W = 100 pings in flight, sending the next one as each pong returns, N pings in all (default
 * 400,000). Each actor has many messages queued at once, so batching matters. The ping actor must
 * receive N pongs, and the pong actor must report N pings handled.
 */
public final class StreamingPingPong extends Workload {

    private static final int WINDOW = 100;
    private static final Object PONG = "pong";

    /** Creates the workload. */
    public StreamingPingPong() {
        super("streaming-pingpong");
    }

    private static int n(Scale s) {
        return s.pick(2_000, 100_000, 400_000);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d pings, %d in flight", n(s), WINDOW);
    }

    @Override
    public int liveActors(Scale s) {
        return 2;
    }

    /** Asks the pong actor how many pings it handled. */
    private record Report(Ref replyTo) {
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int n = n(s);
        CompletableFuture<long[]> done = new CompletableFuture<>();
        Ref pong = kit.spawn(new Handler() {
            long pings;

            @Override
            public void onMessage(Object m, Ctx c) {
                if (m instanceof Ref ping) {
                    pings++;
                    ping.tell(PONG);
                } else if (m instanceof Report r) {
                    r.replyTo().tell(pings);
                    c.stop();
                }
            }
        });
        Ref ping = kit.spawn(new Handler() {
            int sent;
            int received;

            @Override
            public void onMessage(Object m, Ctx c) {
                if (m == START) {
                    while (sent < Math.min(WINDOW, n)) {
                        sent++;
                        pong.tell(c.self());
                    }
                } else if (m == PONG) {
                    if (++received == n) {
                        pong.tell(new Report(c.self()));
                    } else if (sent < n) {
                        sent++;
                        pong.tell(c.self());
                    }
                } else if (m instanceof Long handled) {
                    done.complete(new long[] {received, handled});
                    c.stop();
                }
            }
        });
        ping.tell(START);
        long[] r = await(done);
        check("pongs received", n, r[0]);
        check("pings handled", n, r[1]);
    }
}
