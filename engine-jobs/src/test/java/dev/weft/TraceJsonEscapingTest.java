package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The trace writer's hand-written escaper (the one left in the project: the demo's summary goes through
 * Jackson) against Jackson's reader, from the UTF-8 bytes a trace file holds: job names with quotes,
 * backslashes, control characters, a character outside the BMP and unpaired surrogates come back exactly.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TraceJsonEscapingTest {
    @Test
    @SuppressWarnings("unchecked")
    void jobNamesWithCharactersJsonMustEscapeRoundTripThroughJackson() throws Exception {
        List<String> names = List.of("say \"hi\"", "C:\\levels\\3", "tab\there\nnewline\r", "bell\u0007 nul\u0000",
                "crab \uD83E\uDD80 rock", "lone \uD800 high", "reversed \uDC00\uD800 pair", "back\bspace form\ffeed",
                "plain");
        try (JobSystem jobs = TestSupport.system(1)) {
            JobTrace trace = jobs.startTrace(1_000);
            Counter done = new Counter("named");
            for (String n : names) {
                jobs.run(Priority.NORMAL, n, () -> { }, done);
            }
            TestSupport.await(done);
            trace.stop();
            // As a file holds it: UTF-8 bytes, where a lone surrogate written raw would become '?'.
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (Writer out = new OutputStreamWriter(bytes, StandardCharsets.UTF_8)) {
                trace.writeChromeTrace(out);
            }
            Map<String, Object> root = new ObjectMapper().readValue(bytes.toByteArray(), Map.class);
            List<Map<String, Object>> events = (List<Map<String, Object>>) root.get("traceEvents");
            Map<String, Object> other = (Map<String, Object>) root.get("otherData");
            long startNanos = ((Number) other.get("startNanos")).longValue();   // to line up with -Xlog's timenanos
            assertTrue(startNanos <= System.nanoTime() && System.nanoTime() - startNanos < 600_000_000_000L, root.toString());
            List<Object> seen = events.stream().map(e -> e.get("name")).toList();
            for (String n : names) {
                assertTrue(seen.contains(n), "name " + escapedForMessage(n) + " did not round-trip: " + seen);
            }
        }
    }

    private static String escapedForMessage(String s) {
        StringBuilder b = new StringBuilder();
        s.chars().forEach(c -> b.append(c < 0x20 || Character.isSurrogate((char) c)
                ? String.format("\\u%04x", c) : String.valueOf((char) c)));
        return b.toString();
    }
}
