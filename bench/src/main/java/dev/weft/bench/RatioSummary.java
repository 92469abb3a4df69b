package dev.weft.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Turns one JMH JSON result file ({@code -rf json}) into a Markdown table of ratios between the
 * systems of the same run: for every benchmark and every combination of its other parameters, each
 * system's speedup against {@code forkjoin} and against {@code vthreads}, plus the allocation per
 * operation when the run used {@code -prof gc}, plus a worker-scaling table for benchmarks with a
 * {@code workers} parameter.
 *
 * <p>Speedup is reference time / system time for the time modes ({@code avgt}, {@code sample},
 * {@code ss}) and system / reference for {@code thrpt}: above 1 the system is faster.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.weft.bench.RatioSummary results.json [summary.md]}.
 */
public final class RatioSummary {
    /** The references every system is compared with. */
    public static final List<String> REFERENCES = List.of("forkjoin", "vthreads");
    private static final String ALLOC_NORM = "gc.alloc.rate.norm";

    private RatioSummary() {
    }

    /** One JMH result: a benchmark method at one combination of parameters. */
    public record Row(String benchmark, String mode, Map<String, String> params, String system,
                      double score, double error, String unit, double allocBytesPerOp) {
        /** Short name: {@code EmptyJobs.submitAndWait}. */
        public String shortName() {
            int method = benchmark.lastIndexOf('.');
            int cls = method > 0 ? benchmark.lastIndexOf('.', method - 1) : -1;
            return benchmark.substring(cls + 1);
        }

        /** Parameters other than {@code system}, as {@code k=v k=v}, empty when none. */
        public String otherParams() {
            return params.entrySet().stream()
                    .filter(e -> !e.getKey().equals("system"))
                    .map(e -> e.getKey() + "=" + e.getValue())
                    .collect(Collectors.joining(" "));
        }

        boolean higherIsBetter() {
            return mode.equals("thrpt");
        }
    }

    /** A row with its speedups; a speedup is {@code null} when that reference is absent from the run. */
    public record Comparison(Row row, Map<String, Double> speedupVs) {
    }

    /** The same system and other parameters at two worker counts. */
    public record Scaling(Row fewer, Row more) {
        /** How much faster {@code more} workers are: above 1 is faster. */
        public double speedup() {
            return ratio(more, fewer);
        }
    }

    public static List<Row> read(Path jmhJson) throws IOException {
        return parse(Files.readString(jmhJson));
    }

    public static List<Row> parse(String jmhJson) {
        List<Row> rows = new ArrayList<>();
        for (Object o : Json.array(Json.parse(jmhJson))) {
            Map<String, Object> result = Json.object(o);
            Map<String, String> params = new LinkedHashMap<>();
            Json.object(result.get("params")).forEach((k, v) -> params.put(k, String.valueOf(v)));
            Map<String, Object> primary = Json.object(result.get("primaryMetric"));
            Map<String, Object> alloc = Json.object(Json.object(result.get("secondaryMetrics")).get(ALLOC_NORM));
            rows.add(new Row(
                    String.valueOf(result.get("benchmark")),
                    String.valueOf(result.get("mode")),
                    params,
                    params.getOrDefault("system", "-"),
                    Json.number(primary.get("score")),
                    Json.number(primary.get("scoreError")),
                    String.valueOf(primary.get("scoreUnit")),
                    alloc.isEmpty() ? Double.NaN : Json.number(alloc.get("score"))));
        }
        return rows;
    }

    /** How much faster {@code row} is than {@code reference} (same benchmark and mode). */
    public static double ratio(Row row, Row reference) {
        if (!row.mode().equals(reference.mode())) {
            throw new IllegalArgumentException("modes differ: " + row.mode() + " vs " + reference.mode());
        }
        return row.higherIsBetter() ? row.score() / reference.score() : reference.score() / row.score();
    }

    /** Rows grouped by benchmark, mode and non-system parameters, each with its speedups. */
    public static List<Comparison> compare(List<Row> rows) {
        List<Comparison> out = new ArrayList<>();
        for (List<Row> group : groups(rows).values()) {
            for (Row row : group) {
                Map<String, Double> speedups = new LinkedHashMap<>();
                for (String ref : REFERENCES) {
                    Row reference = group.stream().filter(r -> r.system().equals(ref)).findFirst().orElse(null);
                    speedups.put(ref, reference == null ? null : ratio(row, reference));
                }
                out.add(new Comparison(row, speedups));
            }
        }
        return out;
    }

    /** For benchmarks with a {@code workers} parameter: the lowest against the highest worker count. */
    public static List<Scaling> scaling(List<Row> rows) {
        Map<String, List<Row>> bySystem = new LinkedHashMap<>();
        for (Row row : rows) {
            if (!row.params().containsKey("workers")) {
                continue;
            }
            Map<String, String> rest = new LinkedHashMap<>(row.params());
            rest.remove("workers");
            bySystem.computeIfAbsent(row.benchmark() + "|" + row.mode() + "|" + rest, k -> new ArrayList<>()).add(row);
        }
        List<Scaling> out = new ArrayList<>();
        for (List<Row> same : bySystem.values()) {
            if (same.size() < 2) {
                continue;
            }
            same.sort(Comparator.comparingInt(r -> Integer.parseInt(r.params().get("workers"))));
            out.add(new Scaling(same.getFirst(), same.getLast()));
        }
        return out;
    }

