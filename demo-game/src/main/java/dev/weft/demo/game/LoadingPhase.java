package dev.weft.demo.game;

import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.assets.MeshSource;
import dev.weft.assets.TextureSource;
import dev.weft.demo.render.FrameTimeGraph;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.render.Texture;
import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayKind;
import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.LockSupport;

/**
 * The loading phase: one loading frame per 1/60 s (loading screen or text progress,
 * {@code runMainThreadJobs}, then {@link LevelLoading.Handle#awaitDone} for the rest of the frame). When
 * the level is ready its meshes and textures are uploaded by main-thread jobs, drained within the
 * per-frame budget, so a big level spreads its uploads over several loading frames. Main thread only.
 */
final class LoadingPhase {
    /** The levels the assets module generates (see assets/README.md). */
    private static final List<String> SHIPPED_LEVELS = List.of("demo", "tiny");

    /** The level as uploaded. */
    record Loaded(Level level, double loadMs, int loadingFrames, int failures) {}

    private final GameConfig cfg;
    private final PrintStream out;
    private final Display display;
    private final Renderer renderer;
    private final JobSystem jobs;
    private final FrameTimeGraph graph;

    LoadingPhase(GameConfig cfg, Display display, Renderer renderer, JobSystem jobs, FrameTimeGraph graph) {
        this.cfg = cfg;
        this.out = cfg.out();
        this.display = display;
        this.renderer = renderer;
        this.jobs = jobs;
        this.graph = graph;
    }

    /** Loads {@code cfg.level()} with {@code loading} and adds its GPU resources to {@code gpu}. */
    Loaded load(LevelLoading loading, GpuTable gpu) throws GameException {
        boolean windowShowsBar = display.kind() == DisplayKind.WINDOW;
        LoadProgressPrinter printer = new LoadProgressPrinter(out,
                LoadProgressPrinter.choose(windowShowsBar, cfg.progress(), out), cfg.level());
        long start = System.nanoTime();
        long deadline = start + cfg.loadTimeout().toNanos();
        LevelLoading.Handle load = loading.start(cfg.level());
        Level level = null;
        List<JobHandle<Mesh>> meshUploads = null;
        List<JobHandle<Texture>> textureUploads = null;
        int frames = 0;
        long last = start;
        for (;;) {
            long frameStart = System.nanoTime();
            display.pollEvents();
            if (display.shouldClose()) {
                cancel(load, meshUploads, textureUploads);
                printer.interrupt();
                throw new GameException(Game.EXIT_FAILED, "window closed while loading level '" + cfg.level() + "'");
            }
            LevelLoading.Progress progress = load.progress();
            int uploadsDone = meshUploads == null ? 0 : countDone(meshUploads) + countDone(textureUploads);
            int uploadsTotal = meshUploads == null ? 0 : meshUploads.size() + textureUploads.size();
            float fraction = meshUploads == null ? (float) (0.95 * progress.fraction())
                    : 0.95f + 0.05f * uploadsDone / Math.max(1, uploadsTotal);
            renderer.beginFrame();
            renderer.drawLoadingScreen(fraction);
            renderer.drawFrameGraph(graph);
            jobs.runMainThreadJobs(cfg.mainThreadBudgetNanos());   // the uploads run here, a few per frame
            display.swapBuffers();
            printer.update(progress, meshUploads != null);
            frames++;

            if (meshUploads == null && load.isDone()) {
                level = readyLevel(load, printer);
                meshUploads = new ArrayList<>();
                textureUploads = new ArrayList<>();
                for (Map.Entry<String, MeshSource> m : level.meshes().entrySet()) {
                    MeshSource src = m.getValue();
                    meshUploads.add(jobs.onMainThread("upload mesh " + m.getKey(), () -> renderer.uploadMesh(src)));
                }
                for (Map.Entry<String, TextureSource> t : level.textures().entrySet()) {
                    TextureSource src = t.getValue();
                    textureUploads.add(jobs.onMainThread("upload texture " + t.getKey(),
                            () -> renderer.uploadTexture(src)));
                }
            }
            if (meshUploads != null && countDone(meshUploads) == meshUploads.size()
                    && countDone(textureUploads) == textureUploads.size()) {
                break;
            }
            if (System.nanoTime() > deadline) {
                cancel(load, meshUploads, textureUploads);
                printer.interrupt();
                throw new GameException(Game.EXIT_FAILED, "level '" + cfg.level() + "' did not load within "
                        + cfg.loadTimeout().toSeconds() + " s (" + load.progress() + ")");
            }
            long remaining = frameStart + InputClock.TICK_NANOS - System.nanoTime();   // keep loading frames at ~60 Hz
            if (remaining > 0) {
                if (meshUploads == null) {
                    load.awaitDone(Duration.ofNanos(remaining));          // runs main-thread jobs meanwhile
                } else {
                    LockSupport.parkNanos(remaining);
                }
            }
            long now = System.nanoTime();
            graph.recordNanos(now - last);
            last = now;
        }
        register(level, meshUploads, textureUploads, gpu);
        double loadMs = (System.nanoTime() - start) / 1e6;
        LevelLoading.Progress p = load.progress();
        printer.finish(p);
        String slowest = load.timings().stream().max(Comparator.comparingLong(LevelLoading.AssetTiming::endNanos))
                .map(t -> String.format(Locale.ROOT, "; last asset done: %s at %.0f ms", t.asset(), t.endNanos() / 1e6))
                .orElse("");
        out.printf(Locale.ROOT, "weft-demo: level '%s' loaded in %.0f ms: %d assets, %s, %d props, %d loading"
                        + " frames%s%n", cfg.level(), loadMs, p.assetsTotal(), LoadProgressPrinter.formatBytes(p.bytesTotal()),
                level.props().size(), frames, slowest);
        return new Loaded(level, loadMs, frames, load.failures().size());
    }

