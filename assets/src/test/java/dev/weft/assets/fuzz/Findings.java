package dev.weft.assets.fuzz;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Defects found in a campaign, grouped by key (exception type and first parser frame, or the property
 * broken). The first inputs of each key are saved as {@code <dir>/<format>-<key hash>-<index>.<ext>},
 * with a {@code .txt} beside it saying what failed and how the input was made; copy a file into
 * {@code src/test/resources/dev/weft/assets/fuzz/<Format>FuzzTestInputs/<method>/} to keep it as a regression
 * (Jazzer replays it: {@link JazzerTargets}).
 */
final class Findings {
    private static final int SAVED_PER_KEY = 3;

    private final Path dir;
    private final Mutator.Format format;
    private final Map<String, Integer> byKey = new LinkedHashMap<>();
    private final List<Path> saved = new ArrayList<>();
    private int total;

    Findings(Path dir, Mutator.Format format) {
        this.dir = dir;
        this.format = format;
    }

    static String extension(Mutator.Format f) {
        return switch (f) {
            case PNG -> ".png";
            case OBJ -> ".obj";
            case LEVEL -> ".level";
        };
    }

    synchronized void add(Oracle.Defect d, Mutator.Input in, long index) {
        total++;
        int n = byKey.merge(d.key, 1, Integer::sum);
        if (n > SAVED_PER_KEY) {
            return;
        }
        String base = format.name().toLowerCase(java.util.Locale.ROOT) + "-"
                + Integer.toHexString(d.key.hashCode()) + "-" + index;
        try {
            Files.createDirectories(dir);
            Path input = dir.resolve(base + extension(format));
            Files.write(input, in.bytes());
            StringWriter report = new StringWriter();
            report.append("key: ").append(d.key).append('\n').append("input: #").append(Long.toString(index))
                    .append(" from seed file ").append(Integer.toString(in.seedIndex())).append(", edits: ")
                    .append(in.edits()).append('\n').append(d.getMessage()).append('\n');
            if (d.getCause() != null) {
                d.getCause().printStackTrace(new PrintWriter(report));
            }
            Files.writeString(dir.resolve(base + ".txt"), report.toString(), StandardCharsets.UTF_8);
            saved.add(input);
            System.out.println("FINDING " + d.key + " -> " + input + ": " + d.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    synchronized int total() {
        return total;
    }

    synchronized Map<String, Integer> keys() {
        return new LinkedHashMap<>(byKey);
    }

    synchronized List<Path> saved() {
        return List.copyOf(saved);
    }
}
