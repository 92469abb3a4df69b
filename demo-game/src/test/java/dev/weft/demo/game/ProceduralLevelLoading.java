package dev.weft.demo.game;

import dev.weft.Counter;
import dev.weft.JobCancelledException;
import dev.weft.JobFailedException;
import dev.weft.JobGroup;
import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.Priority;
import dev.weft.assets.MeshSource;
import dev.weft.assets.ProceduralMeshes;
import dev.weft.demo.render.ProceduralTextures;
import dev.weft.assets.TextureSource;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A {@link LevelLoading} that generates its levels ({@code demo}, {@code tiny}) instead of reading
 * files (a test stand-in for {@code PipelineLevelLoading}): one BACKGROUND job per asset, all in one
 * {@link JobGroup} (so {@link Handle#cancel()} stops them), and an assemble job that joins them and
 * builds the collision world.
 *
 * <p>Every asset first "reads" its file: its job hands a request to a single fake I/O thread, which
 * serves requests one after another and takes {@code latencyPerAsset} for each, and the job parks its
 * fiber on a {@link Counter} until the request is served, freeing the worker for frame work. So a
 * level with {@code n} assets takes at least {@code n * latencyPerAsset} to load, and the frame loop
 * keeps ticking meanwhile. Then the job generates the asset's data (real CPU work).
 *
 * <p>{@code failingAssets} is a test seam: those assets fail after their read, and the level is
 * assembled with placeholders in their place and a failure for each.
 */
public final class ProceduralLevelLoading implements LevelLoading {
    private final JobSystem jobs;
    private final long latencyNanos;
    private final Set<String> failingAssets;

    /** Loads with {@code latencyPerAsset} of fake I/O per asset. */
    public ProceduralLevelLoading(JobSystem jobs, Duration latencyPerAsset) {
        this(jobs, latencyPerAsset, Set.of());
    }

    /** As {@link #ProceduralLevelLoading(JobSystem, Duration)}, with the named assets failing. */
    public ProceduralLevelLoading(JobSystem jobs, Duration latencyPerAsset, Set<String> failingAssets) {
        this.jobs = Objects.requireNonNull(jobs, "jobs");
        if (latencyPerAsset.isNegative()) {
            throw new IllegalArgumentException("latency must not be negative: " + latencyPerAsset);
        }
        this.latencyNanos = latencyPerAsset.toNanos();
        this.failingAssets = Set.copyOf(failingAssets);
    }

    @Override
    public Handle start(String levelName) {
        Load load = new Load(levelName);
        Optional<ProceduralLevels.Recipe> recipe = ProceduralLevels.recipe(levelName);
        if (recipe.isEmpty()) {
            load.failures.add(new AssetFailure(levelName, "no such level (procedural levels: "
                    + String.join(", ", ProceduralLevels.NAMES) + ")", null));
        } else {
            load.begin(recipe.get());
        }
        return load;
    }

    private final class Load implements Handle {
        private final String levelName;
        private final long startNanos = System.nanoTime();
        private final JobGroup group;
        private final Counter done;                                   // 1 while the assemble job is pending
        private final AtomicReference<Progress> progress = new AtomicReference<>(new Progress(0, 0, 0, 0));
        private final ConcurrentLinkedQueue<AssetFailure> failures = new ConcurrentLinkedQueue<>();
        private final ConcurrentLinkedQueue<AssetTiming> timings = new ConcurrentLinkedQueue<>();
        private final ThreadPoolExecutor io;                          // the fake disk: one request at a time
        private volatile Level level;                                 // written by assemble before done drops

        Load(String levelName) {
            this.levelName = levelName;
            this.group = jobs.newGroup("load " + levelName);
            this.done = new Counter("load " + levelName);
            this.io = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "weft-fake-io " + levelName);
                t.setDaemon(true);
                return t;
            });
        }

        void begin(ProceduralLevels.Recipe recipe) {
            long bytes = recipe.assets().stream().mapToLong(ProceduralLevels.AssetRecipe::bytes).sum();
            progress.set(new Progress(0, bytes, 0, recipe.assets().size() + 1));   // + the collision world
            List<JobHandle<Object>> handles = new ArrayList<>();
            for (ProceduralLevels.AssetRecipe a : recipe.assets()) {
                handles.add(group.submit(Priority.BACKGROUND, "load " + a.name(), () -> loadAsset(a)));
            }
            group.run(Priority.BACKGROUND, "assemble " + levelName, () -> assemble(recipe, handles), done);
        }

        private Object loadAsset(ProceduralLevels.AssetRecipe asset) throws IOException {
            long t0 = System.nanoTime();
            try {
                if (latencyNanos > 0) {
                    Counter read = new Counter("read " + asset.name());
                    read.add(1);
                    io.execute(() -> {
                        try {
                            TimeUnit.NANOSECONDS.sleep(latencyNanos);
                        } catch (InterruptedException e) {
                            Thread.currentThread().interrupt();
                        } finally {
                            read.decrement();
                        }
                    });
                    read.await();                                      // parks this fiber, not the worker
                }
                long t1 = System.nanoTime();
                if (failingAssets.contains(asset.name())) {
                    throw new IOException("injected failure reading " + asset.name());
                }
                Object data = asset.generate().get();
                long t2 = System.nanoTime();
                timings.add(new AssetTiming(asset.name(), asset.kind(), asset.bytes(), t0 - startNanos, t1 - t0,
                        t2 - t1, t2 - startNanos));
                return data;
            } finally {
                advance(asset.bytes());
            }
        }

        private void advance(long bytes) {
            progress.updateAndGet(p -> new Progress(p.bytesDone() + bytes, p.bytesTotal(), p.assetsDone() + 1,
                    p.assetsTotal()));
        }

        private void assemble(ProceduralLevels.Recipe recipe, List<JobHandle<Object>> handles) {
            try {
                Map<String, MeshSource> meshes = new LinkedHashMap<>();
                Map<String, TextureSource> textures = new LinkedHashMap<>();
                for (int i = 0; i < handles.size(); i++) {
                    ProceduralLevels.AssetRecipe asset = recipe.assets().get(i);
                    Object data;
                    try {
                        data = handles.get(i).join();                  // parks until that asset is made
                    } catch (JobFailedException e) {
                        failures.add(new AssetFailure(asset.name(), String.valueOf(e.getCause().getMessage())
                                + "; using a placeholder", e.getCause()));
                        data = placeholder(asset.kind());
                    }
                    if (data instanceof MeshSource m) {
                        meshes.put(asset.name(), m);
                    } else {
                        textures.put(asset.name(), (TextureSource) data);
                    }
                }
                long c0 = System.nanoTime();
                BoxCollisionWorld world = new BoxCollisionWorld(0f, recipe.bounds(), recipe.boxes());
                long c1 = System.nanoTime();
                timings.add(new AssetTiming("collision", "collision", 0, c0 - startNanos, 0, c1 - c0, c1 - startNanos));
                advance(0);
                level = new Level(levelName, meshes, textures, recipe.props(), world, null);
            } catch (JobCancelledException e) {
                // cancel() already recorded it; end with no level.
            } catch (RuntimeException | Error e) {
                failures.add(new AssetFailure(levelName, "assembling the level failed: " + e, e));
            } finally {
                io.shutdown();
            }
        }

        private Object placeholder(String kind) {
            return kind.equals("mesh") ? ProceduralMeshes.cube(1f) : ProceduralTextures.checker(16, 2, 0xFF00FF, 0x101010);
        }

        @Override public String levelName() { return levelName; }
        @Override public Progress progress() { return progress.get(); }
        @Override public boolean isDone() { return done.isDone(); }

        @Override
        public boolean awaitDone(Duration timeout) {
            return done.await(timeout);
        }

        @Override
        public Optional<Level> level() {
            return isDone() ? Optional.ofNullable(level) : Optional.empty();
        }

        @Override
        public List<AssetFailure> failures() {
            return List.copyOf(failures);
        }

        @Override
        public List<AssetTiming> timings() {
            return List.copyOf(timings);
        }

        @Override
        public void cancel() {
            if (!group.isCancelled() && !isDone()) {
                failures.add(new AssetFailure(levelName, "cancelled", null));
                group.cancel();
            }
        }

        @Override
        public String toString() {
            return "ProceduralLevelLoading.Load[" + levelName + ", " + progress.get() + (isDone() ? ", done]" : "]");
        }
    }
}