    /**
     * Cancels the load, and first the level's uploads still queued: they read the level's CPU pixels, which
     * cancelling the load frees, and the game's {@code jobs.close()} on the main thread would still run them
     * (freed native memory handed to the renderer: 5 uploads in {@code LoadingCancelledDuringUploadsTest}).
     */
    private static void cancel(LevelLoading.Handle load, List<JobHandle<Mesh>> meshUploads,
                               List<JobHandle<Texture>> textureUploads) {
        if (meshUploads != null) {
            meshUploads.forEach(JobHandle::cancel);         // main thread: none of them is running now
            textureUploads.forEach(JobHandle::cancel);
        }
        load.cancel();
    }

    /** The finished load's level, after printing its failures; a failed load ends the run. */
    private Level readyLevel(LevelLoading.Handle load, LoadProgressPrinter printer) throws GameException {
        Optional<Level> ready = load.level();
        for (LevelLoading.AssetFailure f : load.failures()) {
            printer.interrupt();
            out.println("weft-demo: level '" + cfg.level() + "': " + f);
        }
        if (ready.isEmpty()) {
            printer.interrupt();
            throw new GameException(Game.EXIT_FAILED, "level '" + cfg.level() + "' could not be loaded: "
                    + (load.failures().isEmpty() ? "no reason given" : load.failures())
                    + " (levels shipped with the demo: " + String.join(", ", SHIPPED_LEVELS) + ")");
        }
        return ready.get();
    }

    /** Gives the uploaded level resources their ids, after the agents', in the level's map order. */
    private static void register(Level level, List<JobHandle<Mesh>> meshUploads, List<JobHandle<Texture>> textureUploads,
                                 GpuTable gpu) {
        int base = gpu.meshes.size();
        int i = 0;
        for (String name : level.meshes().keySet()) {
            gpu.levelMeshIds.put(name, base + i);
            gpu.meshes.add(meshUploads.get(i++).join());         // done: join returns at once (or throws)
        }
        base = gpu.textures.size();
        i = 0;
        for (String name : level.textures().keySet()) {
            gpu.levelTextureIds.put(name, base + i);
            gpu.textures.add(textureUploads.get(i++).join());
        }
    }

    private static int countDone(List<? extends JobHandle<?>> handles) {
        int n = 0;
        for (JobHandle<?> h : handles) {
            if (h.isDone()) {
                n++;
            }
        }
        return n;
    }
}
