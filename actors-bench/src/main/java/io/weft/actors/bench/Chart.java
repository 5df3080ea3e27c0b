package io.weft.actors.bench;

import io.weft.actors.bench.kit.Impl;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code chart}: draws a {@code compare} CSV as an SVG bar chart: for every workload, each
 * implementation's median time divided by Weft react's, on a logarithmic axis (1 = as fast as
 * Weft, 2 = twice as slow).
 */
public final class Chart {

    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#17becf", "#e377c2", "#d62728", "#7f7f7f", "#bcbd22", "#9467bd", "#2ca02c", "#8c564b"};

    private Chart() {
    }

    /**
     * @param args {@code --csv FILE --out FILE.svg [--title TEXT]}
     * @return the exit status
     * @throws IOException on I/O failure
     */
    public static int run(String[] args) throws IOException {
        Path csv = null;
        Path out = null;
        String title = "Time relative to Weft react (lower is faster)";
        for (int i = 0; i < args.length; i++) {
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "--csv" -> csv = Path.of(require(v, "--csv"));
                case "--out" -> out = Path.of(require(v, "--out"));
                case "--title" -> title = require(v, "--title");
                default -> throw new IllegalArgumentException("chart: unknown option \"" + args[i] + "\"");
            }
            i++;
        }
        if (csv == null || out == null) {
            throw new IllegalArgumentException("chart: --csv FILE and --out FILE.svg are required");
        }
        write(Compare.readCsv(csv), out, title);
        System.err.println("wrote " + out);
        return 0;
    }

    private static String require(String v, String option) {
        if (v == null) {
            throw new IllegalArgumentException(option + ": missing value");
        }
        return v;
    }

    static void write(List<Compare.Row> rows, Path file, String title) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, svg(rows, title));
    }

    /**
     * The chart as SVG text. Every implementation in {@code rows} is in the legend and has its
     * bars; the logarithmic axis runs from the power of ten at or below the smallest ratio to the
     * one at or above the largest, so no bar is cut off, and each bar's ratio is printed in its
     * own row, right of the bar.
     */
    static String svg(List<Compare.Row> rows, String title) {
        Map<String, List<Compare.Row>> byWorkload = new LinkedHashMap<>();
        for (Compare.Row r : rows) {
            byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r);
        }
        List<Impl> present = new ArrayList<>();
        for (Impl i : Impl.values()) {
            if (rows.stream().anyMatch(r -> r.impl().equals(i.cliName()))) {
                present.add(i);
            }
        }
        double lo = 1;
        double hi = 1;
        for (Compare.Row r : rows) {
            double ratio = r.median() / Compare.weftMedian(rows, r.workload());
            if (r.validated() && ratio > 0 && Double.isFinite(ratio)) {
                lo = Math.min(lo, ratio);
                hi = Math.max(hi, ratio);
            }
        }
        int loExp = (int) Math.floor(Math.log10(lo) + 1e-9);
        int hiExp = (int) Math.ceil(Math.log10(hi) - 1e-9);
        if (hiExp == loExp) {
            hiExp++;
        }
        Axis axis = new Axis(loExp, hiExp, PLOT);
        int barH = 13;
        int gap = 10;
        int legendItem = 100;
        int perLine = Math.max(1, (LEFT + PLOT + LABEL_ROOM - LEGEND_LEFT) / legendItem);
        int legendLines = (present.size() + perLine - 1) / perLine;
        int top = 34 + legendLines * 16 + 8;
        int plotHeight = 0;
        for (List<Compare.Row> g : byWorkload.values()) {
            plotHeight += g.size() * barH + gap;
        }
        int axisBottom = top + plotHeight;
        int width = LEFT + PLOT + LABEL_ROOM;
        int height = axisBottom + 60;
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                width, height));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>%n", LEFT, escape(title)));
        for (int k = 0; k < present.size(); k++) {
            Impl impl = present.get(k);
            int lx = LEGEND_LEFT + (k % perLine) * legendItem;
            int ly = 30 + (k / perLine) * 16;
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/>", lx, ly,
                    COLOURS[impl.ordinal()]));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>%n", lx + 14, ly + 9, impl.cliName()));
        }
        for (int e = loExp; e <= hiExp; e++) {
            for (int m : new int[] {1, 2, 5}) {
                double tick = m * Math.pow(10, e);
                if (e == hiExp && m > 1) {
                    break;
                }
                double x = LEFT + axis.x(tick);
                boolean one = e == 0 && m == 1;
                s.append(String.format(Locale.ROOT,
                        "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%s\"/>%n", x, top - 4, x,
                        axisBottom, one ? "black" : m == 1 ? "#bbb" : "#e4e4e4", one ? "1.5" : "1"));
                if (m == 1 || PLOT / (hiExp - loExp) >= 150) {
                    s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%sx</text>%n", x,
                            axisBottom + 14, tickLabel(tick)));
                }
            }
        }
        int y = top;
        for (Map.Entry<String, List<Compare.Row>> e : byWorkload.entrySet()) {
            double weft = Compare.weftMedian(rows, e.getKey());
            List<Compare.Row> g = e.getValue();
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", LEFT - 6,
                    y + g.size() * barH / 2 + 4, escape(e.getKey())));
            for (Compare.Row r : g) {
                double ratio = r.median() / weft;
                String colour = colour(r.impl());
                if (!r.validated() || Double.isNaN(ratio)) {
                    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" font-size=\"10\" fill=\"%s\">%s: %s</text>%n",
                            LEFT + 4, y + barH - 3, colour, r.impl(), r.validated() ? "no Weft baseline" : "FAILED"));
                } else {
                    double w = Math.max(1, axis.x(ratio));
                    s.append(String.format(Locale.ROOT,
                            "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s: %s (%s ms)</title></rect>%n",
                            LEFT, y + 1, w, barH - 2, colour, escape(r.workload()), r.impl(), ratioLabel(ratio),
                            Compare.fmt(r.median())));
                    s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"10\" paint-order=\"stroke\" stroke=\"white\" stroke-width=\"3\">%s</text>%n",
                            LEFT + w + 4, y + barH - 3, ratioLabel(ratio)));
                }
                y += barH;
            }
            y += gap;
        }
        s.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\">median time of each implementation divided by Weft react's (1x, the black line): "
                        + "above 1x Weft is faster</text>%n", LEFT, axisBottom + 34));
        s.append(String.format(Locale.ROOT,
                "<text x=\"%d\" y=\"%d\">logarithmic axis from %sx to %sx; every bar starts at %sx and ends at its ratio, printed after it</text>%n",
                LEFT, axisBottom + 50, tickLabel(Math.pow(10, loExp)), tickLabel(Math.pow(10, hiExp)),
                tickLabel(Math.pow(10, loExp))));
        s.append("</svg>\n");
        return s.toString();
    }

    private static final int LEFT = 140;
    private static final int LEGEND_LEFT = 10;
    private static final int PLOT = 640;
    private static final int LABEL_ROOM = 70;

    /** A logarithmic axis over whole powers of ten, {@code 10^lo} at 0 and {@code 10^hi} at {@code width}. */
    private record Axis(int lo, int hi, int width) {
        double x(double ratio) {
            return (Math.log10(ratio) - lo) / (hi - lo) * width;
        }
    }

    private static String tickLabel(double tick) {
        if (tick >= 1) {
            return String.format(Locale.ROOT, "%,d", Math.round(tick));
        }
        return new java.math.BigDecimal(tick).round(new java.math.MathContext(1)).stripTrailingZeros().toPlainString();
    }

    private static String ratioLabel(double ratio) {
        return ratio >= 100 ? String.format(Locale.ROOT, "%.0fx", ratio)
                : ratio >= 10 ? String.format(Locale.ROOT, "%.1fx", ratio) : String.format(Locale.ROOT, "%.2fx", ratio);
    }

    private static String colour(String impl) {
        for (Impl i : Impl.values()) {
            if (i.cliName().equals(impl)) {
                return COLOURS[i.ordinal()];
            }
        }
        return "black";
    }

    private static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
