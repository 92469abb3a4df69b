package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code progress().fraction()} drives a loading bar, so it reaches 1 only when the load is done. It was
 * bytes read over bytes total alone: the bar stood at 100 % while the level decoded and built its BVHs,
 * 1.1-3.2 s of a 1.3-4.1 s load of the demo level (61-132 of 70-174 frames, a probe's loading loop). It is
 * now the mean of the bytes and the assets fractions, as demo-game's own {@code Progress} already was.
 */
@Timeout(120)
class LoadingBarTest extends WithJobSystem {
    @Test
    void theFractionIsTheMeanOfBytesAndAssetsAndOneOnlyWhenEverythingIsDone() {
        assertEquals(0.0, new LoadProgress.Snapshot(0, 0, 0, 0).fraction());
        assertEquals(0.5, new LoadProgress.Snapshot(0, 0, 1, 2).fraction(), "bytes unknown: assets alone");
        assertEquals(0.5, new LoadProgress.Snapshot(50, 100, 0, 0).fraction(), "assets unknown: bytes alone");
        assertEquals(0.75, new LoadProgress.Snapshot(100, 100, 1, 2).fraction(), "every byte read, an asset left");
        assertEquals(1.0, new LoadProgress.Snapshot(100, 100, 2, 2).fraction());
        assertEquals(1.0, new LoadProgress.Snapshot(0, 100, 0, 2, LoadProgress.Outcome.CANCELLED).fraction());
    }

    @Test
    void aLevelWhoseFilesAreAllReadIsShortOfOneWhileItStillBuilds() {
        FaultPlan slowBvh = FaultPlan.builder().cpu("collision:*", Duration.ofSeconds(3)).build();
        try (AssetManager assets = AssetManager.builder(jobs).faults(slowBvh).build()) {
            LevelLoad load = new LevelLoader(assets).load("tiny");
            AtomicReference<LoadProgress.Snapshot> readButBuilding = new AtomicReference<>();
            Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> {
                LoadProgress.Snapshot s = load.progress();
                if (s.bytesTotal() > 0 && s.bytesDone() == s.bytesTotal() && s.assetsDone() < s.assetsTotal()
                        && !s.complete()) {
                    readButBuilding.set(s);
                }
                return readButBuilding.get() != null || load.isDone();
            });
            LoadProgress.Snapshot s = readButBuilding.get();
            assertTrue(s != null, "the collisions build for 3 s after the last read: " + load.progress());
            assertTrue(s.fraction() < 1.0, "the bar is full while " + (s.assetsTotal() - s.assetsDone())
                    + " assets are not done: " + s + " -> " + s.fraction());
            Fixture.awaitLoad(load);
            assertEquals(1.0, load.progress().fraction());
            load.unload();
        }
    }
}
