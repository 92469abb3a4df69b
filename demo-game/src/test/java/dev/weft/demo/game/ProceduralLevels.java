package dev.weft.demo.game;

import dev.weft.demo.game.BoxCollisionWorld.Box;
import dev.weft.demo.game.CollisionWorld.WorldBounds;
import dev.weft.assets.MeshSource;
import dev.weft.assets.ProceduralMeshes;
import dev.weft.demo.render.ProceduralTextures;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Supplier;

/**
 * The content of the procedural levels: which assets to generate and where the props stand. Every
 * number is fixed (the layout's random numbers come from a constant seed), so a level is the same on
 * every run and machine.
 */
final class ProceduralLevels {
    private ProceduralLevels() {}

    /** Levels this class can make. */
    static final List<String> NAMES = List.of("demo", "tiny");

    /**
     * One asset to make.
     *
     * @param bytes    what {@code generate} will produce, known up front for the progress total
     * @param generate makes a {@link MeshSource} or a {@code TextureSource}; pure, any thread
     */
    record AssetRecipe(String name, String kind, long bytes, Supplier<Object> generate) {}

    /** A level to make: its assets, props, and the boxes and ground of its collision world. */
    record Recipe(String name, List<AssetRecipe> assets, List<Level.Prop> props, List<Box> boxes, WorldBounds bounds) {}

    static Optional<Recipe> recipe(String name) {
        return switch (name) {
            case "demo" -> Optional.of(build("demo", 96f, 16, 24, 6, 512));
            case "tiny" -> Optional.of(build("tiny", 24f, 0, 3, 1, 64));
            default -> Optional.empty();
        };
    }

    private static Recipe build(String name, float groundSize, int pillars, int crates, int balls, int textureSize) {
        List<AssetRecipe> assets = new ArrayList<>();
        int small = Math.max(16, textureSize / 2);
        assets.add(texture("grass", textureSize, 16, 0x4E8A3A, 0x3F7530));
        assets.add(texture("wood", small, 4, 0xA06A38, 0x7E5028));
        if (pillars > 0) {
            assets.add(texture("stone", small, 8, 0x8C8C8C, 0x6E6E72));
        }
        if (balls > 0) {
            assets.add(texture("metal", Math.max(16, small / 2), 2, 0xB8C0C8, 0x8890A0));
        }
        assets.add(mesh("ground", 4, 6, () -> ProceduralMeshes.plane(groundSize, groundSize / 4f)));
        assets.add(mesh("block", 24, 36, () -> ProceduralMeshes.cube(1f)));
        if (balls > 0) {
            assets.add(mesh("ball", Shapes.uvSphereVertices(24, 16), Shapes.uvSphereIndices(24, 16),
                    () -> Shapes.uvSphere(1f, 24, 16)));
        }

        List<Level.Prop> props = new ArrayList<>();
        List<Box> boxes = new ArrayList<>();
        props.add(Level.Prop.at("ground", "ground", "grass", 0f, 0f, 0f));
        float half = groundSize / 2f;
        for (int i = 0; i < pillars; i++) {
            double a = 2 * Math.PI * i / pillars;
            float x = (float) (Math.cos(a) * half * 0.62);
            float z = (float) (Math.sin(a) * half * 0.62);
            props.add(new Level.Prop("pillar_" + i, "block", "stone", x, 3f, z, 1.2f, 6f, 1.2f));
            boxes.add(Box.standing(x, 0f, z, 1.2f, 6f, 1.2f));
        }
        SplittableRandom layout = new SplittableRandom(7);
        for (int i = 0; i < crates; i++) {
            float size = 1f + (float) layout.nextDouble(1.5);
            float x = (float) layout.nextDouble(-half * 0.8, half * 0.8);
            float z = (float) layout.nextDouble(-half * 0.8, half * 0.8);
            props.add(new Level.Prop("crate_" + i, "block", "wood", x, size / 2f, z, size, size, size));
            boxes.add(Box.standing(x, 0f, z, size, size, size));
        }
        for (int i = 0; i < balls; i++) {
            double a = 2 * Math.PI * (i + 0.5) / balls;
            float x = (float) (Math.cos(a) * half * 0.3);
            float z = (float) (Math.sin(a) * half * 0.3);
            props.add(new Level.Prop("ball_" + i, "ball", "metal", x, 4f, z, 1.5f, 1.5f, 1.5f));
        }
        WorldBounds bounds = new WorldBounds(-half, 0f, -half, half, 40f, half);
        return new Recipe(name, List.copyOf(assets), List.copyOf(props), List.copyOf(boxes), bounds);
    }

    private static AssetRecipe texture(String name, int size, int cells, int rgbA, int rgbB) {
        return new AssetRecipe(name, "texture", (long) size * size * 4,
                () -> ProceduralTextures.checker(size, Math.min(cells, size), rgbA, rgbB));
    }

    private static AssetRecipe mesh(String name, int vertices, int indices, Supplier<MeshSource> make) {
        long bytes = (long) vertices * MeshSource.FLOATS_PER_VERTEX * Float.BYTES + (long) indices * Integer.BYTES;
        return new AssetRecipe(name, "mesh", bytes, make::get);
    }
}
