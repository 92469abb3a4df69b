package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.weft.assets.gen.GenerateLevels;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The generator is deterministic: running it again writes exactly the bytes the build put in the jar. */
class GeneratedContentTest {

    @Test
    void regeneratingTinyReproducesTheJarByteForByte(@TempDir Path out) throws Exception {
        GenerateLevels.main(new String[] {out.toString(), "tiny"});
        List<String> files = new ArrayList<>();
        Path level = out.resolve("tiny");
        try (Stream<Path> walk = Files.walk(level)) {
            walk.filter(Files::isRegularFile).forEach(p -> files.add(level.relativize(p).toString().replace('\\', '/')));
        }
        files.sort(null);
        assertEquals(List.of("meshes/ball.obj", "meshes/ground.obj", "meshes/post.obj", "textures/checker_32.png",
                "textures/decal_16.png", "textures/grass_64.png", "tiny.level"), files);
        for (String file : files) {
            assertArrayEquals(TestResources.bytes(LevelResources.ROOT + "tiny/" + file), Files.readAllBytes(level.resolve(file)), file);
        }
    }
}
