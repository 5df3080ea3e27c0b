package io.weft.actors.bench;

import java.util.List;

/** The statistics the benchmark commands report. */
public final class Stats {

    private Stats() {
    }

    /**
     * The median: the middle value, or the mean of the two middle values of an even count.
     *
     * @param values measured values, in any order; not modified
     * @return the median, NaN if there are none
     */
    public static double median(List<Double> values) {
        double[] s = values.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        if (s.length == 0) {
            return Double.NaN;
        }
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }
}
