package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A level load's progress is final once it has ended, as {@code LoadProgress.Snapshot} says, also when it
 * was unloaded while an asset it shared with someone else was still loading. That asset's end still
 * credited the ended load: a probe loading tiny twice and unloading one saw the cancelled load's numbers
 * move after {@code isDone()} in 50 of 200 rounds (5 of 8 assets done at the end, 8 of 8 later).
 */
@Timeout(120)
class EndedLevelProgressTest extends WithJobSystem {
    private static final String GATED = "tiny/meshes/ground.obj";

    @Test
    void anUnloadedLevelsProgressDoesNotMoveAfterItsEnd() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        AssetSource source = new Fixture.ForwardingSource(AssetSource.classpath()) {
            @Override
            public byte[] read(String path) throws IOException {
                if (path.equals(GATED)) {
                    try {
                        gate.await(Fixture.TIMEOUT.toSeconds(), TimeUnit.SECONDS);   // an I/O thread: may block
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(path);
            }
        };
        try (AssetManager assets = AssetManager.builder(jobs).source(source).build()) {
            AssetRef<LoadedMesh> shared = assets.mesh(GATED);           // held by the game: outlives the level
            LevelLoad load = new LevelLoader(assets).load("tiny");
            try {
                // every asset but the gated mesh and its collision ends: each watcher is registered by then
                Fixture.waitUpTo(Fixture.TIMEOUT).untilAsserted(
                        () -> assertEquals(6, load.progress().assetsDone(), load.progress().toString()));
                load.unload();
                Fixture.awaitLoad(load);
                LoadProgress.Snapshot atEnd = load.progress();
                assertEquals(LoadProgress.Outcome.CANCELLED, atEnd.outcome());
                gate.countDown();
                shared.join();                                          // its watchers ran before this returns
                Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> assets.loadsRunning() == 0);   // the collision's too
                assertEquals(atEnd, load.progress(), "the ended load's numbers moved");
                assertTrue(atEnd.assetsDone() < atEnd.assetsTotal(), atEnd.toString());
            } finally {
                gate.countDown();
                shared.release();
            }
            Fixture.assertNoEntries(assets);
        }
    }
}
