package dev.weft.assets;

import dev.weft.Jobs;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The repair loop {@link LevelFileSalvage} had before it repaired in one pass: one error at a time, the
 * whole text parsed again after each. Kept as the oracle: the new one must make the same repairs and report
 * them in the same order with the same messages. Changed since: each shared placeholder is declared once,
 * as in {@link LevelFileSalvage} (declared twice, it refused the level).
 */
final class OneByOneSalvage {
    static final String PLACEHOLDER_CUBE = LevelFileSalvage.PLACEHOLDER_CUBE;
    static final int MAX_REPAIRS = LevelFileSalvage.MAX_REPAIRS;
    private static final Pattern UNKNOWN = Pattern.compile("unknown asset '([^']+)'");
    private static final Pattern WRONG_KIND = Pattern.compile("'([^']+)' is a (\\w+) but '([^']+)' needs a (\\w+)");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

    /**
     * @param level        the parsed level (of the repaired text, if it needed repairs)
     * @param failures     one per repair, in the order found
     * @param placeholders names of assets that were declared as placeholders by a repair
     */
    record Result(LevelFile level, List<LoadFailure> failures, Set<String> placeholders) {}

    private final String file;
    private final String levelName;
    private final CodecRegistry codecs;
    private final List<String> lines;                       // the original text, line by line, repaired in place
    private final List<String> extra = new ArrayList<>();   // placeholder declarations appended after it
    private final Set<String> declared = new LinkedHashSet<>();
    private final Map<Integer, Integer> repairsPerLine = new HashMap<>();
    private final List<LoadFailure> failures = new ArrayList<>();

    private OneByOneSalvage(String levelName, String file, String text, CodecRegistry codecs) {
        this.levelName = levelName;
        this.codecs = codecs;
        this.file = file;
        this.lines = new ArrayList<>(Arrays.asList(text.split("\r?\n", -1)));
    }

    /**
     * @throws AssetFormatException if the file has no valid header, or repairs do not converge
     */
    static Result parse(String levelName, String file, byte[] utf8, CodecRegistry codecs) {
        String text = new String(utf8, StandardCharsets.UTF_8);
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        return new OneByOneSalvage(levelName, file, text, codecs).run();
    }

    private Result run() {
        int budget = lines.size() * 3 + 8;              // each line is repaired at most twice, then dropped
        for (int attempt = 0; attempt < budget; attempt++) {
            if (failures.size() > MAX_REPAIRS) {
                throw new AssetFormatException(file, "more than " + MAX_REPAIRS + " errors (the first: "
                        + failures.get(0).message() + "); not repaired further. Is it a level file of another"
                        + " version, or not a level file?");
            }
            // Each repair parses the whole text again: let a more urgent job have the worker between
            // parses, and stop when the level was unloaded meanwhile (both no-ops outside a job).
            Jobs.checkpoint();
            Jobs.checkCancelled();
            try {
                LevelFile level = LevelFile.parse(file, text(), codecs);
                return new Result(level, List.copyOf(failures), Set.copyOf(declared));
            } catch (AssetFormatException e) {
                if (e.line() <= 0 || e.line() > lines.size() || e.getMessage().contains("expected header")
                        || e.getMessage().contains("empty level file")) {
                    throw e;                             // not a level file, or an error in our own lines
                }
                repair(e);
            }
        }
        throw new AssetFormatException(file, "still malformed after " + failures.size() + " repairs; giving up");
    }

    private String text() {
        if (extra.isEmpty()) {
            return String.join("\n", lines);
        }
        return String.join("\n", lines) + "\n" + String.join("\n", extra);
    }

