package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;

/**
 * A ring of actors passing one token: Savina threadring (100 actors, 100,000 hops) and the
 * Benchmarks Game thread-ring / Karmani et al. 2009, §5 "Threading" (503 actors, 10,000,000 hops). The actor
 * holding the token when it reaches zero answers its number, which must be (hops mod n) + 1.
 */
public final class ThreadRing extends Workload {

    private final int[] actors;
    private final int[] hops;

    /**
     * @param name the workload's name
     * @param actors ring size at tiny, quick, full
     * @param hops token passes at tiny, quick, full
     */
    public ThreadRing(String name, int[] actors, int[] hops) {
        super(name);
        this.actors = actors.clone();
        this.hops = hops.clone();
    }

    /**
     * @return Savina threadring
     */
    public static ThreadRing savina() {
        return new ThreadRing("threadring", new int[] {10, 100, 100}, new int[] {1_000, 30_000, 100_000});
    }

    /**
     * @return Karmani et al. 2009's Threading, the Benchmarks Game thread-ring
     */
    public static ThreadRing threading() {
        return new ThreadRing("threading", new int[] {503, 503, 503}, new int[] {2_000, 100_000, 10_000_000});
    }

    private int actors(Scale s) {
        return s.pick(actors[0], actors[1], actors[2]);
    }

    private int hops(Scale s) {
        return s.pick(hops[0], hops[1], hops[2]);
    }

    @Override
    public String describe(Scale s) {
        return String.format("%,d actors x %,d hops", actors(s), hops(s));
    }

    @Override
    public int liveActors(Scale s) {
        return actors(s);
    }

    /** The token: the passes still to make. Only its holder touches it. */
    private static final class Token {
        int remaining;

        Token(int remaining) {
            this.remaining = remaining;
        }
    }

    /** One node of the ring. */
    private static final class Node implements Handler {
        final int number;
        final CompletableFuture<Integer> done;
        Ref next;

        Node(int number, CompletableFuture<Integer> done) {
            this.number = number;
            this.done = done;
        }

        @Override
        public void onMessage(Object m, Ctx c) {
            if (m instanceof Token t) {
                if (t.remaining == 0) {
                    done.complete(number);
                } else {
                    t.remaining--;
                    next.tell(t);
                }
            } else if (m == STOP) {
                c.stop();
            }
        }
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int n = actors(s);
        int h = hops(s);
        ring(kit, n, h);
    }

    private void ring(Kit kit, int n, int h) throws Exception {
        CompletableFuture<Integer> done = new CompletableFuture<>();
        Node[] nodes = new Node[n];
        Ref[] refs = new Ref[n];
        for (int i = 0; i < n; i++) {
            nodes[i] = new Node(i + 1, done);
            refs[i] = kit.spawn(nodes[i]);
        }
        for (int i = 0; i < n; i++) {
            nodes[i].next = refs[(i + 1) % n];
        }
        refs[0].tell(new Token(h));
        int last = await(done);
        stopAll(refs);
        check("last actor", (h % n) + 1, last);
    }
}
