package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A game's {@link AssetSource} whose {@code read} returns null (its own "not found") gets a placeholder and a
 * failure that says so and what to do; it said {@code NullPointerException: Cannot read the array length
 * because "bytes" is null}, the I/O pool's own line.
 */
@Timeout(120)
class SourceReturningNullTest extends WithJobSystem {

    @Test
    void aSourceWhoseReadReturnsNullGivesAPlaceholderAndSaysWhatToReturn() {
        AssetSource source = new Fixture.ForwardingSource(AssetSource.inMemory(Map.of())) {
            @Override
            public byte[] read(String path) throws IOException {
                return null;
            }
        };
        try (AssetManager assets = AssetManager.builder(jobs).source(source).build();
             AssetRef<LoadedTexture> ref = assets.texture("lvl/gone.png")) {
            assertTrue(ref.join().isPlaceholder());
            assertEquals("mem:lvl/gone.png: cannot read: IOException: mem:lvl/gone.png: the AssetSource's read"
                    + " returned null; return the file's bytes, or throw NoSuchFileException for a file it does not"
                    + " have; using the placeholder texture", ref.failure().orElseThrow().message());
        }
    }
}
