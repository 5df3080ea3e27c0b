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
 * Seed 000 §7.2's Integ: adaptive trapezoid integration of f(x) = (x*x + 1) * x over [0, U],
 * split recursively; the top {@code depth} levels run as one actor per interval (or as fork/join
 * tasks for {@code fj}), deeper levels sequentially inside the leaf. The result must match the
 * exact integral U^4/4 + U^2/2 to a relative 1e-9.
 */
public final class Integ extends Workload {

    private static final double U = 1_000;
    private static final double EPS = 1e-7;

    /** Creates the workload. */
    public Integ() {
        super("integ");
    }

    private static int depth(Scale s) {
        return s.pick(4, 10, 12);
    }

    private static double eps(Scale s) {
        return switch (s) {
            case TINY -> 1e-3;
            case QUICK -> 1e-6;
            case FULL -> EPS;
        };
    }

    @Override
    public String describe(Scale s) {
        return String.format("f(x)=(x*x+1)*x over [0, %.0f], tolerance %.0e, %d parallel levels", U, eps(s), depth(s));
    }

    @Override
    public int liveActors(Scale s) {
        return 2 << depth(s);
    }

    @Override
    public boolean supports(Impl impl) {
        return impl != Impl.THREADS;
    }

    static double f(double x) {
        return (x * x + 1) * x;
    }

    static double sequential(double l, double r, double fl, double fr, double a, double eps) {
        double h = (r - l) / 2;
        double c = l + h;
        double fc = f(c);
        double al = (fl + fc) * h / 2;
        double ar = (fc + fr) * h / 2;
        double alr = al + ar;
        if (Math.abs(alr - a) <= eps) {
            return alr;
        }
        return sequential(l, c, fl, fc, al, eps) + sequential(c, r, fc, fr, ar, eps);
    }

    /** An interval to integrate, answered to {@code parent}. */
    private record Interval(double l, double r, double fl, double fr, double a, int depth, Ref parent) {
    }

    /** One interval's actor. */
    private static final class Part implements Handler {
        private final double eps;
        private double sum;
        private int answers;
        private Ref parent;

        Part(double eps) {
            this.eps = eps;
        }

        @Override
        public void onMessage(Object m, Ctx c) {
            if (m instanceof Interval iv) {
                if (iv.depth() == 0) {
                    iv.parent().tell(sequential(iv.l(), iv.r(), iv.fl(), iv.fr(), iv.a(), eps));
                    c.stop();
                    return;
                }
                parent = iv.parent();
                double h = (iv.r() - iv.l()) / 2;
                double mid = iv.l() + h;
                double fm = f(mid);
                c.spawn(new Part(eps)).tell(new Interval(iv.l(), mid, iv.fl(), fm, (iv.fl() + fm) * h / 2, iv.depth() - 1, c.self()));
                c.spawn(new Part(eps)).tell(new Interval(mid, iv.r(), fm, iv.fr(), (fm + iv.fr()) * h / 2, iv.depth() - 1, c.self()));
            } else if (m instanceof Double v) {
                sum += v;
                if (++answers == 2) {
                    parent.tell(sum);
                    c.stop();
                }
            }
        }
    }

    /** The same split as fork/join tasks. */
    @SuppressWarnings("serial")
    private static final class Task extends RecursiveTask<Double> {
        private final double l;
        private final double r;
        private final double fl;
        private final double fr;
        private final double a;
        private final int depth;
        private final double eps;

        Task(double l, double r, double fl, double fr, double a, int depth, double eps) {
            this.l = l;
            this.r = r;
            this.fl = fl;
            this.fr = fr;
            this.a = a;
            this.depth = depth;
            this.eps = eps;
        }

        @Override
        protected Double compute() {
            if (depth == 0) {
                return sequential(l, r, fl, fr, a, eps);
            }
            double h = (r - l) / 2;
            double mid = l + h;
            double fm = f(mid);
            Task left = new Task(l, mid, fl, fm, (fl + fm) * h / 2, depth - 1, eps);
            left.fork();
            double right = new Task(mid, r, fm, fr, (fm + fr) * h / 2, depth - 1, eps).compute();
            return left.join() + right;
        }
    }

    @Override
    public void run(Kit kit, Scale s) throws Exception {
        double eps = eps(s);
        int depth = depth(s);
        double fl = f(0);
        double fr = f(U);
        double a = (fl + fr) * U / 2;
        double result;
        if (kit instanceof FjKit fj) {
            result = fj.pool().invoke(new Task(0, U, fl, fr, a, depth, eps));
        } else {
            CompletableFuture<Double> done = new CompletableFuture<>();
            Ref root = kit.spawn((m, c) -> {
                if (m instanceof Double v) {
                    done.complete(v);
                    c.stop();
                }
            });
            kit.spawn(new Part(eps)).tell(new Interval(0, U, fl, fr, a, depth, root));
            result = await(done);
        }
        double exact = U * U * U * U / 4 + U * U / 2;
        if (!(Math.abs(result - exact) <= 1e-9 * exact)) {
            throw new ValidationException(name() + ": integral was " + result + ", expected " + exact);
        }
    }
}
