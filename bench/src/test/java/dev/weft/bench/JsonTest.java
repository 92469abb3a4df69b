package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
    @Test
    void writesAndReadsBack() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("name", "a \"quoted\"\n\\ name");
        m.put("int", 42);
        m.put("double", 0.000123);
        m.put("nan", Double.NaN);
        m.put("list", List.of(1, 2.5, "x"));
        m.put("longs", new long[] {1, 9_000_000_000L});
        m.put("empty", Map.of());
        m.put("flag", true);
        Map<String, Object> back = Json.object(Json.parse(Json.write(m)));
        assertEquals("a \"quoted\"\n\\ name", back.get("name"));
        assertEquals(42.0, Json.number(back.get("int")));
        assertEquals(0.000123, Json.number(back.get("double")));
        assertNull(back.get("nan"));
        assertEquals(List.of(1.0, 2.5, "x"), back.get("list"));
        assertEquals(List.of(1.0, 9.0e9), back.get("longs"));
        assertEquals(Map.of(), back.get("empty"));
        assertEquals(Boolean.TRUE, back.get("flag"));
    }

    @Test
    void acceptsJmhsNonFiniteWordsAndRejectsGarbage() {
        assertTrue(Double.isNaN(Json.number(Json.parse("NaN"))));
        assertEquals(Double.NEGATIVE_INFINITY, Json.number(Json.parse(" -Infinity ")));
        assertEquals(List.of("\u00e9"), Json.parse("[\"\\u00e9\"]"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("{\"a\": 1,}"));
        assertThrows(IllegalArgumentException.class, () -> Json.parse("[1] x"));
    }
}
