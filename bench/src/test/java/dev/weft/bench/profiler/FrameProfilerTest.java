package dev.weft.bench.profiler;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.bench.Json;
import dev.weft.bench.RangeBody;
import dev.weft.bench.Schedulers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/** The frame job graph gives the same world on every system as run inline; the entry point writes its files. */
class FrameProfilerTest {
    private static final Duration HANG = Duration.ofMinutes(2);
    static final List<String> SYSTEMS = Schedulers.SYSTEMS;

    /** Runs each stage inline on the calling thread, in graph order: the reference result. */
    private static final class Inline implements FrameScheduler {
        @Override
        public String name() {
            return "inline";
        }

        @Override
        public Stage parallelFor(String name, int count, int grain, RangeBody body, Stage... after) {
            body.run(0, count);
            return () -> { };
        }

        @Override
        public void close() {
        }
    }

    private static long checksumAfterFrames(FrameScheduler s, int frames) {
        return new FrameProfiler(2_000, 64, 7).run(s, 0, frames, 0).checksum();
    }

    @ParameterizedTest
    @FieldSource("SYSTEMS")
    void everySystemComputesTheInlineWorld(String system) {
        long expected = checksumAfterFrames(new Inline(), 20);
        for (int workers = 1; workers <= 2; workers++) {
            try (FrameScheduler s = FrameScheduler.create(system, workers)) {
                assertEquals(system, s.name());
                long actual = assertTimeoutPreemptively(HANG, () -> checksumAfterFrames(s, 20));
                assertEquals(expected, actual, system + " workers=" + workers);
            }
        }
    }

    @Test
    void theWorldChangesAndSomethingIsVisible() {
        FrameWorkload w = new FrameWorkload(2_000, 7);
        long before = w.checksum();
        FrameProfiler p = new FrameProfiler(2_000, 64, 7);
        FrameScheduler inline = new Inline();
        for (int f = 0; f < 10; f++) {
            p.runFrame(inline, w, f);
        }
        assertTrue(before != w.checksum());
        int visible = w.visibleCount();
        assertTrue(visible > 0 && visible < 2_000, "the camera sees part of the world: " + visible);
    }

    @Test
    void fastSinIsCloseToSin() {
        for (double x = -20; x < 20; x += 0.01) {
            assertEquals(Math.sin(x), FrameWorkload.fastSin((float) x), 2e-3, "x=" + x);
        }
    }

    @Test
    void mainWritesTheReport(@TempDir Path out) throws Exception {
        int code = assertTimeoutPreemptively(HANG, () -> FrameProfilerMain.run(
                "--frames", "4", "--warmup", "1", "--entities", "500", "--grain", "64", "--uncapped",
                "--systems", String.join(",", SYSTEMS), "--out", out.toString()));
        assertEquals(0, code, "0 = ran, and every system computed the same world");
        Map<String, Object> json = Json.object(Json.parse(Files.readString(out.resolve(ProfileReport.JSON))));
        List<Object> systems = Json.array(json.get("systems"));
        assertEquals(SYSTEMS.size(), systems.size());
        for (Object o : systems) {
            Map<String, Object> s = Json.object(o);
            assertEquals(4, (int) Json.number(s.get("frames")));
            assertEquals(4, Json.array(s.get("frameTimesNs")).size());
            assertTrue(Json.number(s.get("p50Ms")) <= Json.number(s.get("maxMs")));
        }
        assertTrue(Files.readString(out.resolve(ProfileReport.HTML)).contains("<svg"));
        assertTrue(Files.readString(out.resolve(ProfileReport.MARKDOWN)).contains("| p50 ms |"));
    }
}
