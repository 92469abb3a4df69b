package dev.weft.demo.game;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/** Reads the flat-with-one-nesting JSON that {@link RunSummary#toJson()} writes (numbers, booleans, strings, null, objects). */
final class SummaryJson {
    private final String s;
    private int i;

    private SummaryJson(String s) {
        this.s = s;
    }

    static Map<String, Object> read(Path file) throws IOException {
        return parse(Files.readString(file, StandardCharsets.UTF_8));
    }

    static Map<String, Object> parse(String json) {
        SummaryJson p = new SummaryJson(json.strip());
        Map<String, Object> m = p.object();
        if (p.i != p.s.length()) {
            throw new IllegalArgumentException("trailing text at " + p.i + ": " + json);
        }
        return m;
    }

    private Map<String, Object> object() {
        expect('{');
        Map<String, Object> m = new LinkedHashMap<>();
        skipSpace();
        if (peek() == '}') {
            i++;
            return m;
        }
        for (;;) {
            skipSpace();
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (m.put(key, value()) != null) {
                throw new IllegalArgumentException("duplicate key " + key);
            }
            skipSpace();
            char c = s.charAt(i++);
            if (c == '}') {
                return m;
            }
            if (c != ',') {
                throw new IllegalArgumentException("expected , or } at " + (i - 1) + " in " + s);
            }
        }
    }

    private Object value() {
        char c = peek();
        if (c == '{') {
            return object();
        }
        if (c == '"') {
            return string();
        }
        int start = i;
        while (i < s.length() && ",}".indexOf(s.charAt(i)) < 0 && !Character.isWhitespace(s.charAt(i))) {
            i++;
        }
        String token = s.substring(start, i);
        return switch (token) {
            case "true" -> Boolean.TRUE;
            case "false" -> Boolean.FALSE;
            case "null" -> null;
            default -> Double.parseDouble(token);
        };
    }

    private String string() {
        expect('"');
        StringBuilder sb = new StringBuilder();
        for (;;) {
            char c = s.charAt(i++);
            if (c == '"') {
                return sb.toString();
            }
            if (c == '\\') {
                char e = s.charAt(i++);
                switch (e) {
                    case 'n' -> sb.append('\n');
                    case 'r' -> sb.append('\r');
                    case 't' -> sb.append('\t');
                    case 'u' -> {
                        sb.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                        i += 4;
                    }
                    default -> sb.append(e);
                }
            } else {
                sb.append(c);
            }
        }
    }

    private void expect(char c) {
        if (i >= s.length() || s.charAt(i) != c) {
            throw new IllegalArgumentException("expected '" + c + "' at " + i + " in " + s);
        }
        i++;
    }

    private char peek() {
        return s.charAt(i);
    }

    private void skipSpace() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }
}
