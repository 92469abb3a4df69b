package dev.weft.demo.loading;

import dev.weft.assets.AssetManager;
import dev.weft.assets.IoPool;
import dev.weft.assets.LevelLoad;
import dev.weft.assets.LevelLoader;
import dev.weft.assets.LoadProgress;
import dev.weft.assets.LoadedLevel;

import dev.weft.assets.Aabb;
import dev.weft.demo.game.CollisionWorld.WorldBounds;
import dev.weft.demo.game.Level;
import dev.weft.demo.game.LevelLoading;
import dev.weft.demo.game.MeshCollisionWorld;
import dev.weft.assets.MeshSource;
import dev.weft.assets.TextureSource;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The game's {@link LevelLoading} on the real loader: files through the {@link IoPool}, PNG/OBJ/BVH on
 * Weft jobs, one job graph per level ({@link LevelLoader}). The {@link Level} it hands over carries CPU
 * data (the game uploads it, as the {@code Level} contract says), so the manager must not upload
 * itself: give it no {@link dev.weft.assets.GpuUploader}. {@link Level#close()} unloads the level, which frees the pixels.
 *
 * <pre>{@code
 * AssetManager assets = AssetManager.builder(jobs).build();         // headless manager: the game uploads
 * LevelLoading loading = new PipelineLevelLoading(assets);
 * LevelLoading.Handle load = loading.start("demo");
 * }</pre>
 */
public final class PipelineLevelLoading implements LevelLoading {
    private final LevelLoader loader;

    /** @throws IllegalArgumentException if {@code assets} uploads to the GPU itself */
    public PipelineLevelLoading(AssetManager assets) {
        if (assets.uploadsToGpu()) {
            throw new IllegalArgumentException("the game uploads a Level's meshes and textures itself; give "
                    + "PipelineLevelLoading an AssetManager without a GpuUploader");
        }
        this.loader = new LevelLoader(assets);
    }

    @Override
    public Handle start(String levelName) {
        return new PipelineHandle(loader.load(levelName));
    }

    private static final class PipelineHandle implements Handle {
        private final LevelLoad load;
        private final AtomicReference<Level> level = new AtomicReference<>();

        PipelineHandle(LevelLoad load) {
            this.load = Objects.requireNonNull(load, "load");
        }

        @Override
        public String levelName() {
            return load.levelName();
        }

        @Override
        public Progress progress() {
            LoadProgress.Snapshot s = load.progress();
            return new Progress(s.bytesDone(), s.bytesTotal(), s.assetsDone(), s.assetsTotal());
        }

        @Override
        public boolean isDone() {
            return load.isDone();
        }

        @Override
        public boolean awaitDone(Duration timeout) {
            return load.awaitDone(timeout);
        }

        @Override
        public Optional<Level> level() {
            Optional<LoadedLevel> loaded = load.level();
            if (loaded.isEmpty()) {
                return Optional.empty();
            }
            Level l = level.get();
            if (l == null) {
                level.compareAndSet(null, toGameLevel(loaded.get()));
                l = level.get();
            }
            return Optional.of(l);
        }

        @Override
        public List<AssetFailure> failures() {
            return load.failures().stream().map(f -> new AssetFailure(f.asset(), f.message(), f.cause())).toList();
        }

        @Override
        public List<AssetTiming> timings() {
            long t0 = load.startNanos();
            return load.timings().stream().map(t -> new AssetTiming(t.id().path(), t.id().kind().keyword(), t.bytes(),
                    rel(t.startedNanos(), t0), span(t.startedNanos(), t.inputNanos()),
                    span(t.inputNanos(), t.uploadedNanos() != 0 ? t.uploadedNanos() : t.decodedNanos()),
                    rel(t.endedNanos(), t0))).toList();
        }

        @Override
        public void cancel() {
            load.unload();
        }

        private static long rel(long t, long t0) {
            return t == 0 ? 0 : t - t0;
        }

        private static long span(long from, long to) {
            return from == 0 || to == 0 ? 0 : to - from;
        }

        @Override
        public String toString() {
            return "PipelineLevelLoading.Handle[" + load + "]";
        }
    }

    /** The game's view: meshes and textures by asset name, props from entities, BVHs placed at entities. */
    static Level toGameLevel(LoadedLevel loaded) {
        Map<String, MeshSource> meshes = new LinkedHashMap<>();
        loaded.meshes().forEach((name, m) -> meshes.put(name, m.source()));
        Map<String, TextureSource> textures = new LinkedHashMap<>();
        List<Level.Prop> props = new ArrayList<>();
        List<MeshCollisionWorld.Placed> placed = new ArrayList<>();
        float minX = Float.POSITIVE_INFINITY, minY = minX, minZ = minX;
        float maxX = Float.NEGATIVE_INFINITY, maxY = maxX, maxZ = maxX;
        for (LoadedLevel.PlacedEntity p : loaded.entities()) {
            var e = p.entity();
            meshes.putIfAbsent(e.mesh(), p.mesh().source());              // internal placeholders, if repaired
            textures.putIfAbsent(e.texture(), p.texture().pixels());
            props.add(Level.Prop.at(e.name(), e.mesh(), e.texture(), e.xM(), e.yM(), e.zM()));
            if (p.collision() != null) {
                placed.add(new MeshCollisionWorld.Placed(p.collision().mesh(), e.xM(), e.yM(), e.zM()));
            }
            Aabb b = p.mesh().bounds();
            minX = Math.min(minX, b.minX() + e.xM());
            minY = Math.min(minY, b.minY() + e.yM());
            minZ = Math.min(minZ, b.minZ() + e.zM());
            maxX = Math.max(maxX, b.maxX() + e.xM());
            maxY = Math.max(maxY, b.maxY() + e.yM());
            maxZ = Math.max(maxZ, b.maxZ() + e.zM());
        }
        loaded.textures().forEach((name, t) -> textures.putIfAbsent(name, t.pixels()));
        WorldBounds bounds = null;
        if (placed.isEmpty()) {
            bounds = minX < maxX && minZ < maxZ ? new WorldBounds(minX, minY, minZ, maxX, maxY + 10f, maxZ)
                    : new WorldBounds(-10f, 0f, -10f, 10f, 10f, 10f);
        }
        return new Level(loaded.name(), meshes, textures, props, new MeshCollisionWorld(placed, bounds), loaded);
    }
}