    /** The whole Markdown document. */
    public static String markdown(List<Row> rows, String title) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(title).append("\n\n");
        md.append("Speedup = reference time / system time (throughput modes: system / reference); ")
                .append("above 1 the system is faster than the reference. All figures come from the same run. ")
                .append("Alloc is `gc.alloc.rate.norm` (bytes per operation) when the run used `-prof gc`.\n");
        String current = null;
        for (Comparison c : compare(rows)) {
            Row r = c.row();
            if (!r.shortName().equals(current)) {
                current = r.shortName();
                md.append("\n## ").append(current).append(" (").append(r.mode()).append(")\n\n");
                md.append("| params | system | score | ± error | unit | alloc B/op |");
                REFERENCES.forEach(ref -> md.append(" vs ").append(ref).append(" |"));
                md.append("\n|---|---|---:|---:|---|---:|");
                REFERENCES.forEach(ref -> md.append("---:|"));
                md.append('\n');
            }
            md.append("| ").append(r.otherParams().isEmpty() ? "-" : r.otherParams())
                    .append(" | ").append(r.system())
                    .append(" | ").append(num(r.score()))
                    .append(" | ").append(num(r.error()))
                    .append(" | ").append(r.unit())
                    .append(" | ").append(Double.isNaN(r.allocBytesPerOp()) ? "-" : num(r.allocBytesPerOp()))
                    .append(" |");
            for (String ref : REFERENCES) {
                Double s = c.speedupVs().get(ref);
                md.append(' ').append(s == null ? "-" : ratioText(s)).append(" |");
            }
            md.append('\n');
        }
        List<Scaling> scaling = scaling(rows);
        if (!scaling.isEmpty()) {
            md.append("\n## Scaling with workers\n\n")
                    .append("Weft and fork-join honour `workers`; the default virtual-thread scheduler always has one ")
                    .append("carrier per available processor, so its rows should be about 1.\n\n")
                    .append("| benchmark | params | system | fewer workers | more workers | speedup |\n")
                    .append("|---|---|---|---:|---:|---:|\n");
            for (Scaling s : scaling) {
                Row f = s.fewer();
                Map<String, String> rest = new LinkedHashMap<>(f.params());
                rest.remove("workers");
                rest.remove("system");
                String params = rest.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(" "));
                md.append("| ").append(f.shortName())
                        .append(" | ").append(params.isEmpty() ? "-" : params)
                        .append(" | ").append(f.system())
                        .append(" | ").append(num(f.score())).append(' ').append(f.unit())
                        .append(" (workers=").append(f.params().get("workers")).append(")")
                        .append(" | ").append(num(s.more().score())).append(' ').append(s.more().unit())
                        .append(" (workers=").append(s.more().params().get("workers")).append(")")
                        .append(" | ").append(ratioText(s.speedup()))
                        .append(" |\n");
            }
        }
        return md.toString();
    }

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * The command line; 0 written, 1 the file holds no result, 2 a bad argument or an unreadable file.
     * Each failure is one line naming the file: the JDK's and the JSON parser's exceptions used to reach
     * the user as stack traces, {@code --help} was read as a file name, and a JSON file with no result
     * (a JMH run whose every benchmark failed writes {@code []}) gave an empty table and exit 0.
     */
    static int run(String[] args) {
        String usage = "usage: RatioSummary <jmh-result.json> [summary.md]";
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            System.out.println(usage);
            return 0;
        }
        if (args.length < 1 || args.length > 2 || args[0].startsWith("-")) {
            System.err.println(usage);
            return 2;
        }
        Path in = Path.of(args[0]);
        List<Row> rows;
        try {
            rows = read(in);
        } catch (IOException e) {
            System.err.println("RatioSummary: cannot read " + in + ": " + e);
            return 2;
        } catch (RuntimeException e) {                  // Json's IllegalArgumentException, a missing key
            System.err.println("RatioSummary: " + in + " is not a JMH JSON result file (-rf json): " + e.getMessage());
            return 2;
        }
        if (rows.isEmpty()) {
            System.err.println("RatioSummary: " + in + " holds no benchmark result (did every benchmark fail?); nothing written");
            return 1;
        }
        String md = markdown(rows, "Weft benchmarks: " + in.getFileName());
        if (args.length == 2) {
            try {
                Files.writeString(Path.of(args[1]), md);
            } catch (IOException e) {
                System.err.println("RatioSummary: cannot write " + args[1] + ": " + e);
                return 1;
            }
        } else {
            System.out.print(md);
        }
        return 0;
    }

    private static Map<String, List<Row>> groups(List<Row> rows) {
        Map<String, List<Row>> groups = new LinkedHashMap<>();
        for (Row row : rows) {
            String key = row.benchmark() + "|" + row.mode() + "|" + row.otherParams();
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(row);
        }
        for (List<Row> group : groups.values()) {
            group.sort(Comparator.comparingInt(r -> systemOrder(r.system())));
        }
        return groups;
    }

    private static int systemOrder(String system) {
        int i = Schedulers.SYSTEMS.indexOf(system);
        return i < 0 ? Schedulers.SYSTEMS.size() : i;
    }

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        double a = Math.abs(v);
        String pattern = a >= 100 ? "%.1f" : a >= 10 ? "%.2f" : a >= 1 ? "%.3f" : "%.4f";
        return String.format(Locale.ROOT, pattern, v);
    }

    static String ratioText(double ratio) {
        return String.format(Locale.ROOT, "%.2f×", ratio);
    }
}
