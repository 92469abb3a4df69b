package dev.weft.assets.fuzz;

import dev.weft.assets.AssetFormatException;
import dev.weft.assets.PngDecoder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Replays every input kept in {@code src/test/resources/fuzz-regressions/} (files ending .png, .obj or
 * .level) through {@link Oracle}. An input with a {@code <file>.known-bug} note beside it is a defect not
 * fixed yet: it is skipped with the note as the reason. Delete the note with the fix, and the input
 * guards it from then on.
 */
class FuzzRegressionsTest {
    @TestFactory
    Stream<DynamicTest> everySavedInputMeetsTheContract() throws Exception {
        Path dir = regressionsDir();
        List<Path> inputs;
        try (Stream<Path> files = Files.list(dir)) {
            inputs = files.filter(p -> format(p) != null).sorted().toList();
        }
        return inputs.stream().map(p -> DynamicTest.dynamicTest(p.getFileName().toString(), () -> {
            Path note = p.resolveSibling(p.getFileName() + ".known-bug");
            if (Files.exists(note)) {
                Assumptions.abort("known bug, not fixed yet: " + Files.readString(note, StandardCharsets.UTF_8).strip());
            }
            byte[] input = Files.readAllBytes(p);
            assertTimeoutPreemptively(AssetParserFuzzTest.PER_INPUT,
                    () -> Oracle.check(format(p), p.getFileName().toString(), input), "no hang");   // or a Defect
        }));
    }

    /**
     * stb's failure reason is a thread-local that a failing decode does not always set; PngDecoder must
     * not report a reason left there by an earlier decode of another file (on Weft: by another job on the
     * same carrier). Skipped while fuzz-regressions/png-stale-failure-reason.png.known-bug exists.
     */
    @Test
    void aFailureReasonNeverComesFromAnEarlierDecode() throws Exception {
        Path note = regressionsDir().resolve("png-stale-failure-reason.png.known-bug");
        if (Files.exists(note)) {
            Assumptions.abort("known bug, not fixed yet: " + Files.readString(note, StandardCharsets.UTF_8).strip());
        }
        byte[] input = Files.readAllBytes(regressionsDir().resolve("png-stale-failure-reason.png"));
        byte[] corrupt = Seeds.resource("weft/levels/tiny/textures/grass_64.png");
        for (int i = 60; i < corrupt.length - 20; i++) {
            corrupt[i] ^= (byte) (i * 31);                  // fails with a reason of stb's own
        }
        String[] alone = new String[1], afterAnother = new String[2];
        Thread fresh = new Thread(() -> alone[0] = message("a.png", input));
        fresh.start();
        fresh.join();
        Thread reused = new Thread(() -> {
            afterAnother[0] = message("other.png", corrupt);
            afterAnother[1] = message("a.png", input);
        });
        reused.start();
        reused.join();
        assertEquals(alone[0], afterAnother[1], "the reason came from the earlier decode ('" + afterAnother[0] + "')");
    }

    /**
     * The source folder when the test runs from the module (as under Maven), so deleting a note takes
     * effect without a clean (resources copied to target/ earlier are never removed); else the classpath.
     */
    private Path regressionsDir() throws Exception {
        Path source = Path.of("src", "test", "resources", "fuzz-regressions");
        if (Files.isDirectory(source)) {
            return source;
        }
        URL root = getClass().getClassLoader().getResource("fuzz-regressions");
        assertTrue(root != null && "file".equals(root.getProtocol()), "fuzz-regressions/ on the test classpath");
        return Path.of(root.toURI());
    }

    private static String message(String name, byte[] png) {
        try (var t = dev.weft.assets.PngDecoder.decode(name, png)) {
            return "decoded " + t.width() + "x" + t.height();
        } catch (dev.weft.assets.AssetFormatException e) {
            return e.getMessage();
        }
    }

    private static Mutator.Format format(Path p) {
        String n = p.getFileName().toString();
        return n.endsWith(".png") ? Mutator.Format.PNG : n.endsWith(".obj") ? Mutator.Format.OBJ
                : n.endsWith(".level") ? Mutator.Format.LEVEL : null;
    }
}