    private void repair(AssetFormatException e) {
        int index = e.line() - 1;
        String statement = strip(lines.get(index));
        String[] tokens = statement.split("[ \t]+");
        int repairs = repairsPerLine.merge(e.line(), 1, Integer::sum);
        Matcher unknown = UNKNOWN.matcher(e.getMessage());
        Matcher wrongKind = WRONG_KIND.matcher(e.getMessage());
        String did;
        if (repairs > 2) {
            did = drop(index);
        } else if (unknown.find()) {
            String name = unknown.group(1);
            AssetKind kind = kindReferenced(tokens, name);
            if (kind != null && NAME.matcher(name).matches()) {
                declarePlaceholder(kind, name);
                did = "declared '" + name + "' as a placeholder " + kind.keyword();
            } else {
                did = drop(index);
            }
        } else if (e.getMessage().contains("dependency cycle") && tokens[0].equals("collision") && tokens.length >= 2) {
            did = collisionFromCube(index, tokens[1]);
        } else if (wrongKind.find()) {
            String where = wrongKind.group(3);
            AssetKind needed = kindNamed(wrongKind.group(4));
            if (where.equals("from") && tokens[0].equals("collision") && tokens.length >= 2) {
                did = collisionFromCube(index, tokens[1]);
            } else if (where.endsWith("=") && needed != null) {
                String shared = "__placeholder_" + needed.keyword();
                for (int i = 0; i < tokens.length; i++) {
                    if (tokens[i].equals(where + wrongKind.group(1))) {
                        tokens[i] = where + shared;
                    }
                }
                lines.set(index, String.join(" ", tokens));
                if (!declared.contains(shared)) {        // declared twice, it refused the level as a duplicate
                    declarePlaceholder(needed, shared);
                }
                did = "'" + where + "' now uses a placeholder " + needed.keyword();
            } else {
                did = drop(index);
            }
        } else if (e.getMessage().contains("duplicate")) {
            did = drop(index);
        } else if (tokens.length >= 2 && kindNamed(tokens[0]) != null && NAME.matcher(tokens[1]).matches()) {
            AssetKind kind = kindNamed(tokens[0]);
            if (kind == AssetKind.COLLISION) {
                did = collisionFromCube(index, tokens[1]);
            } else {
                lines.set(index, declaration(kind, tokens[1]));
                declared.add(tokens[1]);
                did = "'" + tokens[1] + "' is a placeholder " + kind.keyword();
            }
        } else {
            did = drop(index);
        }
        failures.add(new LoadFailure(levelName, file, e.line(), e.getMessage() + "; " + did, e));
    }

    private String drop(int index) {
        lines.set(index, "# dropped by the loader: " + lines.get(index).replace('#', ' '));
        return "line ignored";
    }

    private String collisionFromCube(int index, String name) {
        lines.set(index, "collision " + name + " from " + PLACEHOLDER_CUBE);
        declareCube();
        declared.add(name);
        return "'" + name + "' is built from the placeholder cube";
    }

    private void declarePlaceholder(AssetKind kind, String name) {
        if (kind == AssetKind.COLLISION) {
            declareCube();
            extra.add("collision " + name + " from " + PLACEHOLDER_CUBE);
        } else {
            extra.add(declaration(kind, name));
        }
        declared.add(name);
    }

    private void declareCube() {
        if (!declared.contains(PLACEHOLDER_CUBE)) {
            extra.add(declaration(AssetKind.MESH, PLACEHOLDER_CUBE));
            declared.add(PLACEHOLDER_CUBE);
        }
    }

    /** A placeholder declaration: its path has the first extension registered for {@code kind}, so it parses. */
    private String declaration(AssetKind kind, String name) {
        List<String> extensions = codecs.registered(kind);
        String extension = extensions.isEmpty() ? "" : extensions.get(0);
        return kind.keyword() + " " + name + " " + AssetId.PLACEHOLDER_DIR + name + extension;
    }

    /** The kind a statement needs {@code name} to be: from {@code key=name}, or a collision's {@code from name}. */
    private static AssetKind kindReferenced(String[] tokens, String name) {
        if (tokens[0].equals("collision")) {
            return AssetKind.MESH;
        }
        for (String t : tokens) {
            int eq = t.indexOf('=');
            if (eq > 0 && t.substring(eq + 1).equals(name)) {
                return kindNamed(t.substring(0, eq));
            }
        }
        return null;
    }

    private static AssetKind kindNamed(String keyword) {
        for (AssetKind k : AssetKind.values()) {
            if (k.keyword().equals(keyword)) {
                return k;
            }
        }
        return null;
    }

    private static String strip(String raw) {
        int hash = raw.indexOf('#');
        return (hash >= 0 ? raw.substring(0, hash) : raw).strip();
    }
}
