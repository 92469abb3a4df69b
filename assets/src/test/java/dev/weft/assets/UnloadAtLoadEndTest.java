package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.*;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A level unloaded after its level job built the level but before the job decided how the load ended. The
 * job decided LOADED (it had a level) while unload() had already listed "unloaded while loading; load
 * cancelled" and level() was empty: both outcomes at once. One CAS now decides between the two; here the
 * unload comes first, so the load ends CANCELLED with the unload's failure and no level.
 */
@Timeout(120)
class UnloadAtLoadEndTest extends WithJobSystem {

    @Test
    void aLevelUnloadedAsItsJobEndsEndsCancelledNotLoadedAndCancelled() throws Exception {
        CountDownLatch levelFileRead = new CountDownLatch(1);
        AssetSource source = new Fixture.ForwardingSource(AssetSource.inMemory(Fixture.oneTextureLevel())) {
            @Override
            public byte[] read(String path) throws IOException {
                if (path.equals("lvl/lvl.level")) {
                    try {                                      // an I/O thread: may block
                        assertTrue(levelFileRead.await(Fixture.TIMEOUT.toSeconds(), TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                }
                return super.read(path);
            }
        };
        try (AssetManager assets = AssetManager.builder(jobs).source(source).build()) {
            LevelLoad load = new LevelLoader(assets).load("lvl");
            boolean[] built = new boolean[1];
            load.beforeOutcomeForTests = () -> {
                built[0] = load.progress().assetsDone() == 1 && load.failures().isEmpty();
                Thread game = Thread.ofPlatform().start(load::unload);   // the game's thread, in the window
                try {
                    game.join();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            };
            levelFileRead.countDown();
            Fixture.awaitLoad(load);
            assertTrue(built[0], "the level job reached its end with the level built: " + load.failures());
            LoadProgress.Snapshot end = load.progress();
            List<String> messages = load.failures().stream().map(LoadFailure::message).toList();
            assertEquals(LoadProgress.Outcome.CANCELLED, end.outcome(),
                    "unloaded before the load decided its end; failures " + messages + ", level " + load.level());
            assertEquals(List.of("lvl: unloaded while loading; load cancelled"), messages);
            assertTrue(load.level().isEmpty());
            Fixture.assertNoEntries(assets);
        }
    }
}
