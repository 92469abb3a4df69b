package dev.weft.assets;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The syntax half of {@link LevelFile#parse}: splits lines into statements and checks each on its own
 * (keywords, arity, names, paths, numbers, duplicates). Cross-references are {@link LevelValidator}'s job,
 * so an asset may be used on a line before the one that declares it.
 *
 * <p>Strict, it throws at the first bad line. Given a {@link LineRepair} ({@link LevelFileSalvage}), it hands
 * each error to it and parses the line's new text in its place before going on, so one pass over the file
 * reports and repairs every line-local error, in the order and with the messages a strict parse of each
 * repaired text would give: a line sees exactly the lines before it, as repaired. A failed line leaves no
 * trace in the model.
 */
final class LevelFileParser {
    /** What a repairing parse does with a bad line. */
    @FunctionalInterface
    interface LineRepair {
        /**
         * Repairs the line {@code error} names.
         *
         * @param error the error, with its 1-based line
         * @return the line's new text, parsed again in its place
         * @throws AssetFormatException to stop parsing (a file that cannot be repaired)
         */
        String repair(AssetFormatException error);
    }

    static final String HEADER = "weft-level 1";
    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,63}");
    private static final Pattern PATH = Pattern.compile("[A-Za-z0-9_.-]+(/[A-Za-z0-9_.-]+)*");
    // Plain decimals only: Float.parseFloat would also take "1f", "0x1p3" and "NaN".
    private static final Pattern DECIMAL = Pattern.compile("[-+]?+(?:\\d++\\.?+\\d*+|\\.\\d++)(?:[eE][-+]?+\\d++)?+");

    private final String file;
    private final CodecRegistry codecs;                          // which file extensions a kind accepts
    private final Map<String, LevelAsset> assets = new LinkedHashMap<>();
    private final Map<Integer, LevelEntity> entities = new LinkedHashMap<>();   // by line, in line order
    private final Map<String, Integer> entityLines = new HashMap<>();
    private final Map<Integer, String> assetLines = new HashMap<>();  // name of the asset a line declares
    private final Map<Integer, String> lines = new HashMap<>();   // statement text by line, for messages
    private boolean sawHeader;
    private String redeclaring;   // the asset of the line reparseLine is replacing: declaring it again is no duplicate

    private LevelFileParser(String file, CodecRegistry codecs) {
        this.file = file;
        this.codecs = codecs;
    }

    /** Parses strictly: throws {@link AssetFormatException} at the first bad line. */
    static LevelFileParser parse(String file, String text, CodecRegistry codecs) {
        return parse(file, text, codecs, null);
    }

    /**
     * Parses, handing each bad line to {@code repair} (strict if null); a missing header is thrown either way.
     */
    static LevelFileParser parse(String file, String text, CodecRegistry codecs, LineRepair repair) {
        LevelFileParser parser = new LevelFileParser(file, codecs);
        String[] rawLines = text.split("\r?\n", -1);
        for (int i = 0; i < rawLines.length; i++) {
            parser.parseLine(i + 1, rawLines[i], repair);
        }
        if (!parser.sawHeader) {
            throw new AssetFormatException(file, 1, "empty level file, expected '" + HEADER + "'");
        }
        return parser;
    }

    Map<String, LevelAsset> assets() {
        return assets;
    }

    List<LevelEntity> entities() {
        return new ArrayList<>(entities.values());
    }

    /** Statement text (comment stripped) by 1-based line number. */
    Map<Integer, String> lines() {
        return lines;
    }

    /**
     * Parses line {@code number} after the ones parsed so far (a repairing parse also parses the placeholder
     * declarations it appends after the file's lines this way), repairing it until it parses.
     */
    void parseLine(int number, String raw, LineRepair repair) {
        while (true) {
            try {
                line(number, raw);
                return;
            } catch (AssetFormatException e) {
                if (repair == null) {
                    throw e;
                }
                lines.remove(number);          // a dropped line has no statement to quote
                raw = repair.repair(e);
            }
        }
    }

    /**
     * Replaces line {@code number}, parsed before, with {@code raw}: forgets what it declared and parses the
     * new text (repairing it with {@code repair} if it is bad). An asset or entity the new text declares
     * again keeps its place in declaration order, where a parse of the whole new text would put it.
     *
     * @return true if an asset the line declared is gone, so references to it no longer resolve
     */
    boolean reparseLine(int number, String raw, LineRepair repair) {
        String asset = assetLines.remove(number);
        LevelEntity entity = entities.get(number);
        if (entity != null) {
            entityLines.remove(entity.name());
        }
        lines.remove(number);
        redeclaring = asset;
        try {
            parseLine(number, raw, repair);
        } finally {
            redeclaring = null;
        }
        if (entity != null && entities.get(number) == entity) {
            entities.remove(number);       // not declared again (the line was dropped): the old one is still there
        }
        boolean assetGone = asset != null && !asset.equals(assetLines.get(number));
        if (assetGone) {
            assets.remove(asset);
        }
        return assetGone;
    }

    private void line(int number, String raw) {
        int hash = raw.indexOf('#');
        String statement = (hash >= 0 ? raw.substring(0, hash) : raw).strip();
        if (statement.isEmpty()) {
            return;
        }
        lines.put(number, statement);
        String[] tokens = statement.split("[ \t]+");
        if (!sawHeader) {
            if (!String.join(" ", tokens).equals(HEADER)) {
                throw error(number, "expected header '" + HEADER + "' before '" + statement + "'");
            }
            sawHeader = true;
            return;
        }
        switch (tokens[0]) {
            case "collision" -> collision(number, tokens, statement);
            case "entity" -> entity(number, tokens, statement);
            case "weft-level" -> throw error(number, "header repeated: '" + statement + "'");
            default -> fileAsset(number, tokens, fileKindNamed(number, tokens[0], statement), statement);
        }
    }

    private AssetKind fileKindNamed(int number, String keyword, String statement) {
        for (AssetKind k : AssetKind.values()) {
            if (!k.isDerived() && k.keyword().equals(keyword)) {
                return k;
            }
        }
        throw error(number, "unknown statement '" + keyword + "' in '" + statement + "'");
    }

    private void fileAsset(int number, String[] tokens, AssetKind kind, String statement) {
        if (tokens.length != 3) {
            throw error(number, "expected '" + kind.keyword() + " <name> <path>' but got '" + statement + "'");
        }
        String path = tokens[2];
        if (!PATH.matcher(path).matches() || path.contains("..")) {
            throw error(number, "bad path '" + path + "' in '" + statement + "' (relative, '/'-separated, no '..')");
        }
        if (!codecs.accepts(kind, path)) {
            throw error(number, "bad path '" + path + "' in '" + statement + "': no " + kind.keyword()
                    + " codec for its extension; registered: " + codecs.registered(kind));
        }
        declare(number, new LevelAsset(name(number, tokens[1], statement), kind, path, List.of(), number));
    }

    private void collision(int number, String[] tokens, String statement) {
        if (tokens.length != 4 || !tokens[2].equals("from")) {
            throw error(number, "expected 'collision <name> from <mesh>' but got '" + statement + "'");
        }
        String source = name(number, tokens[3], statement);
        declare(number, new LevelAsset(name(number, tokens[1], statement), AssetKind.COLLISION, null, List.of(source), number));
    }

    private void entity(int number, String[] tokens, String statement) {
        if (tokens.length < 2 + 3) {
            throw error(number, "expected 'entity <name> mesh=<m> texture=<t> [collision=<c>] <x> <y> <z>' but got '"
                    + statement + "'");
        }
        String name = name(number, tokens[1], statement);
        Map<String, String> refs = new HashMap<>();
        // The position is the run of tokens without '=' at the end. Taking the last three whatever they were
        // reported a forgotten coordinate as a missing texture= (its texture= had become the x).
        int positionAt = tokens.length;
        while (positionAt > 2 && tokens[positionAt - 1].indexOf('=') < 0) {
            positionAt--;
        }
        int coordinates = tokens.length - positionAt;
        if (coordinates != 3) {
            throw error(number, "entity '" + name + "' has " + coordinates + " coordinates, needs 3 (<x> <y> <z>) in '"
                    + statement + "'");
        }
        for (int i = 2; i < positionAt; i++) {
            int eq = tokens[i].indexOf('=');
            String key = eq < 0 ? tokens[i] : tokens[i].substring(0, eq);
            if (eq < 0 || !(key.equals("mesh") || key.equals("texture") || key.equals("collision"))) {
                throw error(number, "expected mesh=, texture= or collision= but got '" + tokens[i] + "' in '" + statement + "'");
            }
            if (refs.put(key, name(number, tokens[i].substring(eq + 1), statement)) != null) {
                throw error(number, "'" + key + "=' given twice in '" + statement + "'");
            }
        }
        for (String required : List.of("mesh", "texture")) {
            if (!refs.containsKey(required)) {
                throw error(number, "entity '" + name + "' has no " + required + "= in '" + statement + "'");
            }
        }
        Integer previous = entityLines.get(name);
        if (previous != null) {
            throw error(number, "duplicate entity '" + name + "' (first declared on line " + previous + ")");
        }
        float x = coordinate(number, tokens[positionAt], statement);
        float y = coordinate(number, tokens[positionAt + 1], statement);
        float z = coordinate(number, tokens[positionAt + 2], statement);
        // Recorded only now that the line has parsed: a repairing parse goes on after a bad line, and a
        // dropped entity must not make a later one with its name a duplicate.
        entityLines.put(name, number);
        entities.put(number, new LevelEntity(name, refs.get("mesh"), refs.get("texture"), refs.get("collision"),
                x, y, z, number));
    }

    private void declare(int number, LevelAsset asset) {
        LevelAsset previous = assets.get(asset.name());
        if (previous != null && !asset.name().equals(redeclaring)) {
            throw error(number, "duplicate asset '" + asset.name() + "' (first declared on line " + previous.line() + ")");
        }
        assets.put(asset.name(), asset);   // a redeclared asset keeps its place: put does not move a key
        assetLines.put(number, asset.name());
    }

    private String name(int number, String token, String statement) {
        if (!NAME.matcher(token).matches()) {
            throw error(number, "bad name '" + token + "' in '" + statement + "' (letters, digits, _ . -; at most 64)");
        }
        return token;
    }

    private float coordinate(int number, String token, String statement) {
        float value = DECIMAL.matcher(token).matches() ? Float.parseFloat(token) : Float.NaN;
        if (!Float.isFinite(value)) {
            throw error(number, "bad coordinate '" + token + "' in '" + statement + "'");
        }
        return value;
    }

    private AssetFormatException error(int number, String detail) {
        return new AssetFormatException(file, number, escapeControls(shortenQuotes(detail)));
    }

    /**
     * {@code detail} with each control character as {@code \xNN}, as {@code ObjLineCursor} quotes an OBJ's
     * bytes: a level file's bad line (or a binary file loaded as a level) is quoted into the failure a game
     * logs, and raw it put ESC sequences, BEL and NUL there. Other text (UTF-8 in a level file) stays.
     */
    static String escapeControls(String detail) {
        StringBuilder sb = null;
        for (int i = 0; i < detail.length(); i++) {
            char c = detail.charAt(i);
            if (Character.isISOControl(c)) {
                if (sb == null) {
                    sb = new StringBuilder(detail.length() + 16).append(detail, 0, i);
                }
                sb.append(String.format("\\x%02x", (int) c));
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? detail : sb.toString();
    }

    // A quoted token or statement longer than this is cut in messages (a corrupt file can have a line of
    // megabytes); the possessive class keeps the scan linear.
    private static final int MAX_QUOTED_CHARS = 80;
    private static final Pattern LONG_QUOTE = Pattern.compile("'([^']{" + (MAX_QUOTED_CHARS + 1) + ",}+)'");

    /** {@code detail} with every quoted part over {@value #MAX_QUOTED_CHARS} characters cut, saying its length. */
    static String shortenQuotes(String detail) {
        return LONG_QUOTE.matcher(detail).replaceAll(m -> java.util.regex.Matcher.quoteReplacement(
                "'" + m.group(1).substring(0, MAX_QUOTED_CHARS - 20) + "...' (" + m.group(1).length() + " characters)"));
    }
}
