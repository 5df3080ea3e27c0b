package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;

/**
 * Seed 000 §7.1, message passing: a ring of n processes with k tokens spread evenly around it;
 * each process takes a token from its queue and puts it into the next one's. Each token makes a
 * fixed number of passes; the total must be k x passes. {@code tokenring} uses 10,000 processes,
 * {@code tokenring-600k} the largest ring of Haller and Odersky 2009, §7.1 (600,000 processes), for Weft react (ForkJoin or
 * fair) and thread-based actors only.
 */
public final class TokenRing extends Workload {

    private final int[] processes;
    private final int tokens;
    private final int[] passes;
    private final boolean large;

    private TokenRing(String name, int[] processes, int tokens, int[] passes, boolean large) {
        super(name);
        this.processes = processes.clone();
        this.tokens = tokens;
        this.passes = passes.clone();
        this.large = large;
    }

    /**
     * @return 10,000 processes, 10 tokens
     */
    public static TokenRing standard() {
        return new TokenRing("tokenring", new int[] {100, 10_000, 10_000}, 10, new int[] {1_000, 20_000, 100_000}, false);
    }

    /**
     * @return 600,000 processes, 10 tokens
     */
    public static TokenRing large() {
        return new TokenRing("tokenring-600k", new int[] {1_000, 600_000, 600_000}, 10,
                new int[] {2_000, 600_000, 1_200_000}, true);
    }

    private int processes(Scale s) {
        return s.pick(processes[0], processes[1], processes[2]);
    }

    private int passes(Scale s) {
        return s.pick(passes[0], passes[1], passes[2]);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d processes, %d tokens x %,d passes", processes(s), tokens, passes(s));
    }

    @Override
    public int liveActors(Scale s) {
        return processes(s);
    }

    @Override
    public boolean runsAt(Scale s) {
        return !large || s != Scale.QUICK;
    }

    @Override
    public boolean supports(Impl impl) {
        return large ? impl == Impl.WEFT || impl == Impl.WEFT_FAIR || impl == Impl.WEFT_THREAD || impl == Impl.WEFT_CONT : impl != Impl.FJ;
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int n = processes(s);
        int p = passes(s);
        TokenPassing.Tally tally = new TokenPassing.Tally(tokens, p);
        TokenPassing.Forwarder[] nodes = new TokenPassing.Forwarder[n];
        Ref[] refs = new Ref[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new TokenPassing.Forwarder(tally.retired);
            refs[i] = kit.spawn(nodes[i]);
        }
        for (int i = 0; i < n; i++) {
            nodes[i].next = refs[(i + 1) % n];
        }
        for (int t = 0; t < tokens; t++) {
            refs[(int) ((long) t * n / tokens)].tell(new TokenPassing.Token(p));
        }
        long passed = await(tally.done);
        stopAll(refs);
        check("token passes", (long) tokens * p, passed);
    }
}
