package dev.weft.assets;

import dev.weft.JobSystem;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.locks.LockSupport;

/**
 * A chunk stream with much churn, on the public API only (a probe, not a test; prints its figures): a
 * 60 Hz loop sweeps the point across the shipped 8 x 8 world and back at {@code args[1]} metres a frame
 * for {@code args[0]} frames, the look-ahead 30 frames ahead, with the README's radii (40 m load, 55 m
 * unload) and uploads as main-thread jobs within 2 ms a frame, then holds the point still until no chunk
 * loads. It counts mesh and texture uploads, and of those the ones whose asset never appeared in a
 * resident chunk (uploaded for a chunk that was unloaded before it loaded: GL work wasted). Textures
 * depend on nothing, meshes also have a collision job waiting on them (which kept a released mesh's upload
 * until {@code ReleasedCollisionUploadTest}'s fix).
 *
 * <pre>
 * java --add-opens java.base/java.lang=ALL-UNNAMED --enable-native-access=ALL-UNNAMED \
 *   -cp &lt;assets classes, test classes, engine-jobs classes, dependencies&gt; dev.weft.assets.ChunkChurn 1800 1.5
 * </pre>
 */
public final class ChunkChurn {
    private static final long FRAME_NANOS = 16_666_667;

    private ChunkChurn() {}

    private static int notIn(Set<Object> uploaded, Set<Object> resident) {
        Set<Object> wasted = Collections.newSetFromMap(new IdentityHashMap<>());
        wasted.addAll(uploaded);
        wasted.removeAll(resident);
        return wasted.size();
    }

    public static void main(String[] args) {
        int frames = Integer.parseInt(args[0]);
        float metresPerFrame = Float.parseFloat(args[1]);
        Set<Object> meshesUploaded = Collections.newSetFromMap(new IdentityHashMap<>());   // main thread only
        Set<Object> meshesResident = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Object> texturesUploaded = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<Object> texturesResident = Collections.newSetFromMap(new IdentityHashMap<>());
        GpuUploader gpu = new GpuUploader() {
            @Override
            public Object uploadTexture(TextureSource pixels) {
                Object handle = new Object();
                texturesUploaded.add(handle);
                return handle;
            }

            @Override
            public Object uploadMesh(MeshSource mesh) {
                Object handle = new Object();
                meshesUploaded.add(handle);
                return handle;
            }

            @Override
            public void free(Object handle) {
            }
        };
        try (JobSystem jobs = JobSystem.builder().name("chunk churn").workers(2).build()) {
            jobs.bindMainThread();
            ChunkStreamer.Stats s;
            int kept;
            long frameStart = System.nanoTime();
            try (AssetManager assets = AssetManager.builder(jobs).uploader(gpu).build();
                 ChunkStreamer world = new ChunkStreamer(new LevelLoader(assets), ChunkGrid.shippedWorld(), 40f, 55f)) {
                float x = -90f;
                float direction = 1f;
                int settleFrames = 0;
                for (int f = 0; f < frames || world.isStreaming() && settleFrames++ < 1_200; f++) {
                    if (f < frames) {
                        x += direction * metresPerFrame;
                        if (x > 90f || x < -90f) {
                            direction = -direction;
                        }
                    }
                    float ahead = f < frames ? x + direction * metresPerFrame * 30 : x;
                    world.update(x, 0f, ahead, 0f);
                    for (LoadedLevel chunk : world.resident()) {
                        for (LoadedMesh m : chunk.meshes().values()) {
                            m.gpu().ifPresent(meshesResident::add);
                        }
                        for (LoadedTexture t : chunk.textures().values()) {
                            t.gpu().ifPresent(texturesResident::add);
                        }
                    }
                    jobs.runMainThreadJobs(2_000_000);
                    frameStart += FRAME_NANOS;
                    long wait = frameStart - System.nanoTime();
                    if (wait > 0) {
                        LockSupport.parkNanos(wait);
                    } else {
                        frameStart = System.nanoTime();   // late: start the next frame now
                    }
                }
                s = world.stats();
                kept = world.resident().size();
            }
            jobs.runMainThreadJobs(Long.MAX_VALUE / 4);   // the frees close() queued
            System.out.printf("ChunkChurn: %d frames at %.2f m/frame: %d mesh uploads (%d never in a resident chunk),"
                            + " %d texture uploads (%d never in a resident chunk); %d chunks kept at the end; chunks"
                            + " requested %d, loaded %d, unloaded %d (cancelled mid-load %d)%n",
                    frames, metresPerFrame, meshesUploaded.size(), notIn(meshesUploaded, meshesResident),
                    texturesUploaded.size(), notIn(texturesUploaded, texturesResident), kept,
                    s.chunksRequested(), s.chunksLoaded(), s.chunksUnloaded(), s.chunksCancelled());
        }
    }
}
