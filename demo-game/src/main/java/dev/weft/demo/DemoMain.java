package dev.weft.demo;

import dev.weft.JobSystem;
import dev.weft.assets.AssetManager;
import dev.weft.assets.FaultPlan;
import dev.weft.demo.game.DemoCommand;
import dev.weft.demo.game.LevelLoading;
import dev.weft.demo.loading.PipelineLevelLoading;
import java.time.Duration;

/**
 * Entry point of {@code demo-game.jar}: the Weft demo game. {@code --help} lists the options; see
 * {@link dev.weft.demo.game.Game} for the loop and {@code demo-game/README.md} for how to run it. This is
 * the one place that wires the game to a loader implementation: {@code dev.weft.demo.game} knows only
 * {@link LevelLoading}, {@code dev.weft.demo.loading} implements it.
 */
public final class DemoMain {
    private DemoMain() {}

    public static void main(String[] args) {
        System.exit(DemoCommand.execute(args, DemoMain::pipelineLoading, System.out, System.err));
    }

    /**
     * The real asset pipeline: files read on I/O threads while fibers park, decoded on BACKGROUND jobs,
     * one job graph per level. {@code assetLatency} is added to every file read (a slow disk), so the
     * loading screen is visible even though the classpath is fast. Closing the loader closes its asset
     * manager (before the job system closes: it cancels and frees its loads).
     */
    public static LevelLoading pipelineLoading(JobSystem jobs, Duration assetLatency) {
        FaultPlan disk = assetLatency.isZero() ? FaultPlan.NONE
                : FaultPlan.builder().latency("*", assetLatency).build();
        AssetManager assets = AssetManager.builder(jobs).faults(disk).build();
        return new PipelineLevelLoading(assets).onClose(assets::close);
    }
}
