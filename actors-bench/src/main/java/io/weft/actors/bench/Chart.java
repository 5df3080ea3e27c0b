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

    private static final String[] COLOURS = {"#1f77b4", "#ff7f0e", "#17becf", "#d62728", "#7f7f7f", "#bcbd22", "#9467bd", "#2ca02c"};
    private static final double MIN_RATIO = 0.01; // the loop floor is far below 0.1x on some workloads
    private static final double MAX_RATIO = 100;

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
        Map<String, List<Compare.Row>> byWorkload = new LinkedHashMap<>();
        for (Compare.Row r : rows) {
            byWorkload.computeIfAbsent(r.workload(), k -> new ArrayList<>()).add(r);
        }
        int left = 130;
        int plot = 620;
        int barH = 9;
        int gap = 10;
        int top = 50;
        int height = top + 40;
        for (List<Compare.Row> g : byWorkload.values()) {
            height += g.size() * barH + gap;
        }
        int legendItem = 95;
        int width = Math.max(left + plot + 40, left + Impl.values().length * legendItem);
        StringBuilder s = new StringBuilder();
        s.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n",
                width, height + 30));
        s.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height + 30));
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>%n", left, escape(title)));
        // legend
        int lx = left;
        for (Impl impl : Impl.values()) {
            s.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"30\" width=\"10\" height=\"10\" fill=\"%s\"/>", lx,
                    COLOURS[impl.ordinal()]));
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"39\">%s</text>%n", lx + 14, impl.cliName()));
            lx += legendItem;
        }
        int axisBottom = height - 30;
        for (double tick : new double[] {0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100}) {
            double x = left + xOf(tick, plot);
            s.append(String.format(Locale.ROOT,
                    "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"%s\" stroke-width=\"%s\"/>%n", x, top, x,
                    axisBottom, tick == 1 ? "black" : "#ddd", tick == 1 ? "1.5" : "1"));
            s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x,
                    axisBottom + 14, tick < 1 ? tick + "x" : (int) tick + "x"));
        }
        int y = top + 5;
        for (Map.Entry<String, List<Compare.Row>> e : byWorkload.entrySet()) {
            double weft = Compare.weftMedian(rows, e.getKey());
            List<Compare.Row> g = e.getValue();
            s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", left - 6,
                    y + g.size() * barH / 2 + 4, escape(e.getKey())));
            for (Compare.Row r : g) {
                double ratio = r.median() / weft;
                String colour = colour(r.impl());
                if (!r.validated() || Double.isNaN(ratio)) {
                    s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"%s\">%s: %s</text>%n", left + 4,
                            y + barH - 1, colour, r.impl(), r.validated() ? "no Weft baseline" : "FAILED"));
                } else {
                    double w = xOf(Math.max(MIN_RATIO, Math.min(MAX_RATIO, ratio)), plot);
                    s.append(String.format(Locale.ROOT,
                            "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\"><title>%s %s: %.2fx (%s ms)</title></rect>%n",
                            left, y, w, barH - 1, colour, escape(r.workload()), r.impl(), ratio, Compare.fmt(r.median())));
                    s.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" font-size=\"8\">%.2f</text>%n",
                            left + w + 3, y + barH - 2, ratio));
                }
                y += barH;
            }
            y += gap;
        }
        s.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">bars start at 0.1x; log scale; 1x = Weft react</text>%n",
                left, height + 20));
        s.append("</svg>\n");
        Path parent = file.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(file, s);
    }

    private static double xOf(double ratio, int plot) {
        return (Math.log10(ratio) - Math.log10(MIN_RATIO)) / (Math.log10(MAX_RATIO) - Math.log10(MIN_RATIO)) * plot;
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
