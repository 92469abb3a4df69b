package dev.weft.assets;

import java.util.Objects;

/**
 * Loads whole levels through an {@link AssetManager}: one job graph per level, built from the level
 * file, in the level's own {@link dev.weft.JobGroup}.
 *
 * <pre>
 *                    ┌─▶ texture jobs ────────────────────────┐
 * level job ─ read ──┼─▶ mesh jobs ──▶ collision jobs ─────────┼─▶ entity jobs ─▶ level job: assemble
 * (parse, sizes)     └─ (each: I/O park ─ decode lane ─ upload)┘   (join their assets)
 * </pre>
 *
 * <p>The level job reads the level file on an I/O thread, parses it (repairing errors into placeholders,
 * see {@link LevelFileSalvage}), asks the I/O threads for every file's size (one request: the progress
 * totals), requests every asset from the manager in load order (textures and meshes start at once and
 * run in parallel; each collision job waits for its mesh), starts one job per entity that joins that
 * entity's assets, waits for them, and assembles the {@link LoadedLevel}. All waits park fibers.
 *
 * <pre>{@code
 * jobs.bindMainThread();                                   // once, on the GL thread: uploads run there
 * LevelLoad load = new LevelLoader(assets).load("demo");
 * while (!load.isDone()) {                                  // the game's loading loop
 *     drawLoadingBar(load.progress().fraction());
 *     load.awaitDone(Duration.ofMillis(16));               // runs main-thread uploads while it waits
 * }
 * LoadedLevel level = load.level().orElseThrow();           // empty if the level file was unusable
 * load.failures().forEach(System.err::println);             // every asset replaced by a placeholder
 * ...
 * load.unload();                                            // also mid-load: cancels the level's jobs
 * }</pre>
 *
 * <p>Asset loads are shared between levels (the manager loads each asset once); unloading a level
 * cancels the level's group (its level and entity jobs) and releases its assets, which cancels the load
 * jobs of those nobody else holds. Threading: {@link #load} may be called from any thread.
 */
public final class LevelLoader {
    private final AssetManager assets;

    /**
     * A loader of levels through {@code assets}.
     *
     * @param assets the manager that loads the levels' assets; not null
     */
    public LevelLoader(AssetManager assets) {
        this.assets = Objects.requireNonNull(assets, "assets");
    }

    /**
     * The manager that loads the levels' assets.
     *
     * @return the manager given at construction
     */
    public AssetManager assets() {
        return assets;
    }

    /**
     * Starts loading level {@code levelName} ({@code name/name.level} in the source) and returns at once.
     *
     * @param levelName the level's name; not null
     * @return the load, to wait on, read and unload
     * @throws IllegalStateException if the asset manager was closed
     */
    public LevelLoad load(String levelName) {
        Objects.requireNonNull(levelName, "LevelLoader.load(null): pass the level's name, e.g. \"tiny\" for"
                + " tiny/tiny.level in the manager's source");
        assets.checkOpen("level '" + levelName + "'");
        LevelLoad load = new LevelLoad(assets, levelName);
        load.start();
        return load;
    }
}
