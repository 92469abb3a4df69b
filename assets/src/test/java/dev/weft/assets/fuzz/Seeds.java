package dev.weft.assets.fuzz;

import dev.weft.assets.LevelAsset;
import dev.weft.assets.LevelFile;
import dev.weft.assets.LevelResources;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** The real generated files from the assets jar that the mutator starts from. */
final class Seeds {
    private Seeds() {}

    record Named(String name, byte[] bytes) {
    }

    static byte[] resource(String name) {
        try (InputStream in = Seeds.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing classpath resource " + name + " (is the assets jar installed?)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static LevelFile level(String name) {
        return LevelFile.parse(name + ".level", resource(LevelResources.levelFile(name)));
    }

    /** The tiny level's PNGs: RGB, a checkerboard, RGBA. */
    static List<Named> textures() {
        List<Named> out = new ArrayList<>();
        for (LevelAsset a : level("tiny").textures()) {
            out.add(new Named(a.path(), resource(LevelResources.assetFile("tiny", a))));
        }
        return out;
    }

    /** The tiny level's OBJ meshes and the demo's pillar (n-gon caps). */
    static List<Named> meshes() {
        List<Named> out = new ArrayList<>();
        for (LevelAsset a : level("tiny").meshes()) {
            out.add(new Named(a.path(), resource(LevelResources.assetFile("tiny", a))));
        }
        LevelFile demo = level("demo");
        demo.asset("pillar").ifPresent(a -> out.add(new Named(a.path(), resource(LevelResources.assetFile("demo", a)))));
        return out;
    }

    /** Both level files. */
    static List<Named> levels() {
        return List.of(new Named("tiny.level", resource(LevelResources.levelFile("tiny"))),
                new Named("demo.level", resource(LevelResources.levelFile("demo"))));
    }
}
