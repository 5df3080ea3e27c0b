package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;

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

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int p = pipes(s);
        int r = rounds(s);
        int tokens = tokens(p);
        TokenPassing.Tally tally = new TokenPassing.Tally(tokens, r);
        Ref[] ends = new Ref[2 * p];
        for (int i = 0; i < p; i++) {
            TokenPassing.Forwarder a = new TokenPassing.Forwarder(tally.retired);
            TokenPassing.Forwarder b = new TokenPassing.Forwarder(tally.retired);
            ends[2 * i] = kit.spawn(a);
            ends[2 * i + 1] = kit.spawn(b);
            a.next = ends[2 * i + 1]; // the two ends of a pipe pass to each other
            b.next = ends[2 * i];
        }
        int stride = p / tokens;
        for (int t = 0; t < tokens; t++) {
            ends[2 * t * stride].tell(new TokenPassing.Token(r));
        }
        long passed = await(tally.done);
        stopAll(ends);
        check("passes", (long) tokens * r, passed);
    }
}
