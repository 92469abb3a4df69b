package dev.weft.assets.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.weft.assets.AssetFormatException;
import dev.weft.assets.PngDecoder;
import java.nio.ByteBuffer;
import org.lwjgl.stb.STBImage;
import org.lwjgl.system.MemoryStack;

/**
 * Jazzer over {@code PngDecoder.decode} in process (corpus and modes in {@link JazzerTargets}; a crash
 * in stb's native code is the child-JVM campaign's job, {@link AssetParserFuzzTest}). Besides the
 * oracle: the outcome (size, or the failure message) is the same whatever stb failure reason an earlier
 * decode on this thread left (stb keeps it in a thread-local and never clears it).
 */
class PngDecoderFuzzTest {
    @FuzzTest(maxDuration = "5m")
    void pngDecoder(FuzzedDataProvider data) {
        byte[] png = data.consumeRemainingAsBytes();
        JazzerTargets.check(Mutator.Format.PNG, "fuzz.png", png);
        leaveStbFailureReason(new byte[16]);                        // "unknown image type"
        String afterOne = outcome(png);
        leaveStbFailureReason(CorruptPng.BYTES);                    // a reason of stb's own from the image data
        String afterAnother = outcome(png);
        assertEquals(afterOne, afterAnother, "the failure message depends on an earlier decode's stb reason");
    }

    private static String outcome(byte[] png) {
        try (var t = PngDecoder.decode("fuzz.png", png)) {
            return "decoded " + t.width() + "x" + t.height();
        } catch (AssetFormatException e) {
            return e.getMessage();
        }
    }

    /** A failing stb call straight through LWJGL, which leaves its reason in this thread's stb state. */
    private static void leaveStbFailureReason(byte[] notDecodable) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            ByteBuffer in = stack.malloc(notDecodable.length).put(notDecodable).flip();
            ByteBuffer out = STBImage.stbi_load_from_memory(in, stack.mallocInt(1), stack.mallocInt(1),
                    stack.mallocInt(1), 4);
            if (out != null) {
                STBImage.stbi_image_free(out);
                throw new IllegalStateException("the priming input decoded; it must fail inside stb");
            }
        }
    }

    /** The tiny level's grass texture with its image data scrambled: stb fails it with a reason of its own. */
    private static final class CorruptPng {
        static final byte[] BYTES = corrupt(Seeds.resource("weft/levels/tiny/textures/grass_64.png"));

        private static byte[] corrupt(byte[] png) {
            for (int i = 60; i < png.length - 20; i++) {
                png[i] ^= (byte) (i * 31);
            }
            return png;
        }
    }
}
