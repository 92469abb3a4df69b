package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.internal.InjectionQueue;
import dev.weft.internal.WorkStealingDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.ClassLayout;
import org.openjdk.jol.info.FieldLayout;

/**
 * The fields that different threads write sit at least 128 bytes (two cache lines: the adjacent-line
 * prefetcher pulls pairs) from every other field of their object and from both ends of the object (its
 * neighbours in the heap), as HotSpot really lays them out: read with JOL, not from the declarations.
 * Regression test: padding declared as {@code long p0..p7} between fields did not keep them apart
 * (HotSpot orders a class's own fields by size and puts a small one in the gap after the header): the
 * deque's {@code array} sat at offset 12, 68 bytes from {@code top}; the injection queue's {@code turn}
 * at 12, 68 bytes from {@code queue}; {@code Worker.parkState} at 96, between {@code rng} and
 * {@code pinnedCpu}.
 *
 * <p>JOL on JDK 25: {@code ClassLayout.parseClass} reads offsets with {@code Unsafe.objectFieldOffset},
 * which JDK 25 permits with one warning by default (the build sets no --sun-misc-unsafe-memory-access
 * flag since Weft itself uses no Unsafe: see UnsafeFreeTest); the warning is JOL's, in this test JVM only.
 * JOL's "Unable to get Instrumentation" warning is about its agent, which only sizing live object
 * graphs needs, not this test.
 */
class PaddingLayoutTest {
    private static final long APART_BYTES = 128;
    private static final Pattern PAD = Pattern.compile("p[0-9a-f]{1,2}");   // the padding fields' names

    @Test
    void dequeTopBottomAndArrayEachHaveTheirOwnLines() {
        ClassLayout layout = ClassLayout.parseClass(WorkStealingDeque.class);
        assertIsolated(layout, "top");
        assertIsolated(layout, "bottom", "topBound");      // owner-only, written only when bottom is
        assertIsolated(layout, "array");
    }

    @Test
    void jobDequeTopBottomAndArrayEachHaveTheirOwnLines() {
        ClassLayout layout = ClassLayout.parseClass(JobDeque.class);
        assertIsolated(layout, "top");
        assertIsolated(layout, "bottom", "topBound");      // owner-only, written only when bottom is
        assertIsolated(layout, "array", "overflow");       // read-mostly: overflow is written only when growth failed
    }

    @Test
    void injectionQueueTurnHasItsOwnLines() {
        assertIsolated(ClassLayout.parseClass(InjectionQueue.class), "turn");
    }

    @Test
    void workerParkStateIsAwayFromTheOwnersFields() {
        assertIsolated(ClassLayout.parseClass(Worker.class), "parkState");
    }

    /**
     * Fails, listing every violation and the layout, unless {@code name} is 128 bytes away from every other
     * field but the pads and {@code companions} (fields meant to share its line).
     */
    private static void assertIsolated(ClassLayout layout, String name, String... companions) {
        List<String> allowed = List.of(companions);
        FieldLayout hot = layout.fields().stream().filter(f -> f.name().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no field " + name + " in\n" + layout.toPrintable()));
        long at = hot.offset();
        List<String> tooClose = new ArrayList<>();
        if (at < APART_BYTES) {
            tooClose.add("the object's start (the object before it)");
        }
        if (layout.instanceSize() - at < APART_BYTES) {
            tooClose.add("the object's end at " + layout.instanceSize() + " (the object after it)");
        }
        for (FieldLayout f : layout.fields()) {
            if (f != hot && !PAD.matcher(f.name()).matches() && !allowed.contains(f.name())
                    && Math.abs(f.offset() - at) < APART_BYTES) {
                tooClose.add(f.name() + " at " + f.offset());
            }
        }
        assertTrue(tooClose.isEmpty(), name + " at offset " + at + " is less than " + APART_BYTES
                + " bytes from " + String.join(", ", tooClose) + "\n" + layout.toPrintable());
    }
}
