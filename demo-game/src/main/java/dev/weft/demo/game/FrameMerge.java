package dev.weft.demo.game;

import dev.weft.JobSystem;
import dev.weft.demo.render.DrawList;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.Texture;
import java.util.Arrays;
import org.joml.FrustumIntersection;

/**
 * The frame graph's merge stage: the workers' chunks in range-start order, then the props the frustum
 * sees, placed by a stable counting sort on the material key (mesh, texture) straight into the output
 * slot, and the renderer's {@link DrawList} filled from it. The order depends only on range starts and
 * material keys, never on which worker ran what, so a seed gives the same commands for any worker count.
 *
 * <p>Single writer: everything here is touched only by the merge job (one per frame, after the build
 * counter), except {@link #mergesRun()}, read by the main thread once the graph is idle (after the
 * frame's join).
 */
final class FrameMerge {
    private final JobSystem jobs;
    private final WorkerCommands[] workerCommands;
    private final FrameGraph.Props props;
    private final FrameGraph.Gpu gpu;
    private final int textureIdCount;
    private final int keyCount;                     // meshIdCount * textureIdCount material keys
    private final FrameGraph.MainThreadReport report;
    private final int reportEvery;

    private long[] chunkKeys = new long[64];
    private final int[] keyStarts;
    private final boolean[] propVisible;
    private long mergesRun;

    FrameMerge(FrameGraph.Setup s, FrameGraph.Props props, WorkerCommands[] workerCommands) {
        this.jobs = s.jobs();
        this.workerCommands = workerCommands;
        this.props = props;
        this.gpu = s.gpu();
        this.textureIdCount = s.textureIdCount();
        this.keyCount = s.meshIdCount() * s.textureIdCount();
        this.report = s.report();
        this.reportEvery = s.reportEvery();
        this.keyStarts = new int[keyCount + 1];
        this.propVisible = new boolean[props.count()];
    }

    /** The merge job's body: {@code out} gets the sorted commands, the draws and the visible counts. */
    void merge(FrameGraph.Output out, FrustumIntersection frustum) {
        // Chunks in range-start order: key = start << 32 | worker << 20 | chunk.
        int chunks = 0;
        for (WorkerCommands wc : workerCommands) {
            chunks += wc.chunks;
        }
        if (chunkKeys.length < chunks) {
            chunkKeys = new long[Math.max(chunks, chunkKeys.length * 2)];
        }
        int k = 0;
        for (int w = 0; w < workerCommands.length; w++) {
            WorkerCommands wc = workerCommands[w];
            for (int c = 0; c < wc.chunks; c++) {
                chunkKeys[k++] = (long) wc.chunkStart[c] << 32 | (long) w << 20 | c;
            }
        }
        Arrays.sort(chunkKeys, 0, k);

        // Props the frustum sees.
        int propsSeen = 0;
        float[] pb = props.bounds();
        for (int p = 0; p < props.count(); p++) {
            int o = p * 6;
            boolean in = frustum.testAab(pb[o], pb[o + 1], pb[o + 2], pb[o + 3], pb[o + 4], pb[o + 5]);
            propVisible[p] = in;
            propsSeen += in ? 1 : 0;
        }

        // Counting sort, pass 1: commands per material key.
        int[] starts = keyStarts;
        Arrays.fill(starts, 0);
        int total = 0;
        for (int j = 0; j < k; j++) {
            WorkerCommands wc = workerCommands[(int) (chunkKeys[j] >>> 20) & 0xFFF];
            int c = (int) (chunkKeys[j] & 0xFFFFF);
            CommandBuffer b = wc.buffer;
            for (int i = wc.chunkOffset[c], end = i + wc.chunkCount[c]; i < end; i++) {
                starts[b.mesh[i] * textureIdCount + b.texture[i] + 1]++;
            }
            total += wc.chunkCount[c];
        }
        for (int p = 0; p < props.count(); p++) {
            if (propVisible[p]) {
                starts[props.meshIds()[p] * textureIdCount + props.textureIds()[p] + 1]++;
            }
        }
        for (int key = 0; key < keyCount; key++) {
            starts[key + 1] += starts[key];
        }

        // Pass 2: place every command at its key's next slot.
        CommandBuffer sorted = out.commands;
        sorted.clear();
        sorted.ensureCapacity(total + propsSeen);
        sorted.count = total + propsSeen;
        for (int j = 0; j < k; j++) {
            WorkerCommands wc = workerCommands[(int) (chunkKeys[j] >>> 20) & 0xFFF];
            int c = (int) (chunkKeys[j] & 0xFFFFF);
            CommandBuffer b = wc.buffer;
            for (int i = wc.chunkOffset[c], end = i + wc.chunkCount[c]; i < end; i++) {
                int dst = starts[b.mesh[i] * textureIdCount + b.texture[i]]++;
                place(sorted, dst, b.mesh[i], b.texture[i], b.entity[i], b.model, i);
            }
        }
        for (int p = 0; p < props.count(); p++) {
            if (propVisible[p]) {
                int dst = starts[props.meshIds()[p] * textureIdCount + props.textureIds()[p]]++;
                place(sorted, dst, props.meshIds()[p], props.textureIds()[p], -1, props.models(), p);
            }
        }
        out.visibleEntities = total;
        out.visibleProps = propsSeen;
        DrawList draws = out.draws;
        draws.clear();
        if (gpu != null) {
            draws.ensureCapacity(sorted.count);
            Mesh[] meshes = gpu.meshes();
            Texture[] textures = gpu.textures();
            for (int i = 0; i < sorted.count; i++) {
                draws.add(meshes[sorted.mesh[i]], textures[sorted.texture[i]], sorted.model, i * CommandBuffer.MATRIX_FLOATS);
            }
        }
        mergesRun++;

        if (report != null && out.frame % reportEvery == 0) {
            long f = out.frame;
            int seen = out.visibleEntities;
            int seenProps = out.visibleProps;
            long[] stages = out.stageNanos.clone();          // merge's own time is not in yet: 0
            jobs.onMainThread("frame report", () -> {
                report.frameDone(f, seen, seenProps, stages);
                return null;
            });
        }
    }

    private static void place(CommandBuffer to, int dst, int mesh, int texture, int entity, float[] models, int src) {
        to.mesh[dst] = mesh;
        to.texture[dst] = texture;
        to.entity[dst] = entity;
        System.arraycopy(models, src * CommandBuffer.MATRIX_FLOATS, to.model, dst * CommandBuffer.MATRIX_FLOATS,
                CommandBuffer.MATRIX_FLOATS);
    }

    /** Merges run, one per frame. Exact once the graph is idle. */
    long mergesRun() {
        return mergesRun;
    }
}
