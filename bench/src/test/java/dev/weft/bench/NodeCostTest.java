package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import picocli.CommandLine;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** {@link NodeCost}: the node count it divides by, its order statistics, and its refusal of bad input. */
class NodeCostTest {

    @Test
    void countsEveryCallOfTheFibTree() {
        assertEquals(1, NodeCost.nodes(0));
        assertEquals(1, NodeCost.nodes(1));
        assertEquals(3, NodeCost.nodes(2));
        assertEquals(57_313, NodeCost.nodes(Fib.N));   // as the Fib benchmark's Javadoc says
        assertEquals(Fib.EXPECTED, NodeCost.fibPlain(Fib.N));
    }

    @ParameterizedTest
    @ValueSource(strings = {"counter", "handle", "fork"})
    void measuresEachStyleOnWeft(String style) {
        try (SchedulerUnderTest weft = Schedulers.create("weft", 2)) {
            NodeCost.Result r = NodeCost.measure(weft, style, 2, 12, 5, 20);
            assertEquals(20, r.sortedNsPerNode().length);
            assertTrue(r.min() > 0 && r.min() <= r.p10() && r.p10() <= r.median(), r.line());
            assertTrue(r.line().startsWith("weft " + style + " workers=2 fib(12): ns/node min "), r.line());
        }
    }

    @Test
    void refusesAnUnknownStyleAndNoSamples() {
        try (SchedulerUnderTest fj = Schedulers.create("forkjoin", 1)) {
            assertThrows(IllegalArgumentException.class, () -> NodeCost.measure(fj, "fibonacci", 1, 5, 0, 3));
            assertThrows(IllegalArgumentException.class, () -> NodeCost.measure(fj, "fork", 1, 5, 0, 0));
        }
    }

    /** A bad option is refused before any scheduler starts: exit 2, one line naming it, no stack trace. */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "--n=-1          | --n -1: must be from 0 to 32",
        "--n=60          | --n 60: must be from 0 to 32",
        "--samples=0     | --samples 0: must be at least 1",
        "--style=bogus   | --style bogus: use one of",
        "--system=bogus  | --system bogus: use one of",
        "--workers=0     | --workers 0: must be from 1 to 1024"})
    void aBadOptionIsRefusedNamingIt(String option, String expected) {
        StringWriter err = new StringWriter();
        int exit = assertTimeoutPreemptively(Duration.ofMinutes(1),     // hang guard: --n 60 never ends
                () -> new CommandLine(new NodeCost()).setErr(new PrintWriter(err, true)).execute(option));
        assertEquals(2, exit, option + ": " + err);
        assertTrue(err.toString().startsWith(expected), option + ": " + err);
    }
}
