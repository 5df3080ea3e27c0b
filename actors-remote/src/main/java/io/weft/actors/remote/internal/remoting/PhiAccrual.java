package io.weft.actors.remote.internal.remoting;

import java.util.concurrent.locks.ReentrantLock;

/**
 * The phi-accrual failure detector (Hayashibara et al. 2004) over heartbeat arrivals of one peer.
 */
final class PhiAccrual {

    /* design
     * Keeps the last WINDOW intervals between heartbeats in a ring, with their sum and sum of
     * squares. phi(now) = -log10(1 - F(now - last)), where F is the normal distribution with the
     * intervals' mean plus the acceptable pause, and their standard deviation (at least minStd),
     * approximated by the logistic formula also used by Akka and Pekko. Before the first
     * heartbeat, phi is 0 (nothing to judge). Guarded by a ReentrantLock held for a few field
     * reads and writes: the remoting's timer and the control lane's inbound thread touch it, and
     * over Aeron the inbound side may be a virtual thread, which `synchronized` would pin.
     */

    private static final int WINDOW = 200;

    private final long[] intervals = new long[WINDOW];
    private final double minStdMillis;
    private final double pauseMillis;
    private int count;
    private int next;
    private double sum;
    private double sumSq;
    private long last;
    private final ReentrantLock lock = new ReentrantLock();

    PhiAccrual(long firstIntervalMillis, long acceptablePauseMillis) {
        this.minStdMillis = Math.max(100, firstIntervalMillis / 2.0);
        this.pauseMillis = acceptablePauseMillis;
        // seed with the expected interval, so the first real heartbeat does not look late
        add(firstIntervalMillis);
    }

    private void add(long interval) {
        if (count == WINDOW) {
            long old = intervals[next];
            sum -= old;
            sumSq -= (double) old * old;
        } else {
            count++;
        }
        intervals[next] = interval;
        next = (next + 1) % WINDOW;
        sum += interval;
        sumSq += (double) interval * interval;
    }

    void heartbeat(long nowMillis) {
        lock.lock();
        try {
            if (last != 0) {
                add(nowMillis - last);
            }
            last = nowMillis;
        } finally {
            lock.unlock();
        }
    }

    double phi(long nowMillis) {
        lock.lock();
        try {
            if (last == 0) {
                return 0;
            }
            double mean = sum / count;
            double variance = Math.max(0, sumSq / count - mean * mean);
            double std = Math.max(minStdMillis, Math.sqrt(variance));
            double y = (nowMillis - last - (mean + pauseMillis)) / std;
            double e = Math.exp(-y * (1.5976 + 0.070566 * y * y));
            double p = nowMillis - last > mean + pauseMillis ? e / (1 + e) : 1 - 1 / (1 + e);
            return -Math.log10(Math.max(p, 1e-300));
        } finally {
            lock.unlock();
        }
    }
}
