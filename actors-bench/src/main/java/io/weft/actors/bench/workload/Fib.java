package io.weft.actors.bench.workload;

import io.weft.actors.bench.kit.Ctx;
import io.weft.actors.bench.kit.FjKit;
import io.weft.actors.bench.kit.Handler;
import io.weft.actors.bench.kit.Impl;
import io.weft.actors.bench.kit.Kit;
import io.weft.actors.bench.kit.Ref;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RecursiveTask;

/**
 * Recursive Fibonacci with one actor per call: each actor above the cut-off spawns two children
 * and adds their answers. With cut-off 2 it is Savina fib (N=25 gives 75025, about 250,000
 * actors); with a larger cut-off it is the Fib of Haller and Odersky 2009, §7.2, compared against the same recursion as
 * plain {@code ForkJoinPool} tasks ({@code fj}).
 */
public final class Fib extends Workload {

    private final int[] n;
    private final int cutoff;

    /**
     * @param name the workload's name
     * @param n N at tiny, quick, full
     * @param cutoff at or below this N the actor computes sequentially
     */
    public Fib(String name, int[] n, int cutoff) {
        super(name);
        this.n = n.clone();
        this.cutoff = cutoff;
    }

    /**
     * @return Savina fib, N=25
     */
    public static Fib savina() {
        return new Fib("fib", new int[] {10, 20, 25}, 2);
    }

    /**
     * @return Haller and Odersky 2009, §7.2 Fib: N=34 with sequential leaves below 20
     */
    public static Fib seedFj() {
        return new Fib("fibfj", new int[] {22, 32, 34}, 20);
    }

    private int n(Scale s) {
        return s.pick(n[0], n[1], n[2]);
    }

    @Override
    public String describe(Scale s) {
        return "fib(" + n(s) + ")" + (cutoff > 2 ? ", sequential at n <= " + cutoff : ", one actor per call");
    }

    @Override
    public int liveActors(Scale s) {
        int k = n(s) - cutoff;
        return k > 20 ? Integer.MAX_VALUE : 2 * (1 << Math.max(0, k));
    }

    @Override
    public boolean supports(Impl impl) {
        return impl != Impl.FJ || cutoff > 2;
    }

    static long sequential(int n) {
        return n <= 2 ? 1 : sequential(n - 1) + sequential(n - 2);
    }

    /** A request for fib(n), answered to {@code parent}. */
    private record Request(int n, Ref parent) {
    }

    /** One call of the recursion. */
    private final class Call implements Handler {
        long sum;
        int answers;
        Ref parent;

        @Override
        public void onMessage(Object m, Ctx c) {
            if (m instanceof Request r) {
                if (r.n() <= cutoff) {
                    r.parent().tell(sequential(r.n()));
                    c.stop();
                } else {
                    parent = r.parent();
                    c.spawn(new Call()).tell(new Request(r.n() - 1, c.self()));
                    c.spawn(new Call()).tell(new Request(r.n() - 2, c.self()));
                }
            } else if (m instanceof Long v) {
                sum += v;
                if (++answers == 2) {
                    parent.tell(sum);
                    c.stop();
                }
            }
        }
    }

    /** The same recursion as fork/join tasks. */
    @SuppressWarnings("serial")
    private final class Task extends RecursiveTask<Long> {
        private final int k;

        Task(int k) {
            this.k = k;
        }

        @Override
        protected Long compute() {
            if (k <= cutoff) {
                return sequential(k);
            }
            Task left = new Task(k - 1);
            left.fork();
            long right = new Task(k - 2).compute();
            return left.join() + right;
        }
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        int k = n(s);
        long expected = iterative(k);
        if (kit instanceof FjKit fj) {
            check("fib(" + k + ")", expected, fj.pool().invoke(new Task(k)));
            return;
        }
        CompletableFuture<Long> done = new CompletableFuture<>();
        Ref root = kit.spawn((m, c) -> {
            if (m instanceof Long v) {
                done.complete(v);
                c.stop();
            }
        });
        kit.spawn(new Call()).tell(new Request(k, root));
        check("fib(" + k + ")", expected, await(done));
    }

    private static long iterative(int k) {
        long a = 1;
        long b = 1;
        for (int i = 3; i <= k; i++) {
            long t = a + b;
            a = b;
            b = t;
        }
        return b;
    }
}
