package io.weft.actors.bench.stream;

import io.weft.actors.ActorSystem;
import io.weft.actors.stream.Farm;
import io.weft.actors.stream.Pipeline;
import io.weft.actors.stream.Policy;
import io.weft.actors.stream.RunningPipeline;
import io.weft.actors.stream.Stage;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * A small Linear Road (Rinaldi et al. 2020, Fig. 11): position reports of vehicles on expressways; segment
 * statistics (last minute's report count and average speed) and accident detection per expressway,
 * then toll calculation per vehicle when it enters a new segment. Far smaller than the full
 * benchmark (no account balance or travel-time queries, no historical data).
 */
final class LinearRoad {

    private LinearRoad() {
    }

    /** A position report: every vehicle reports every 30 s. */
    record Report(int vid, int time, int xway, int seg, int pos, int speed) {
    }

    /** A report with the statistics of its segment for the previous minute. */
    record Tagged(Report r, double lav, int count, boolean accident) {
    }

    static final int XWAYS = 4;
    static final int SEGMENTS = 10;

    static List<Report> reports(int n, long seed) {
        SplittableRandom rnd = new SplittableRandom(seed);
        int vehicles = 2_000;
        int[] xway = new int[vehicles];
        int[] pos = new int[vehicles];
        int[] stoppedFor = new int[vehicles];
        for (int v = 0; v < vehicles; v++) {
            xway[v] = v % XWAYS;
            pos[v] = rnd.nextInt(SEGMENTS * 5280);
        }
        List<Report> out = new ArrayList<>(n);
        for (int time = 0; out.size() < n; time += 30) {
            for (int v = 0; v < vehicles && out.size() < n; v++) {
                int speed;
                if (stoppedFor[v] > 0) {
                    stoppedFor[v]--;
                    speed = 0;
                } else if (rnd.nextInt(5_000) == 0) {
                    stoppedFor[v] = 5; // a breakdown: same position for several reports
                    speed = 0;
                } else {
                    speed = 10 + rnd.nextInt(40) + 4 * (pos[v] / 5280); // slow in low segments, fast in high ones
                    pos[v] = (pos[v] + speed * 30 * 5280 / 3600) % (SEGMENTS * 5280);
                }
                out.add(new Report(v, time, xway[v], pos[v] / 5280, pos[v], speed));
            }
        }
        return out;
    }

    /** Segment statistics and accidents of the expressways it is given (one replica per key). */
    static final class SegmentStats {
        private final Map<Long, int[]> minuteStats = new HashMap<>(); // (xway, seg, minute) -> {count, speedSum}
        private final Map<Integer, int[]> lastPos = new HashMap<>(); // vid -> {pos, repeats}
        private final Map<Long, Integer> accidentUntil = new HashMap<>(); // (xway, seg) -> minute

        private static long key(int xway, int seg) {
            return xway * 1_000L + seg;
        }

        Tagged add(Report r) {
            int minute = r.time() / 60;
            long seg = key(r.xway(), r.seg());
            int[] st = minuteStats.computeIfAbsent(seg * 100_000 + minute, k -> new int[2]);
            st[0]++;
            st[1] += r.speed();
            int[] lp = lastPos.computeIfAbsent(r.vid(), k -> new int[] {-1, 0});
            if (lp[0] == r.pos() && r.speed() == 0) {
                if (++lp[1] >= 3) {
                    accidentUntil.put(seg, minute + 2);
                }
            } else {
                lp[0] = r.pos();
                lp[1] = 0;
            }
            int[] prev = minuteStats.get(seg * 100_000 + minute - 1);
            int count = prev == null ? 0 : prev[0];
            double lav = prev == null || prev[0] == 0 ? 100 : prev[1] / (double) prev[0];
            Integer until = accidentUntil.get(seg);
            return new Tagged(r, lav, count, until != null && until >= minute);
        }
    }

    /** Tolls: charged when a vehicle enters a new segment that is slow, busy and accident-free. */
    static final class Tolls {
        private final Map<Integer, Integer> lastSeg = new HashMap<>();

        /** @return the toll, or -1 when none is notified */
        long add(Tagged t) {
            Integer before = lastSeg.put(t.r().vid(), t.r().seg());
            if (before != null && before == t.r().seg()) {
                return -1;
            }
            if (t.lav() < 40 && t.count() > 50 && !t.accident()) {
                long over = t.count() - 50;
                return 2 * over * over;
            }
            return 0;
        }
    }

    static long[] reference(List<Report> in) {
        SegmentStats s = new SegmentStats();
        Tolls t = new Tolls();
        long notifications = 0;
        long sum = 0;
        for (Report r : in) {
            long toll = t.add(s.add(r));
            if (toll >= 0) {
                notifications++;
                sum += toll;
            }
        }
        return new long[] {notifications, sum};
    }

    /**
     * Source, segment statistics (by expressway), tolls (by vehicle), sink.
     *
     * @param system the system
     * @param in the reports
     * @param replicas per operator
     * @param expected {notifications, toll sum} from the reference
     * @return reports per second
     * @throws Exception on failure or a wrong result
     */
    static double stages(ActorSystem system, List<Report> in, int replicas, long[] expected) throws Exception {
        Map<String, Long> totals = new ConcurrentHashMap<>();
        RunningPipeline<Report> run = Pipeline.of(
                Farm.of(replicas, () -> new Stage<Report, Tagged>() {
                    private final SegmentStats stats = new SegmentStats();

                    @Override
                    protected void consume(Report r) {
                        emit(stats.add(r));
                    }
                }, Policy.<Report>byKey(Report::xway)),
                Farm.of(replicas, () -> new Stage<Tagged, Long>() {
                    private final Tolls tolls = new Tolls();

                    @Override
                    protected void consume(Tagged t) {
                        long toll = tolls.add(t);
                        if (toll >= 0) {
                            emit(toll);
                        }
                    }
                }, Policy.<Tagged>byKey(t -> t.r().vid())),
                new Stage<Long, Void>() {
                    long notifications;
                    long sum;

                    @Override
                    protected void consume(Long toll) {
                        notifications++;
                        sum += toll;
                    }

                    @Override
                    protected void onStop() {
                        totals.put("notifications", notifications);
                        totals.put("sum", sum);
                    }
                }).start(system);
        long t0 = System.nanoTime();
        Apps.feed(run, in);
        run.completion().get(10, TimeUnit.MINUTES);
        long t1 = System.nanoTime();
        if (totals.get("notifications") != expected[0] || totals.get("sum") != expected[1]) {
            throw new AssertionError("linear road: got " + totals + ", expected " + expected[0] + "/" + expected[1]);
        }
        return in.size() * 1e9 / (t1 - t0);
    }

    /**
     * The same network with plain actors ({@link ActorNet}).
     *
     * @param system the system
     * @param in the reports
     * @param replicas per operator
     * @param expected {notifications, toll sum}
     * @return reports per second
     * @throws Exception on failure or a wrong result
     */
    static double actors(ActorSystem system, List<Report> in, int replicas, long[] expected) throws Exception {
        long[] got = new long[2];
        double rate = ActorNet.run(system, in, List.of(
                new ActorNet.Layer("lr-segments", replicas, () -> {
                    SegmentStats stats = new SegmentStats();
                    return (x, out) -> out.accept(stats.add((Report) x));
                }, x -> ((Report) x).xway()),
                new ActorNet.Layer("lr-tolls", replicas, () -> {
                    Tolls tolls = new Tolls();
                    return (x, out) -> {
                        long toll = tolls.add((Tagged) x);
                        if (toll >= 0) {
                            out.accept(toll);
                        }
                    };
                }, x -> ((Tagged) x).r().vid()),
                new ActorNet.Layer("lr-sink", 1, () -> (x, out) -> {
                    got[0]++;
                    got[1] += (Long) x;
                }, null)));
        if (got[0] != expected[0] || got[1] != expected[1]) {
            throw new AssertionError("linear road (actors): got " + got[0] + "/" + got[1]);
        }
        return rate;
    }
}
