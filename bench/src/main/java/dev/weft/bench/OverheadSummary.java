package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The table {@link RecordingOverheadMain} writes: per configuration (submitter, workers) and round, the time per job with the
 * hooks live and compiled out and their ratio, then the median ratio over the rounds against the
 * budget of {@value #BUDGET}. A ratio compares two forks of the same round, run back to back.
 */
final class OverheadSummary {
    /** Hooks live / compiled out may be at most this (issue: "recording off costs at most 2%"). */
    static final double BUDGET = 1.02;

    /** One fork's score: {@code nsPerJob} for a variant and config in a round. */
    record Sample(int round, String variant, String config, double nsPerJob) {
    }

    /** A config's result: the ratios of its complete rounds, in round order, and their median. */
    record Verdict(String config, List<Double> ratios, double median) {
        boolean withinBudget() {
            return median <= BUDGET;
        }
    }

    private OverheadSummary() {
    }

    /** Per config, the ratio present / compiled-out of every round that has both. */
    static List<Verdict> verdicts(List<Sample> samples) {
        List<Verdict> out = new ArrayList<>();
        pairs(samples).forEach((config, rounds) -> {
            List<Double> ratios = new ArrayList<>();
            rounds.values().forEach(p -> {
                if (!Double.isNaN(p[0]) && !Double.isNaN(p[1])) {
                    ratios.add(p[0] / p[1]);
                }
            });
            if (!ratios.isEmpty()) {
                out.add(new Verdict(config, List.copyOf(ratios), median(ratios)));
            }
        });
        return out;
    }

    /** config -> round -> {hooks live, compiled out} ns/job (NaN where a fork is missing). */
    private static Map<String, Map<Integer, double[]>> pairs(List<Sample> samples) {
        Map<String, Map<Integer, double[]>> byConfig = new TreeMap<>();
        for (Sample s : samples) {
            double[] pair = byConfig.computeIfAbsent(s.config(), k -> new TreeMap<>())
                    .computeIfAbsent(s.round(), k -> new double[] {Double.NaN, Double.NaN});
            pair[RecordingOverheadMain.PRESENT.equals(s.variant()) ? 0 : 1] = s.nsPerJob();
        }
        return byConfig;
    }

    static double median(List<Double> xs) {
        List<Double> sorted = new ArrayList<>(xs);
        sorted.sort(null);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }

    static String markdown(List<Sample> samples, String title) {
        StringBuilder md = new StringBuilder("# ").append(title).append("\n\n");
        md.append("Ratio = ns/job with the hooks live / ns/job with `-Dweft.internal.observationHooks=false` ")
                .append("(the JIT folds the hooks away), same round, forks back to back. Budget: median ratio <= ")
                .append(fmt(BUDGET)).append(".\n\n");
        md.append("| configuration | round | hooks live ns/job | compiled out ns/job | ratio |\n|---|---:|---:|---:|---:|\n");
        pairs(samples).forEach((config, rounds) -> rounds.forEach((round, p) -> md.append("| ").append(config)
                .append(" | ").append(round + 1).append(" | ").append(fmt(p[0])).append(" | ").append(fmt(p[1]))
                .append(" | ").append(fmt(p[0] / p[1])).append(" |\n")));
        md.append("\n| configuration | median ratio | min | max | within budget |\n|---|---:|---:|---:|---|\n");
        for (Verdict v : verdicts(samples)) {
            md.append("| ").append(v.config()).append(" | ").append(fmt(v.median()))
                    .append(" | ").append(fmt(v.ratios().stream().mapToDouble(Double::doubleValue).min().orElseThrow()))
                    .append(" | ").append(fmt(v.ratios().stream().mapToDouble(Double::doubleValue).max().orElseThrow()))
                    .append(" | ").append(v.withinBudget() ? "yes" : "**no**").append(" |\n");
        }
        return md.toString();
    }

    private static String fmt(double x) {
        return Double.isNaN(x) ? "-" : String.format(Locale.ROOT, "%.3f", x);
    }
}
