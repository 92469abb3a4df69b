package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A misuse says what was wrong: {@code request(null)} threw the JDK's {@code Cannot invoke
 * "dev.weft.assets.AssetId.toString()" because "id" is null}, {@code texture(null)} a bare "path".
 */
@Timeout(120)
class AssetNamingTest extends WithJobSystem {
    @Test
    void nullArgumentsSayWhichAndWhatToPass() {
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> assets.request(null));
            assertEquals("AssetManager.request(null): pass what to load, e.g. AssetId.texture(\"tiny/textures/grass_64.png\")",
                    e.getMessage());
            for (Runnable call : List.<Runnable>of(() -> assets.texture(null), () -> assets.mesh(null),
                    () -> assets.collision(null))) {
                assertTrue(assertThrows(NullPointerException.class, call::run).getMessage().startsWith("asset path is null:"));
            }
            ChunkStreamer streamer = new ChunkStreamer(new LevelLoader(assets), ChunkGrid.SHIPPED, 30f, 40f);
            assertEquals("ChunkStreamer.origin(null): pass a chunk from resident()",
                    assertThrows(NullPointerException.class, () -> streamer.origin(null)).getMessage());
            streamer.close();
            assertEquals(0, assets.stats().entries());
        }
    }
}
