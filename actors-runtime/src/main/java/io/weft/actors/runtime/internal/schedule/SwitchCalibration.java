package io.weft.actors.runtime.internal.schedule;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinTask;
import io.weft.actors.runtime.internal.ActivationWord;

/**
 * Measures the cost {@code c} of one context switch of an actor on a ForkJoin pool, for
 * message-arrival speculation (Prokopec 2016, §5.4: "estimated experimentally, by sending messages to a
 * reactor with an empty event handler"). Two probes with empty handlers pass a message back and
 * forth; every message finds its receiver idle, so each hop is one full cycle of activation (CAS),
 * task hand-off, turn, and deactivation (volatile write and re-check), which is what a spin before
 * deactivation may save.
 */
final class SwitchCalibration {

    /* design
     * Each probe follows the activation protocol of Cell (design block there) with a counter for
     * a mailbox: send = pending++ then, if active was 0 and the CAS 0 -> 1 wins, fork a new task
     * for the turn (never the same task object twice: see FrameTask for the ABA); a turn takes
     * the pending count, "handles" it by sending one message to the partner, then sets active = 0
     * and re-checks pending. The probes run on the pool being calibrated, started by an external
     * submission; their forks go to the running worker's local queue, as actor-to-actor
     * activations do.
     *
     * ROUNDS rounds of HOPS hops; the cost is the fastest round's time per hop, so the first
     * rounds absorb the JIT's warm-up and a descheduled worker. The result completes `result`
     * (nanoseconds per hop). If the pool shuts down first, the probes are dropped and `result`
     * never completes; the scheduler keeps its default estimate.
     */

    static final int HOPS = 20_000;
    static final int ROUNDS = 5;

    private final CompletableFuture<Double> result = new CompletableFuture<>();
    private final Probe ping = new Probe(this);
    private final Probe pong = new Probe(this);
    /** Written only by the probe whose turn runs (turns are serialized by the ping-pong). */
    private long hops;
    private long roundStart;
    private long best = Long.MAX_VALUE;

    private SwitchCalibration() {
        ping.partner = pong;
        pong.partner = ping;
    }

    /**
     * Starts a calibration on {@code pool}.
     *
     * @param pool the pool whose switch cost is measured
     * @return completes with nanoseconds per context switch
     */
    static CompletableFuture<Double> start(ForkJoinPool pool) {
        SwitchCalibration c = new SwitchCalibration();
        c.roundStart = System.nanoTime();
        c.ping.send(pool);
        return c.result;
    }

    /** A probe's turn handled one message: pass it on, or end the round (the run). */
    private void handled(Probe at) {
        long n = ++hops;
        if (n % HOPS == 0) {
            long now = System.nanoTime();
            best = Math.min(best, now - roundStart);
            roundStart = now;
            if (n == (long) HOPS * ROUNDS) {
                result.complete(best / (double) HOPS);
                return;
            }
        }
        at.partner.send(null);
    }

    /** One side of the ping-pong: an activation word and a message count. */
    static final class Probe extends ActivationWord {
        private static final VarHandle PENDING;

        static {
            try {
                PENDING = MethodHandles.lookup().findVarHandle(Probe.class, "pending", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final SwitchCalibration run;
        private final Runnable turn = this::turn;
        private Probe partner;
        @SuppressWarnings("unused") // through PENDING
        private volatile int pending;

        Probe(SwitchCalibration run) {
            this.run = run;
        }

        /** @param external the pool to submit to from outside it, or null from a pool worker */
        void send(ForkJoinPool external) {
            gaaPending(1);
            if (activateIfIdle()) {
                ForkJoinTask<?> task = ForkJoinTask.adapt(turn); // a new task per activation
                if (external != null) {
                    external.execute(task);
                } else {
                    task.fork();
                }
            }
        }

        private void turn() {
            do {
                int messages = gasPending(0);
                for (int i = 0; i < messages; i++) {
                    run.handled(this);
                }
            } while (idleOrReclaim());
        }

        @Override
        protected boolean workPending() {
            return (int) PENDING.getVolatile(this) > 0;
        }

        private void gaaPending(int delta) {
            PENDING.getAndAdd(this, delta);
        }

        private int gasPending(int next) {
            return (int) PENDING.getAndSet(this, next);
        }
    }
}
