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
 * Parses a level file strictly with {@link LevelFile#parse}, and when that fails, repairs the text so the
 * level can still load with placeholders: every error becomes a {@link LoadFailure} (file and line as the
 * parser gave them), and the line is rewritten:
 * <ul>
 *   <li>a reference to an unknown asset: the asset is declared as a placeholder of the kind the
 *       reference needs (an entity's {@code texture=nope} gets a checker texture called {@code nope});</li>
 *   <li>a dependency cycle, or a collision built from something that is not a mesh: that collision is
 *       built from the placeholder cube instead;</li>
 *   <li>a reference to an asset of the wrong kind: the reference points at a shared placeholder;</li>
 *   <li>a malformed asset declaration whose name is readable: the asset becomes a placeholder;</li>
 *   <li>anything else (a malformed entity, a duplicate, an unknown statement): the line is dropped.</li>
 * </ul>
 * Placeholders are declared with paths under {@link AssetId#PLACEHOLDER_DIR}, which the asset manager
 * loads without I/O. A missing or wrong header cannot be repaired (it may not be a level file at all):
 * that error is thrown, and so is a file with more than {@value #MAX_REPAIRS} errors (more likely the wrong
 * file than a level worth loading). Pure and thread-safe, like the parser; in a job it checks for
 * cancellation and yields to more urgent work between repairs and between parses.
 *
 * <p>The repairs and their order are those of repairing one error at a time and parsing the whole text
 * again after each, but that cost lines x errors (a 20,000-line file with 150 bad lines took 10 s). So a
 * repair round parses once: the parser hands each bad line to {@link #repairLine} and parses its new text in
 * place ({@link LevelFileParser}), then the validator hands each cross-line error to {@link #repairModel}
 * and goes on ({@link LevelValidator}). A broken file costs three parses: the strict one that failed, one
 * round and a strict one of the repaired text, whatever the number of errors (a round more only if a
 * cross-line repair drops an asset's line, which takes that line's third error). {@code LevelFileSalvageTest}
 * checks both against that loop, kept in the tests.
 */
final class LevelFileSalvage {
    static final String PLACEHOLDER_CUBE = "__placeholder_cube";
    // A file with more errors than this is more likely the wrong file (another version, another format)
    // than a level worth loading with that many placeholders, and every error is a LoadFailure to log.
    // Repairs no longer cost a parse each, so this is not about time: a file of 5,000 bad lines is refused
    // after its 201st repair, within one parse.
    static final int MAX_REPAIRS = 200;
    // A round repairs every error it meets; the next is needed only after a cross-line repair removed an
    // asset, which takes the third error on that asset's line: more rounds than this means the repairs do
    // not converge.
    static final int MAX_ROUNDS = 8;
    private static final Pattern UNKNOWN = Pattern.compile("unknown asset '([^']+)'");
    private static final Pattern WRONG_KIND = Pattern.compile("'([^']+)' is a (\\w+) but '([^']+)' needs a (\\w+)");
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");

    /**
     * @param level        the parsed level (of the repaired text, if it needed repairs)
     * @param failures     one per repair, in the order found
     * @param placeholders names of assets that were declared as placeholders by a repair
     * @param parses       how many times the whole text was parsed (tests: not once per repair)
     */
    record Result(LevelFile level, List<LoadFailure> failures, Set<String> placeholders, int parses) {}

    private final String file;
    private final String levelName;
    private final CodecRegistry codecs;
    private final List<String> lines;                       // the original text, line by line, repaired in place
    private final List<String> extra = new ArrayList<>();   // placeholder declarations appended after it
    private final Set<String> declared = new LinkedHashSet<>();
    private final Map<Integer, Integer> repairsPerLine = new HashMap<>();
    private final List<LoadFailure> failures = new ArrayList<>();
    private LevelFileParser round;   // the model of the round under way
    private int extrasParsed;        // how many of `extra` the round's model has
    private int parses;

    private LevelFileSalvage(String levelName, String file, String text, CodecRegistry codecs) {
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
        return new LevelFileSalvage(levelName, file, text, codecs).run();
    }

    private Result run() {
        boolean strict = true;                           // a clean file costs one parse, as before
        for (int rounds = 0; ; rounds++) {
            // A parse of a big file is long: let a more urgent job have the worker between parses, and stop
            // when the level was unloaded meanwhile (both no-ops outside a job).
            Jobs.checkpoint();
            Jobs.checkCancelled();
            if (strict) {
                try {
                    parses++;
                    LevelFile level = LevelFile.parse(file, text(), codecs);
                    return new Result(level, List.copyOf(failures), Set.copyOf(declared), parses);
                } catch (AssetFormatException e) {
                    requireRepairable(e);
                }
            }
            if (rounds == MAX_ROUNDS) {
                throw new AssetFormatException(file, "still malformed after " + failures.size() + " repairs; giving up");
            }
            strict = repairRound();
        }
    }

    /**
     * Parses the text once, repairing every error on the way, in the order a strict parse of each repaired
     * text would report them.
     *
     * @return true if it went through; false if a repair removed an asset, so another round must check the
     *         references to it
     */
    private boolean repairRound() {
        parses++;
        extrasParsed = extra.size();                     // text() has them
        round = LevelFileParser.parse(file, text(), codecs, this::repairLine);
        parseNewExtras();                                // after the file's lines, where text() puts them
        return LevelValidator.repair(file, round, this::repairModel);
    }

    /** Repairs a line-local error: the parser parses the line's new text in its place. */
    private String repairLine(AssetFormatException e) {
        repairCounted(e);
        return lines.get(e.line() - 1);
    }

    /** Repairs a cross-line error and brings the round's model up to date with the new text. */
    private boolean repairModel(AssetFormatException e) {
        String before = lines.get(e.line() - 1);
        repairCounted(e);
        parseNewExtras();
        String after = lines.get(e.line() - 1);
        return after.equals(before) || !round.reparseLine(e.line(), after, this::repairLine);
    }

    private void parseNewExtras() {
        for (; extrasParsed < extra.size(); extrasParsed++) {
            round.parseLine(lines.size() + extrasParsed + 1, extra.get(extrasParsed), this::repairLine);
        }
    }

    private void repairCounted(AssetFormatException e) {
        requireRepairable(e);
        Jobs.checkpoint();
        Jobs.checkCancelled();
        repair(e);
        if (failures.size() > MAX_REPAIRS) {
            throw new AssetFormatException(file, "more than " + MAX_REPAIRS + " errors (the first: "
                    + failures.get(0).message() + "); not repaired further. Is it a level file of another"
                    + " version, or not a level file?");
        }
    }

    private void requireRepairable(AssetFormatException e) {
        if (e.line() <= 0 || e.line() > lines.size() || e.getMessage().contains("expected header")
                || e.getMessage().contains("empty level file")) {
            throw e;                                     // not a level file, or an error in our own lines
        }
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
