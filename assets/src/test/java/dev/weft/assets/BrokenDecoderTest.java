package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A game's own decoder with a bug still gives an asset the game can draw: with an uploader, the uploaded
 * placeholder and a failure naming the file and the bug. Found by a probe: a decoder that threw an Error
 * (a recursive parser overflowing a fiber's small stack, an assert) left the placeholder with no GPU
 * object, so the renderer's {@code gpu().get()} failed at draw time, far from the cause; one that returned
 * null was reported as "upload failed", with a NullPointerException inside the manager.
 */
@Timeout(120)
class BrokenDecoderTest extends WithJobSystem {
    private static final FileCodec<TextureData> BUGGY = FileCodec.texture(List.of("bug"), (file, bytes) -> {
        String kind = new String(bytes, java.nio.charset.StandardCharsets.US_ASCII);
        return switch (kind) {
            case "deep" -> recurse(0);
            case "assert" -> throw new AssertionError("unexpected chunk in " + file);
            default -> null;
        };
    });

    private static TextureData recurse(int depth) {
        return depth < 0 ? null : recurse(depth + 1);      // a recursive-descent parser on a hostile file
    }

    @Test
    void aDecoderThatThrowsAnErrorOrReturnsNullGivesTheUploadedPlaceholderAndSaysWhy() {
        Map<String, byte[]> files = Fixture.files("lvl/deep.bug", "deep", "lvl/assert.bug", "assert", "lvl/null.bug", "null");
        CountingUploader gpu = new CountingUploader();
        jobs.bindMainThread();
        try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files))
                .codecs(CodecRegistry.defaults().register(BUGGY)).uploader(gpu).build()) {
            for (String name : List.of("deep", "assert", "null")) {
                AssetRef<LoadedTexture> ref = assets.texture("lvl/" + name + ".bug");
                Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> {
                    jobs.runMainThreadJobs(1_000_000);   // the placeholder's upload is a main-thread job
                    return ref.isDone();
                });
                LoadedTexture t = ref.join();
                String message = ref.failure().orElseThrow().message();
                assertTrue(t.isPlaceholder(), name);
                assertTrue(t.gpu().isPresent(), name + ": the placeholder was not uploaded, so the game cannot draw"
                        + " it: " + message);
                assertTrue(message.startsWith("mem:lvl/" + name + ".bug: "), message);
                assertFalse(message.contains("upload failed"), message);
                switch (name) {
                    case "deep" -> assertTrue(message.contains("StackOverflowError"), message);
                    case "assert" -> assertTrue(message.contains("AssertionError: unexpected chunk in mem:lvl/assert.bug"), message);
                    default -> assertEquals("mem:lvl/null.bug: IllegalStateException: the texture codec [bug] returned"
                            + " null; a decoder returns the decoded data or throws an AssetFormatException; using the"
                            + " placeholder texture", message);
                }
                ref.release();
            }
            Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> {
                jobs.runMainThreadJobs(1_000_000);
                return gpu.live() == 0;
            });
        }
    }
}
