package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Savina big: W actors (default 120) each send N pings (default 20,000) one at a time to random
 * peers, which answer with a pong. Every ping must be answered: W x N pongs in total.
 */
public final class Big extends Workload {

    /** Creates the workload. */
    public Big() {
        super("big");
    }

    private static int actors(Scale s) {
        return s.pick(12, 120, 120);
    }

    private static int pings(Scale s) {
        return s.pick(200, 1_000, 20_000);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d actors x %,d pings", actors(s), pings(s));
    }

    @Override
    public int liveActors(Scale s) {
        return actors(s);
    }

    /** A ping, answered to {@code from}. */
    private record Ping(Ref from) {
    }

    private static final Object PONG = "pong";

    /** Installs the peer table before the first ping. */
    private record Peers(Ref[] refs) {
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int w = actors(s);
        int n = pings(s);
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger finished = new AtomicInteger();
        AtomicLong pongs = new AtomicLong();
        Ref[] refs = new Ref[w];
        for (int i = 0; i < w; i++) {
            long seed = 17L * i + 1;
            refs[i] = kit.spawn(new Handler() {
                final SplittableRandom random = new SplittableRandom(seed);
                Ref[] peers;
                Ping myPing;
                int received;

                @Override
                public void onMessage(Object m, Ctx c) {
                    if (m instanceof Ping p) {
                        p.from().tell(PONG);
                    } else if (m == PONG) {
                        if (++received == n) {
                            pongs.addAndGet(received);
                            if (finished.incrementAndGet() == w) {
                                done.complete(pongs.get());
                            }
                        } else {
                            peers[random.nextInt(peers.length)].tell(myPing);
                        }
                    } else if (m instanceof Peers p) {
                        peers = p.refs();
                        myPing = new Ping(c.self());
                        peers[random.nextInt(peers.length)].tell(myPing);
                    } else if (m == STOP) {
                        c.stop();
                    }
                }
            });
        }
        Peers peers = new Peers(refs);
        for (Ref r : refs) {
            r.tell(peers);
        }
        long total = await(done);
        stopAll(refs);
        check("pongs", (long) w * n, total);
    }
}
