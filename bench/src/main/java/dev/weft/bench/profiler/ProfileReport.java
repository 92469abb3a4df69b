package dev.weft.bench.profiler;

import dev.weft.bench.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The profiler's output: a percentile table as Markdown and JSON, and a self-contained HTML page with
 * inline SVG charts (frame time over frame number per system, a frame-time histogram, the budget line).
 * Pure formatting: everything it writes is computed from the {@link SystemProfile}s it is given.
 */
public final class ProfileReport {
    public static final String MARKDOWN = "frame-profile.md";
    public static final String JSON = "frame-profile.json";
    public static final String HTML = "frame-profile.html";

    /** Percentiles in the tables, with the JSON member names they are written under. */
    static final double[] PERCENTILES = {50, 90, 99, 99.9};
    static final String[] PERCENTILE_KEYS = {"p50Ms", "p90Ms", "p99Ms", "p999Ms"};

    /**
     * How the frames were produced.
     *
     * @param hz 0 when frames ran back to back
     */
    public record Config(int frames, int warmupFrames, int entities, int grain, int workers, double hz,
                         long budgetNanos, String java, int cpus) {
        public double budgetMs() {
            return budgetNanos / 1e6;
        }

        String cadence() {
            return hz > 0 ? String.format(Locale.ROOT, "fixed %.0f Hz cadence", hz) : "frames back to back (uncapped)";
        }

        String describe() {
            return String.format(Locale.ROOT,
                    "%d frames after %d warm-up frames, %d entities, grain %d, %d workers (weft, forkjoin), %s, "
                            + "budget %.2f ms, JDK %s, %d CPUs.",
                    frames, warmupFrames, entities, grain, workers, cadence(), budgetMs(), java, cpus);
        }
    }

    private final Config config;
    private final List<SystemProfile> systems;

    public ProfileReport(Config config, List<SystemProfile> systems) {
        this.config = config;
        this.systems = List.copyOf(systems);
    }

