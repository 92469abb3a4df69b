package dev.weft.bench;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JSON for JMH's result files and the profiler's reports, through Jackson: this class only fixes the
 * shapes the bench code works with.
 *
 * <p>Reading gives {@code Map<String, Object>} (insertion-ordered), {@code List<Object>},
 * {@code Double} (every number), {@code String}, {@code Boolean} or {@code null}; the bare words
 * {@code NaN}, {@code Infinity} and {@code -Infinity} that JMH writes are accepted as numbers. Writing
 * accepts the same types plus any {@link Number} and {@code long[]}, and writes non-finite doubles as
 * {@code null}, pretty-printed.
 */
public final class Json {
    private static final ObjectMapper MAPPER = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(SerializationFeature.INDENT_OUTPUT)
            .build();

    private Json() {}

    /**
     * Parses one JSON value.
     *
     * @throws IllegalArgumentException for malformed JSON or trailing text, with Jackson's location
     */
    public static Object parse(String text) {
        try {
            return plain(MAPPER.readTree(text));
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("JSON: " + e.getOriginalMessage() + " at " + e.getLocation(), e);
        }
    }

    /** Pretty-prints {@code value}. */
    public static String write(Object value) {
        try {
            return MAPPER.writeValueAsString(writable(value)) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON", e);
        }
    }

    /** A number read by {@link #parse}, or a string JMH wrote for one ({@code "NaN"}), as a double. */
    public static double number(Object value) {
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof String s) {
            return Double.parseDouble(s);
        }
        return Double.NaN;
    }

    /** {@code value} as an object, or an empty one if it is not. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> object(Object value) {
        return value instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    /** {@code value} as an array, or an empty one if it is not. */
    @SuppressWarnings("unchecked")
    public static List<Object> array(Object value) {
        return value instanceof List<?> l ? (List<Object>) l : List.of();
    }

    /** Jackson's tree as the plain shapes above: every number a Double. */
    private static Object plain(JsonNode n) {
        if (n.isObject()) {
            Map<String, Object> m = new LinkedHashMap<>();
            for (Map.Entry<String, JsonNode> e : n.properties()) {
                m.put(e.getKey(), plain(e.getValue()));
            }
            return m;
        }
        if (n.isArray()) {
            List<Object> l = new ArrayList<>(n.size());
            for (JsonNode v : n) {
                l.add(plain(v));
            }
            return l;
        }
        if (n.isNumber()) {
            return n.doubleValue();
        }
        if (n.isBoolean()) {
            return n.booleanValue();
        }
        return n.isNull() ? null : n.asText();
    }

    /** What Jackson should write for {@code value}: non-finite doubles as null, {@code long[]} as a list. */
    private static Object writable(Object value) {
        if (value instanceof Double d && !Double.isFinite(d) || value instanceof Float f && !Float.isFinite(f)) {
            return null;
        }
        if (value instanceof long[] longs) {
            List<Long> boxed = new ArrayList<>(longs.length);
            for (long l : longs) {
                boxed.add(l);
            }
            return boxed;
        }
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> m = new LinkedHashMap<>();
            map.forEach((k, v) -> m.put(String.valueOf(k), writable(v)));
            return m;
        }
        if (value instanceof List<?> list) {
            List<Object> l = new ArrayList<>(list.size());
            for (Object v : list) {
                l.add(writable(v));
            }
            return l;
        }
        if (value == null || value instanceof String || value instanceof Boolean || value instanceof Number) {
            return value;
        }
        throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON");
    }
}
