package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The trace writer's hand-written escaper (the one left in the project: the demo's summary goes through
 * Jackson) against Jackson's reader: job names with quotes, backslashes, control characters and a
 * character outside the BMP come back exactly.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TraceJsonEscapingTest {
    @Test
    @SuppressWarnings("unchecked")
    void jobNamesWithCharactersJsonMustEscapeRoundTripThroughJackson() throws Exception {
        List<String> names = List.of("say \"hi\"", "C:\\levels\\3", "tab\there\nnewline\r", "bell\u0007 nul\u0000",
                "crab \uD83E\uDD80 rock", "plain");
        try (JobSystem jobs = TestSupport.system(1)) {
            JobTrace trace = jobs.startTrace(1_000);
            Counter done = new Counter("named");
            for (String n : names) {
                jobs.run(Priority.NORMAL, n, () -> { }, done);
            }
            TestSupport.await(done);
            trace.stop();
            StringWriter out = new StringWriter();
            trace.writeChromeTrace(out);
            Map<String, Object> root = new ObjectMapper().readValue(out.toString(), Map.class);
            List<Map<String, Object>> events = (List<Map<String, Object>>) root.get("traceEvents");
            List<Object> seen = events.stream().map(e -> e.get("name")).toList();
            for (String n : names) {
                assertTrue(seen.contains(n), "name " + n.replace("\u0000", "\\0") + " did not round-trip: " + seen);
            }
        }
    }
}