    /** Writes {@value #MARKDOWN}, {@value #JSON} and {@value #HTML} into {@code dir} (created if needed). */
    public void writeTo(Path dir) throws IOException {
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(MARKDOWN), markdown());
        Files.writeString(dir.resolve(JSON), json());
        Files.writeString(dir.resolve(HTML), html());
    }

    boolean checksumsAgree() {
        return systems.stream().map(SystemProfile::checksum).distinct().count() <= 1;
    }

    public String markdown() {
        StringBuilder md = new StringBuilder("# Frame-time profile\n\n").append(config.describe()).append("\n\n");
        md.append("| system | frames | p50 ms | p90 ms | p99 ms | p99.9 ms | max ms | mean ms | over budget |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SystemProfile s : systems) {
            md.append("| ").append(s.system()).append(" | ").append(s.frames());
            for (double p : PERCENTILES) {
                md.append(" | ").append(ms(s.percentileMs(p)));
            }
            md.append(" | ").append(ms(s.maxMs())).append(" | ").append(ms(s.meanMs()))
                    .append(" | ").append(s.framesOver(config.budgetNanos())).append(" |\n");
        }
        md.append('\n').append(checksumsAgree()
                ? "All systems computed the same entity state (equal checksums).\n"
                : "WARNING: the systems' checksums differ, so they did not do the same work.\n");
        return md.toString();
    }

    public String json() {
        Map<String, Object> root = new LinkedHashMap<>();
        Map<String, Object> cfg = new LinkedHashMap<>();
        cfg.put("frames", config.frames());
        cfg.put("warmupFrames", config.warmupFrames());
        cfg.put("entities", config.entities());
        cfg.put("grain", config.grain());
        cfg.put("workers", config.workers());
        cfg.put("hz", config.hz());
        cfg.put("java", config.java());
        cfg.put("cpus", config.cpus());
        root.put("config", cfg);
        root.put("budgetMs", config.budgetMs());
        root.put("checksumsAgree", checksumsAgree());
        List<Object> list = new ArrayList<>();
        for (SystemProfile s : systems) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("system", s.system());
            m.put("frames", s.frames());
            for (int i = 0; i < PERCENTILES.length; i++) {
                m.put(PERCENTILE_KEYS[i], s.percentileMs(PERCENTILES[i]));
            }
            m.put("maxMs", s.maxMs());
            m.put("meanMs", s.meanMs());
            m.put("framesOverBudget", s.framesOver(config.budgetNanos()));
            m.put("checksum", Long.toHexString(s.checksum()));
            m.put("frameTimesNs", s.frameTimesNs());
            list.add(m);
        }
        root.put("systems", list);
        return Json.write(root);
    }

    public String html() {
        StringBuilder h = new StringBuilder();
        h.append(htmlHead("Weft frame-time profile")).append("<p>").append(esc(config.describe())).append("</p>\n");
        h.append("<table>\n<tr><th>system</th><th>frames</th><th>p50 ms</th><th>p90 ms</th><th>p99 ms</th>")
                .append("<th>p99.9 ms</th><th>max ms</th><th>mean ms</th><th>over budget</th></tr>\n");
        for (SystemProfile s : systems) {
            h.append("<tr><td><span style=\"color:").append(color(s.system())).append("\">&#9632;</span> ")
                    .append(esc(s.system())).append("</td><td>").append(s.frames()).append("</td>");
            for (double p : PERCENTILES) {
                h.append("<td>").append(ms(s.percentileMs(p))).append("</td>");
            }
            h.append("<td>").append(ms(s.maxMs())).append("</td><td>").append(ms(s.meanMs())).append("</td><td>")
                    .append(s.framesOver(config.budgetNanos())).append("</td></tr>\n");
        }
        h.append("</table>\n<p class=\"note\">").append(checksumsAgree()
                ? "All systems computed the same entity state (equal checksums)."
                : "WARNING: the systems' checksums differ, so they did not do the same work.").append("</p>\n");

        double maxMs = systems.stream().mapToDouble(SystemProfile::maxMs).max().orElse(0);
        h.append("<h2>Frame time per frame</h2>\n");
        h.append(SvgCharts.frameTimes(systems, config.budgetMs(), Math.max(config.budgetMs() * 1.1, maxMs * 1.05), true));
        if (maxMs < config.budgetMs() / 2 && maxMs > 0) {
            h.append("<h2>Frame time per frame, zoomed to the slowest frame</h2>\n")
                    .append("<p class=\"note\">The budget line is above this range.</p>\n")
                    .append(SvgCharts.frameTimes(systems, config.budgetMs(), maxMs * 1.05, false));
        }
        h.append("<h2>Frame-time distribution</h2>\n<p class=\"note\">Share of frames per bin; bins are ")
                .append("evenly spaced on a logarithmic time axis.</p>\n");
        h.append(SvgCharts.histogram(systems, config.budgetMs()));
        h.append("</body>\n</html>\n");
        return h.toString();
    }

    /** The page up to and including the {@code <h1>} title: the shared style for tables, charts and notes. */
    public static String htmlHead(String title) {
        return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
                + "<title>" + esc(title) + "</title>\n<style>\n"
                + "body{font-family:system-ui,sans-serif;margin:24px;color:#222;max-width:1000px}\n"
                + "table{border-collapse:collapse;margin:12px 0}td,th{border:1px solid #ccc;padding:4px 10px;text-align:right}\n"
                + "th:first-child,td:first-child{text-align:left}svg{display:block;margin:8px 0 24px}\n"
                + ".note{color:#555;font-size:90%}\n</style>\n</head>\n<body>\n"
                + "<h1>" + esc(title) + "</h1>\n";
    }

    static String color(String system) {
        return switch (system) {
            case "weft" -> "#1f77b4";
            case "forkjoin" -> "#ff7f0e";
            case "vthreads" -> "#2ca02c";
            default -> "#7f7f7f";
        };
    }

    /** Milliseconds with three decimals, as every table here prints them. */
    public static String ms(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** Escapes text for HTML content and attribute values. */
    public static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
