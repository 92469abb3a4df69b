package dev.weft.bench.profiler;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Inline SVG for {@link ProfileReport} and the streaming benchmark's report: plain markup, no script,
 * so the HTML opens anywhere. Series are colored by name: {@link ProfileReport#color} unless the
 * caller passes its own colors.
 */
public final class SvgCharts {
    private static final int WIDTH = 960;
    private static final int HEIGHT = 340;
    private static final int LEFT = 64;
    private static final int RIGHT = 20;
    private static final int TOP = 24;
    private static final int BOTTOM = 44;
    private static final int PLOT_W = WIDTH - LEFT - RIGHT;
    private static final int PLOT_H = HEIGHT - TOP - BOTTOM;
    private static final int BINS = 48;

    private SvgCharts() {
    }

    /** Frame time (ms, linear from 0 to {@code yMaxMs}) against frame number, one polyline per system. */
    static String frameTimes(List<SystemProfile> systems, double budgetMs, double yMaxMs, boolean budgetLine) {
        return frameTimes(systems, ProfileReport::color, budgetMs, yMaxMs, budgetLine);
    }

    /**
     * {@link #frameTimes(List, double, double, boolean)} with series colored by {@code colorOf} (a CSS
     * color for a {@link SystemProfile#system()} name).
     */
    public static String frameTimes(List<SystemProfile> systems, Function<String, String> colorOf, double budgetMs,
                                    double yMaxMs, boolean budgetLine) {
        int frames = systems.stream().mapToInt(SystemProfile::frames).max().orElse(1);
        double yMax = niceCeil(yMaxMs);
        StringBuilder svg = open("Frame time in milliseconds over frame number");
        double yStep = niceStep(yMax / 6);
        for (double v = 0; v <= yMax + 1e-9; v += yStep) {
            double y = TOP + PLOT_H - v / yMax * PLOT_H;
            gridLine(svg, LEFT, y, LEFT + PLOT_W, y);
            text(svg, LEFT - 6, y + 4, "end", trim(v));
        }
        double xStep = niceStep(Math.max(1, frames) / 8.0);
        for (double f = 0; f <= frames; f += xStep) {
            double x = LEFT + f / Math.max(1, frames - 1) * PLOT_W;
            if (x <= LEFT + PLOT_W + 0.5) {
                text(svg, x, TOP + PLOT_H + 16, "middle", trim(f));
            }
        }
        axisLabels(svg, "frame", "frame time (ms)");
        for (SystemProfile s : systems) {
            svg.append("<polyline fill=\"none\" stroke-width=\"1.2\" stroke=\"").append(colorOf.apply(s.system()))
                    .append("\" points=\"").append(points(s.frameTimesNs(), frames, yMax)).append("\"/>\n");
        }
        if (budgetLine && budgetMs <= yMax) {
            double y = TOP + PLOT_H - budgetMs / yMax * PLOT_H;
            budget(svg, LEFT, y, LEFT + PLOT_W, y, LEFT + PLOT_W - 4, y - 5, "end", budgetMs);
        }
        legend(svg, systems, colorOf);
        return close(svg);
    }

    /** Share of frames per logarithmic time bin, one outlined step curve per system, budget as a vertical line. */
    static String histogram(List<SystemProfile> systems, double budgetMs) {
        double min = systems.stream().flatMapToLong(s -> java.util.Arrays.stream(s.frameTimesNs())).min().orElse(1) / 1e6;
        double max = systems.stream().mapToDouble(SystemProfile::maxMs).max().orElse(1);
        double lo = Math.pow(10, Math.floor(Math.log10(Math.max(1e-3, min))));
        double hi = Math.max(max, budgetMs) * 1.25;
        double logLo = Math.log10(lo);
        double logSpan = Math.log10(hi) - logLo;
        double[][] share = new double[systems.size()][BINS];
        double top = 0;
        for (int k = 0; k < systems.size(); k++) {
            long[] t = systems.get(k).frameTimesNs();
            for (long ns : t) {
                double ms = Math.max(lo, ns / 1e6);
                int bin = Math.min(BINS - 1, (int) ((Math.log10(ms) - logLo) / logSpan * BINS));
                share[k][bin] += 100.0 / t.length;
            }
            for (double v : share[k]) {
                top = Math.max(top, v);
            }
        }
        double yMax = niceCeil(Math.max(1, top * 1.05));
        StringBuilder svg = open("Histogram of frame times, percent of frames per bin, logarithmic time axis");
        double yStep = niceStep(yMax / 5);
        for (double v = 0; v <= yMax + 1e-9; v += yStep) {
            double y = TOP + PLOT_H - v / yMax * PLOT_H;
            gridLine(svg, LEFT, y, LEFT + PLOT_W, y);
            text(svg, LEFT - 6, y + 4, "end", trim(v) + "%");
        }
        for (double decade = lo; decade <= hi; decade *= 10) {
            for (double m : new double[] {1, 2, 5}) {
                double v = decade * m;
                if (v < lo || v > hi) {
                    continue;
                }
                double x = LEFT + (Math.log10(v) - logLo) / logSpan * PLOT_W;
                gridLine(svg, x, TOP, x, TOP + PLOT_H);
                text(svg, x, TOP + PLOT_H + 16, "middle", trim(v));
            }
        }
        axisLabels(svg, "frame time (ms, log scale)", "frames");
        for (int k = 0; k < systems.size(); k++) {
            String c = ProfileReport.color(systems.get(k).system());
            StringBuilder d = new StringBuilder();
            d.append(String.format(Locale.ROOT, "M%.1f,%.1f", (double) LEFT, (double) TOP + PLOT_H));
            for (int b = 0; b < BINS; b++) {
                double x0 = LEFT + (double) b / BINS * PLOT_W;
                double x1 = LEFT + (double) (b + 1) / BINS * PLOT_W;
                double y = TOP + PLOT_H - share[k][b] / yMax * PLOT_H;
                d.append(String.format(Locale.ROOT, " L%.1f,%.1f L%.1f,%.1f", x0, y, x1, y));
            }
            d.append(String.format(Locale.ROOT, " L%.1f,%.1f Z", (double) LEFT + PLOT_W, (double) TOP + PLOT_H));
            svg.append("<path fill=\"").append(c).append("\" fill-opacity=\"0.15\" stroke=\"").append(c)
                    .append("\" stroke-width=\"1.5\" d=\"").append(d).append("\"/>\n");
        }
        double bx = LEFT + (Math.log10(budgetMs) - logLo) / logSpan * PLOT_W;
        budget(svg, bx, TOP, bx, TOP + PLOT_H, bx - 4, TOP + 12, "end", budgetMs);
        legend(svg, systems, ProfileReport::color);
        return close(svg);
    }

    /** Points of one series; above two points per pixel column, each column keeps its min and max so spikes survive. */
    private static String points(long[] ns, int frames, double yMax) {
        StringBuilder p = new StringBuilder();
        double xScale = (double) PLOT_W / Math.max(1, frames - 1);
        if (ns.length <= 2 * PLOT_W) {
            for (int i = 0; i < ns.length; i++) {
                point(p, LEFT + i * xScale, y(ns[i], yMax));
            }
            return p.toString().trim();
        }
        int i = 0;
        for (int col = 0; col < PLOT_W && i < ns.length; col++) {
            int end = (int) Math.min(ns.length, (long) (col + 1) * ns.length / PLOT_W);
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (; i < end; i++) {
                lo = Math.min(lo, ns[i]);
                hi = Math.max(hi, ns[i]);
            }
            if (lo <= hi) {
                point(p, LEFT + col, y(lo, yMax));
                point(p, LEFT + col, y(hi, yMax));
            }
        }
        return p.toString().trim();
    }

    private static double y(long ns, double yMax) {
        double ms = Math.min(ns / 1e6, yMax);
        return TOP + PLOT_H - ms / yMax * PLOT_H;
    }

    private static void point(StringBuilder p, double x, double y) {
        p.append(String.format(Locale.ROOT, "%.1f,%.1f ", x, y));
    }

    private static StringBuilder open(String title) {
        StringBuilder svg = new StringBuilder();
        svg.append("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"").append(WIDTH).append("\" height=\"").append(HEIGHT)
                .append("\" viewBox=\"0 0 ").append(WIDTH).append(' ').append(HEIGHT)
                .append("\" font-family=\"system-ui,sans-serif\" font-size=\"11\" role=\"img\">\n<title>")
                .append(ProfileReport.esc(title)).append("</title>\n")
                .append("<rect x=\"").append(LEFT).append("\" y=\"").append(TOP).append("\" width=\"").append(PLOT_W)
                .append("\" height=\"").append(PLOT_H).append("\" fill=\"#fafafa\" stroke=\"#999\"/>\n");
        return svg;
    }

    private static String close(StringBuilder svg) {
        return svg.append("</svg>\n").toString();
    }

    private static void axisLabels(StringBuilder svg, String x, String y) {
        text(svg, LEFT + PLOT_W / 2.0, HEIGHT - 8, "middle", x);
        svg.append(String.format(Locale.ROOT,
                "<text x=\"14\" y=\"%.1f\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">%s</text>\n",
                TOP + PLOT_H / 2.0, TOP + PLOT_H / 2.0, ProfileReport.esc(y)));
    }

    /** In the top margin, above the plot, so it never hides data. */
    private static void legend(StringBuilder svg, List<SystemProfile> systems, Function<String, String> colorOf) {
        double x = LEFT;
        for (SystemProfile s : systems) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%d\" width=\"12\" height=\"4\" fill=\"%s\"/>\n",
                    x, TOP - 14, colorOf.apply(s.system())));
            text(svg, x + 16, TOP - 9, "start", s.system());
            x += 24 + 7 * s.system().length() + 16;
        }
    }

    private static void budget(StringBuilder svg, double x1, double y1, double x2, double y2,
                               double tx, double ty, String anchor, double budgetMs) {
        svg.append(String.format(Locale.ROOT,
                "<line class=\"budget\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#d62728\" "
                        + "stroke-width=\"1.5\" stroke-dasharray=\"6 4\"/>\n", x1, y1, x2, y2));
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" fill=\"#d62728\">"
                + "budget %.2f ms</text>\n", tx, ty, anchor, budgetMs));
    }

    private static void gridLine(StringBuilder svg, double x1, double y1, double x2, double y2) {
        svg.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e3e3e3\"/>\n", x1, y1, x2, y2));
    }

    private static void text(StringBuilder svg, double x, double y, String anchor, String s) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
                x, y, anchor, ProfileReport.esc(s)));
    }

    /** 1, 2 or 5 times a power of ten, at least {@code raw}. */
    static double niceStep(double raw) {
        if (!(raw > 0)) {
            return 1;
        }
        double p = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 5, 10}) {
            if (m * p >= raw) {
                return m * p;
            }
        }
        return 10 * p;
    }

    /** The smallest multiple of a nice step (a tenth of the value's order) that is >= {@code v}. */
    static double niceCeil(double v) {
        if (!(v > 0)) {
            return 1;
        }
        double step = niceStep(v / 10);
        return Math.ceil(v / step) * step;
    }

    private static String trim(double v) {
        if (Math.abs(v - Math.rint(v)) < 1e-9) {
            return Long.toString(Math.round(v));
        }
        return String.format(Locale.ROOT, "%.3g", v).replaceAll("0+$", "").replaceAll("\\.$", "");
    }
}
