package dev.weft.assets.gen;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.SplittableRandom;

/**
 * Build-time entry point: writes the {@code demo} and {@code tiny} levels and the streaming world's chunks
 * ({@link WorldGen}) under the directory given as the
 * first argument (the build passes {@code target/classes/weft/levels}, so the content ships in the assets
 * jar). Every number below is fixed, so two runs write identical bytes.
 */
public final class GenerateLevels {
    private static final long SEED = 0x5EED_0F_3E4FL;

    private GenerateLevels() {
    }

    private static final List<String> LEVELS = List.of("demo", "tiny", "world");
    private static final String USAGE = "usage: GenerateLevels <output dir, e.g. target/classes/weft/levels> [tiny] [demo] [world]";

    /** {@code GenerateLevels <output dir> [level ...]}: writes the named levels, or all of them. */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    /**
     * The command line, checked before anything is written (a name typed wrong after {@code demo} would
     * otherwise fail only after demo's ~10 s of writing, and {@code --help} was taken as the output
     * directory and got every level written under {@code ./--help}).
     *
     * @return the exit status: 0 written (or help shown), 1 a write failed, 2 a bad argument
     */
    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 1 && (args[0].equals("--help") || args[0].equals("-h"))) {
            out.println(USAGE);
            out.println("Writes the named levels (all three if none is named) under the output directory.");
            return 0;
        }
        if (args.length < 1) {
            err.println(USAGE);
            return 2;
        }
        for (String arg : args) {
            if (arg.startsWith("-")) {
                err.println("GenerateLevels takes no option '" + arg + "'; " + USAGE);
                return 2;
            }
        }
        Path root = Path.of(args[0]);
        if (Files.exists(root) && !Files.isDirectory(root)) {
            err.println("the output directory " + root + " is a file; name a directory (it is created if missing)");
            return 2;
        }
        Set<String> wanted = args.length > 1 ? new TreeSet<>(Arrays.asList(args).subList(1, args.length)) : new TreeSet<>(LEVELS);
        for (String level : wanted) {
            if (!LEVELS.contains(level)) {
                err.println("no level '" + level + "'; known: " + String.join(", ", LEVELS) + "; nothing written");
                return 2;
            }
        }
        long startNs = System.nanoTime();
        for (String level : wanted) {
            try {
                String summary = switch (level) {
                    case "tiny" -> tiny(root);
                    case "demo" -> demo(root);
                    default -> WorldGen.world(root, dev.weft.assets.ChunkGrid.SHIPPED, SEED + 100);
                };
                out.println("[weft-assets] " + summary);
            } catch (IOException e) {
                // the JDK's message names the path (a parent that is a file, no permission, disk full)
                err.println("could not write level '" + level + "' under " + root + ": " + e);
                return 1;
            }
        }
        out.printf("[weft-assets] generated in %d ms%n", (System.nanoTime() - startNs) / 1_000_000);
        return 0;
    }

    /** A few small assets, for tests that want a real level without the demo's load time. */
    static String tiny(Path root) throws IOException {
        LevelBuilder level = new LevelBuilder(root, "tiny", "tiny: a handful of small assets for fast tests");
        level.section("textures");
        level.texture("grass", TextureGenerator.noise(64, SEED + 1, 0x2F5A1E, 0x7FA843, 4, 3));
        level.texture("checker", TextureGenerator.checker(32, SEED + 2, 4, 0xE0E0E0, 0x303030));
        level.texture("decal", TextureGenerator.decal(16, SEED + 3, 0xC03020));
        level.section("meshes");
        level.mesh("ground", Meshes.terrain(8, 16, 1, SEED + 4));
        level.mesh("ball", Meshes.sphere(1, 0.5));
        level.mesh("post", Meshes.pillar(6, 1, 0.25, 2));
        level.section("derived assets");
        level.collision("ground_col", "ground");
        level.collision("post_col", "post");
        level.section("entities");
        level.entity("ground", "ground", "grass", "ground_col", 0, 0, 0);
        level.entity("ball", "ball", "checker", null, 1, 1.5, -1);
        level.entity("post", "post", "decal", "post_col", -2, 0, 2);
        return level.finish();
    }

    /** The demo: a few MB of textures and up to ~100k-triangle meshes, so loading takes visible time. */
    static String demo(Path root) throws IOException {
        int terrainQuads = 224;
        double terrainSizeM = 200, terrainHeightM = 18;
        long terrainSeed = SEED + 10;
        LevelBuilder level = new LevelBuilder(root, "demo", "demo: the level the demo game loads");
        level.section("textures");
        level.texture("grass", TextureGenerator.noise(2048, SEED + 11, 0x28481A, 0x86B04A, 16, 6));
        level.texture("stone", TextureGenerator.noise(1024, SEED + 12, 0x4A4845, 0xA8A39A, 8, 6));
        level.texture("bricks", TextureGenerator.bricks(1024, SEED + 13, 16));
        level.texture("checker", TextureGenerator.checker(512, SEED + 14, 8, 0xF0F0F0, 0x202020));
        level.texture("metal", TextureGenerator.noise(512, SEED + 15, 0x6E7378, 0xC8CDD2, 32, 4));
        level.texture("height", TextureGenerator.heightMap(512, SEED + 16, 8));
        level.texture("moss", TextureGenerator.decal(256, SEED + 17, 0x3C6E28));
        level.section("meshes");
        level.mesh("terrain", Meshes.terrain(terrainQuads, terrainSizeM, terrainHeightM, terrainSeed));
        level.mesh("sphere", Meshes.sphere(5, 2));
        level.mesh("torus", Meshes.torus(192, 96, 3, 0.8));
        level.mesh("rock", Meshes.rock(4, 1.5, SEED + 18));
        level.mesh("pillar", Meshes.pillar(24, 4, 0.6, 6));
        level.section("derived assets: built from a mesh by a job once the mesh is parsed");
        level.collision("terrain_col", "terrain");
        level.collision("rock_col", "rock");
        level.collision("pillar_col", "pillar");
        level.section("entities: name, assets, position x y z in metres");
        level.entity("ground", "terrain", "grass", "terrain_col", 0, 0, 0);
        SplittableRandom random = new SplittableRandom(SEED + 19);
        for (int i = 0; i < 16; i++) {
            double x = random.nextDouble(-80, 80), z = random.nextDouble(-80, 80);
            double y = Meshes.terrainHeightAt(x, z, terrainQuads, terrainSizeM, terrainHeightM, terrainSeed);
            level.entity("rock_" + i, "rock", "stone", "rock_col", x, y, z);
        }
        for (int i = 0; i < 8; i++) {
            double angle = 2 * Math.PI * i / 8, x = 20 * Math.cos(angle), z = 20 * Math.sin(angle);
            double y = Meshes.terrainHeightAt(x, z, terrainQuads, terrainSizeM, terrainHeightM, terrainSeed);
            level.entity("pillar_" + i, "pillar", "bricks", "pillar_col", x, y, z);
        }
        double centreY = Meshes.terrainHeightAt(0, 0, terrainQuads, terrainSizeM, terrainHeightM, terrainSeed);
        level.entity("ball", "sphere", "checker", null, 0, centreY + 8, 0);
        level.entity("ring", "torus", "metal", null, 0, centreY + 8, 0);
        level.entity("moss_patch", "pillar", "moss", "pillar_col", 6, centreY, 6);
        return level.finish();
    }

}
