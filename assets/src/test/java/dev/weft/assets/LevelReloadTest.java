package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A game that loads and unloads levels for as long as it runs, while it holds some of their assets itself. */
@Timeout(60)
class LevelReloadTest extends WithJobSystem {
    private static final Map<String, byte[]> FILES = Fixture.files(
            "lvl/textures/grass.png", Fixture.resource("tiny/textures/grass_64.png"),
            "lvl/meshes/post.obj", Fixture.resource("tiny/meshes/post.obj"),
            "lvl/lvl.level", """
                    weft-level 1
                    texture grass textures/grass.png
                    mesh post meshes/post.obj
                    entity p mesh=post texture=grass 0 0 0
                    """);

    /**
     * Each level load watches its assets' entries for progress; an entry the game keeps loaded (a texture
     * its HUD holds, say) outlives every level. The watchers were never removed, so each load and unload
     * of the level left one more on the held entry, and with it the whole finished LevelLoad (its
     * LoadedLevel, failures and timings): the heap grew by about 17 KB per load of the tiny level, for good.
     */
    @Test
    void aHeldAssetKeepsNoWatcherOfLevelsAlreadyLoaded() {
        try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(FILES)).build()) {
            AssetRef<LoadedTexture> held = assets.texture("lvl/textures/grass.png");
            LevelLoader loader = new LevelLoader(assets);
            for (int round = 0; round < 20; round++) {
                LevelLoad load = loader.load("lvl");
                Fixture.awaitLoad(load);
                assertTrue(load.level().isPresent(), "loaded: " + load.failures());
                load.unload();
            }
            assertEquals(0, held.entry.watcherCount(),
                    "20 loads of the level, all ended: none of them should still watch the held texture");
            held.release();
        }
    }
}
