package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The shipped sources, as a game's dev build uses them (classes in a directory, not a jar). */
class AssetSourceTest {
    private static final String FILE = "tiny/meshes/post.obj";

    /**
     * Every level load asks the size of each of its files. From a classpath directory (the IDE, mvn exec,
     * these tests) the size came from a file: URLConnection, which opens the file to answer and is never
     * closed: one file descriptor per asset per load, until a GC happened to run its cleaner. A streaming
     * game with a quiet heap ran into the process's limit (2,000 sizes: 2,000 more open descriptors).
     */
    @Test
    void classpathSizesLeaveNoFileOpen() throws IOException {
        Path fds = Path.of("/proc/self/fd");
        assumeTrue(Files.isDirectory(fds), "counts open descriptors through /proc");
        URL url = AssetSource.class.getResource("/" + LevelResources.ROOT + FILE);
        assumeTrue(url != null && url.getProtocol().equals("file"), "the levels are in a classpath directory: " + url);
        AssetSource source = AssetSource.classpath();
        long expected = Fixture.resource(FILE).length;
        long before = openDescriptors(fds);
        for (int i = 0; i < 300; i++) {
            assertEquals(expected, source.size(FILE));
        }
        long after = openDescriptors(fds);
        assertTrue(after - before < 50, "300 size() calls left " + (after - before) + " more descriptors open");
        assertEquals(-1, source.size("tiny/meshes/none.obj"), "a missing file has no size");
    }

    private static long openDescriptors(Path fds) {
        try (Stream<Path> s = Files.list(fds)) {
            return s.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
