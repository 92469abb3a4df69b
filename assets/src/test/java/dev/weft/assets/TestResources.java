package dev.weft.assets;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Reads the generated levels from the assets jar on the test classpath. */
final class TestResources {
    private TestResources() {
    }

    static byte[] bytes(String resource) {
        try (InputStream in = TestResources.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new AssertionError("missing classpath resource " + resource + " (is the assets jar installed?)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static boolean exists(String resource) {
        return TestResources.class.getClassLoader().getResource(resource) != null;
    }

    static LevelFile level(String name) {
        return LevelFile.parse(name + ".level", bytes(LevelResources.levelFile(name)));
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
