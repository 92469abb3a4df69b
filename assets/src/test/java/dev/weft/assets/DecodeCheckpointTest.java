package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.*;

import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.Priority;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The decoders yield to FRAME work mid-decode ({@link DecodeCheckpoint} in {@link ObjParser}'s parse
 * loop and {@link BvhBuilder}'s build): on a single worker, a FRAME job submitted while a BACKGROUND job
 * parses the demo terrain (300,000 lines) or builds its BVH (100,352 triangles) runs before that decode
 * ends, and the worker counts a checkpoint yield. Without the checkpoints the FRAME job could only run
 * after the decode. Waiters do not help here (the test thread would run the FRAME job itself).
 */
@Timeout(120)
class DecodeCheckpointTest {
    private static final byte[] TERRAIN = Fixture.resource("demo/meshes/terrain.obj");

    @Test
    void objParsingYieldsToAFrameJob() throws Exception {
        assertFrameJobRunsMidDecode(done -> {
            ObjParser.parse("terrain.obj", TERRAIN);
            done.accept(null);
        });
    }

    @Test
    void bvhBuildingYieldsToAFrameJob() throws Exception {
        MeshData terrain = ObjParser.parse("terrain.obj", TERRAIN);
        assertFrameJobRunsMidDecode(done -> {
            CollisionMesh.build(terrain);
            done.accept(null);
        });
    }

    private static void assertFrameJobRunsMidDecode(Consumer<Consumer<Void>> decode) throws Exception {
        try (JobSystem jobs = JobSystem.builder().name("checkpoint").workers(1).waitersHelp(false).build()) {
            AtomicBoolean started = new AtomicBoolean();
            AtomicBoolean decoded = new AtomicBoolean();
            JobHandle<Void> background = jobs.submit(Priority.BACKGROUND, "decode", () -> {
                started.set(true);
                decode.accept(v -> decoded.set(true));
                return null;
            });
            while (!started.get()) {
                Thread.onSpinWait();
            }
            JobHandle<Boolean> frame = jobs.submit(Priority.FRAME, "frame", decoded::get);
            boolean decodedBeforeFrame = frame.join();
            background.join();
            assertTrue(decoded.get());
            assertFalse(decodedBeforeFrame, "the FRAME job waited for the whole decode: no checkpoint yielded");
            assertTrue(jobs.stats().checkpointYields() >= 1, jobs.stats().toString());
        }
    }
}
