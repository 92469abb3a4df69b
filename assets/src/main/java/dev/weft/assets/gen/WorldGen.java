package dev.weft.assets.gen;

import dev.weft.assets.ChunkGrid;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Writes the streaming world, {@link ChunkGrid#SHIPPED}: one level per chunk, each with its own ground
 * texture and heightfield, a rock mesh and texture, both collisions, and a few rocks on the ground. Sizes
 * are chosen so one chunk is a few milliseconds of decoding (a 256² PNG, a 1,152-triangle terrain) and
 * the whole grid adds a few MB to the jar. Seeded per chunk from its cell, so every run writes the same
 * bytes.
 */
final class WorldGen {
    static final int GROUND_QUADS = 24;
    static final int GROUND_TEXTURE_PX = 256;
    static final int ROCK_TEXTURE_PX = 64;
    static final double GROUND_HEIGHT_M = 3;
    static final int ROCKS_PER_CHUNK = 4;

    private WorldGen() {
    }

    /** Writes every chunk of {@code grid} under {@code root}; returns a one-line summary. */
    static String world(Path root, ChunkGrid grid, long seed) throws IOException {
        long bytes = 0;
        for (int row = 0; row < grid.rows(); row++) {
            for (int column = 0; column < grid.columns(); column++) {
                bytes += chunk(root, grid, column, row, seed + 1000L * grid.index(column, row)).assetBytes();
            }
        }
        return String.format(Locale.ROOT, "world %s: %d chunks of %.0f m, %d asset bytes", grid.prefix(),
                grid.chunkCount(), grid.chunkSizeM(), bytes);
    }

    private static LevelBuilder chunk(Path root, ChunkGrid grid, int column, int row, long seed) throws IOException {
        String name = grid.levelName(column, row);
        LevelBuilder level = new LevelBuilder(root, name, "chunk (" + column + ", " + row + ") of world '"
                + grid.prefix() + "'; entity positions are relative to the chunk's centre");
        double size = grid.chunkSizeM();
        SplittableRandom random = new SplittableRandom(seed);
        int dark = 0x203810 + (random.nextInt(0x10) << 16) + (random.nextInt(0x10) << 8);
        level.section("textures");
        level.texture("grass", TextureGenerator.noise(GROUND_TEXTURE_PX, seed + 1, dark, 0x86B04A, 8, 5));
        level.texture("stone", TextureGenerator.noise(ROCK_TEXTURE_PX, seed + 2, 0x4A4845, 0xA8A39A, 4, 4));
        level.section("meshes");
        level.mesh("ground", Meshes.terrain(GROUND_QUADS, size, GROUND_HEIGHT_M, seed + 3));
        level.mesh("rock", Meshes.rock(2, 0.8 + random.nextDouble(), seed + 4));
        level.section("derived assets");
        level.collision("ground_col", "ground");
        level.collision("rock_col", "rock");
        level.section("entities");
        level.entity("ground", "ground", "grass", "ground_col", 0, 0, 0);
        for (int i = 0; i < ROCKS_PER_CHUNK; i++) {
            double x = random.nextDouble(-0.4 * size, 0.4 * size), z = random.nextDouble(-0.4 * size, 0.4 * size);
            double y = Meshes.terrainHeightAt(x, z, GROUND_QUADS, size, GROUND_HEIGHT_M, seed + 3);
            level.entity("rock_" + i, "rock", "stone", "rock_col", x, y, z);
        }
        level.finish();
        return level;
    }
}
