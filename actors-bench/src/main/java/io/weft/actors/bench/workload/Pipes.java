package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Seed 000 §7.3, I/O-style load: P pipes, each a pair of end points (actors); a quarter of the
 * pipes (at most 128) carry a token that the two ends pass back and forth R times, exchanging
 * roles each time, while the other pipes stay idle (mostly-idle connections). Total passes must be
 * tokens x R.
 */
public final class Pipes extends Workload {

    /** Creates the workload. */
    public Pipes() {
        super("pipes");
    }

    private static int pipes(Scale s) {
        return s.pick(16, 1_024, 1_024);
    }

    private static int rounds(Scale s) {
        return s.pick(200, 500, 10_000);
    }

    private static int tokens(int pipes) {
        return pipes < 128 ? Math.max(1, pipes / 4) : 128;
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d pipes, %d tokens x %,d passes", pipes(s), tokens(pipes(s)), rounds(s));
    }

    @Override
    public int liveActors(Scale s) {
        return 2 * pipes(s);
    }

    /** A token with the passes it still has to make. */
    private static final class Token {
        int remaining;

        Token(int remaining) {
            this.remaining = remaining;
        }
    }

    /** One end of a pipe. */
    private static final class End implements Handler {
        final Runnable finished;
        Ref peer;

        End(Runnable finished) {
            this.finished = finished;
        }

        @Override
        public void onMessage(Object m, Ctx c) {
            if (m instanceof Token t) {
                if (--t.remaining == 0) {
                    finished.run();
                } else {
                    peer.tell(t);
                }
            } else if (m == STOP) {
                c.stop();
            }
        }
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int p = pipes(s);
        int r = rounds(s);
        int tokens = tokens(p);
        CompletableFuture<Long> done = new CompletableFuture<>();
        AtomicInteger left = new AtomicInteger(tokens);
        AtomicLong total = new AtomicLong();
        Runnable finished = () -> {
            total.addAndGet(r);
            if (left.decrementAndGet() == 0) {
                done.complete(total.get());
            }
        };
        Ref[] ends = new Ref[2 * p];
        for (int i = 0; i < p; i++) {
            End a = new End(finished);
            End b = new End(finished);
            ends[2 * i] = kit.spawn(a);
            ends[2 * i + 1] = kit.spawn(b);
            a.peer = ends[2 * i + 1];
            b.peer = ends[2 * i];
        }
        int stride = p / tokens;
        for (int t = 0; t < tokens; t++) {
            ends[2 * t * stride].tell(new Token(r));
        }
        long passed = await(done);
        stopAll(ends);
        check("passes", (long) tokens * r, passed);
    }
}
