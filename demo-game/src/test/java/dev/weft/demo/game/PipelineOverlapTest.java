package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.demo.DemoMain;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code --pipeline} really overlaps the stages, read from the recorded {@code --trace}: frame N+1's
 * simulate job (the top-level simulate range job, the first {@code parallelFor[0, ENTITIES)} slice of
 * its graph) overlaps frame N's draw and present (the main thread's {@value GameLoop#PRESENT_SPAN}
 * span). Without {@code --pipeline} no job of frame N+1 overlaps it: N+1 is submitted after N's present.
 *
 * <p>Nothing depends on speed. A headless draw takes microseconds, less than a parked worker takes to
 * wake, so on a few frames a hook makes the two meet: frame N's present waits (on the main thread,
 * inside the span) until frame N+1's first simulate range has started, and that range waits (spinning,
 * so its slice stays open) until N's present has begun. Pipelined, both waits end at once; plain, N+1
 * cannot start before N's present, so the present's wait gives up after {@link #GIVE_UP_NANOS} and the
 * frames stay apart, which is what the plain test checks and what a broken pipeline would show.
 */
class PipelineOverlapTest {
    static final int FRAMES = 40;
    static final int ENTITIES = 2000;
    static final Set<Long> MEETING_FRAMES = Set.of(10L, 20L, 30L);   // frame N's present meets N+1's simulate
    static final long GIVE_UP_NANOS = 1_000_000_000L;

    @TempDir
    Path tmp;

    @Test
    void pipelinedFrameNPlusOneSimulatesWhileFrameNIsDrawnAndPresented() throws Exception {
        List<Long> overlaps = overlaps(true);
        assertTrue(overlaps.containsAll(MEETING_FRAMES), "with --pipeline, frame N+1's simulate job should overlap"
                + " frame N's draw/present at least for N in " + MEETING_FRAMES + "; overlapping: " + overlaps);
    }

    @Test
    void plainFramesDoNotOverlap() throws Exception {
        assertEquals(List.of(), overlaps(false), "without --pipeline no job of frame N+1 may overlap N's draw/present");
    }

    /** The frames N whose draw/present overlaps frame N+1's simulate job (plain: any job of N+1's graph). */
    private List<Long> overlaps(boolean pipeline) throws Exception {
        Path trace = tmp.resolve("frames.trace.json");
        AtomicLong presenting = new AtomicLong(-1);    // frame whose present has begun (main thread writes)
        AtomicLong simulating = new AtomicLong(-1);    // frame whose first simulate range has begun (a worker writes)
        GameConfig cfg = GameConfig.builder().loading(DemoMain::pipelineLoading).headless(true).frames(FRAMES)
                .entities(ENTITIES).workers(2).level("tiny").pipeline(pipeline).trace(trace)
                .assetLatency(Duration.ZERO).out(new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
                .stageHook(new FrameStage.Hook() {
                    @Override
                    public void onRange(FrameStage stage, long frame, int start, int end) {
                        if (stage == FrameStage.SIMULATE && start == 0) {
                            simulating.set(frame);
                            if (MEETING_FRAMES.contains(frame - 1)) {
                                spinUntil(() -> presenting.get() >= frame - 1);
                            }
                        }
                    }

                    @Override
                    public void onPresent(long frame) {
                        presenting.set(frame);
                        if (MEETING_FRAMES.contains(frame)) {
                            spinUntil(() -> simulating.get() >= frame + 1);
                        }
                    }
                }).build();
        RunSummary summary = Game.run(cfg);
        assertEquals(FRAMES, summary.frames());

        TraceSlices t = TraceSlices.read(trace);
        List<TraceSlices.Slice> presents = t.named(GameLoop.PRESENT_SPAN);
        List<TraceSlices.Slice> roots = t.named("frame");     // first slices only: resumptions are "frame (resumed)"
        assertEquals(FRAMES, presents.size(), "one draw/present span per gameplay frame");
        assertEquals(FRAMES, roots.size(), "one root job per gameplay frame (warm-up's are '" + WarmUp.ROOT_JOB_NAME + "')");
        List<TraceSlices.Slice> warm = t.named(WarmUp.ROOT_JOB_NAME);
        assertTrue(!warm.isEmpty() && presents.getFirst().beginMicros() > warm.getLast().endMicros(),
                "the warm-up graph ran, and was over before the first gameplay frame was drawn");
        String topRange = "parallelFor[0, " + ENTITIES + ")";
        List<Long> out = new ArrayList<>();
        for (int n = 0; n + 1 < FRAMES; n++) {
            double from = roots.get(n + 1).beginMicros();
            double to = n + 2 < FRAMES ? roots.get(n + 2).beginMicros() : Double.MAX_VALUE;
            List<TraceSlices.Slice> graph = t.slices().stream()
                    .filter(s -> s.track() < 2 && s.beginMicros() >= from && s.beginMicros() < to).toList();
            long frameAfter = n + 1;
            // The top range may run on a worker or, helping while it waits, on the main thread (its track is
            // the last); only job slices of the workers can overlap the main thread's own present.
            TraceSlices.Slice simulate = t.slices().stream()
                    .filter(s -> s.beginMicros() >= from && s.beginMicros() < to && s.name().equals(topRange))
                    .findFirst().orElseThrow(() -> new AssertionError("no " + topRange + " slice between the roots of frames " + frameAfter + " and the next"));
            TraceSlices.Slice present = presents.get(n);
            boolean overlap = pipeline ? simulate.overlaps(present)
                    : graph.stream().anyMatch(s -> s.overlaps(present));
            if (overlap) {
                out.add((long) n);
            }
        }
        return out;
    }

    static void spinUntil(java.util.function.BooleanSupplier condition) {
        long deadline = System.nanoTime() + GIVE_UP_NANOS;
        while (!condition.getAsBoolean() && System.nanoTime() - deadline < 0) {
            Thread.onSpinWait();
        }
    }
}
