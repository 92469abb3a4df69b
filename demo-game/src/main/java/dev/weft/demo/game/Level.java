package dev.weft.demo.game;

import dev.weft.assets.MeshSource;
import dev.weft.assets.TextureSource;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A loaded level, as a {@link LevelLoading} hands it to the game: CPU-side meshes and textures (the game
 * uploads them on the main thread), the static props placed in it, and its collision world.
 *
 * <p>Immutable once built, so it may be built on a worker and read from the main thread after the
 * handle reports done. {@link #close()} frees CPU-side data (for example STB-decoded pixels) once the
 * game has uploaded it; the meshes and textures must not be read after that.
 */
public final class Level implements AutoCloseable {
    private final String name;
    private final Map<String, MeshSource> meshes;
    private final Map<String, TextureSource> textures;
    private final List<Prop> props;
    private final CollisionWorld collision;
    private final AutoCloseable cpuData;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * One static object drawn in the level: a mesh with a texture, scaled then translated.
     *
     * @param mesh    key into {@link #meshes()}
     * @param texture key into {@link #textures()}
     */
    public record Prop(String name, String mesh, String texture, float x, float y, float z,
                       float scaleX, float scaleY, float scaleZ) {
        public Prop {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(mesh, "mesh");
            Objects.requireNonNull(texture, "texture");
        }

        /** A prop at {@code (x, y, z)} with no scaling (what a level file's {@code entity} line gives). */
        public static Prop at(String name, String mesh, String texture, float x, float y, float z) {
            return new Prop(name, mesh, texture, x, y, z, 1f, 1f, 1f);
        }
    }

    /**
     * @param meshes   by asset name, in a stable order (it is the upload and draw-key order)
     * @param textures likewise
     * @param cpuData  closed by {@link #close()}; null if nothing needs freeing
     * @throws IllegalArgumentException if a prop names a mesh or texture that is not in the maps
     */
    public Level(String name, Map<String, ? extends MeshSource> meshes, Map<String, ? extends TextureSource> textures,
                 List<Prop> props, CollisionWorld collision, AutoCloseable cpuData) {
        this.name = Objects.requireNonNull(name, "name");
        this.meshes = Collections.unmodifiableMap(new LinkedHashMap<>(meshes));
        this.textures = Collections.unmodifiableMap(new LinkedHashMap<>(textures));
        this.props = List.copyOf(props);
        this.collision = Objects.requireNonNull(collision, "collision");
        this.cpuData = cpuData;
        for (Prop p : this.props) {
            if (!this.meshes.containsKey(p.mesh())) {
                throw new IllegalArgumentException("prop " + p.name() + " uses mesh '" + p.mesh() + "', which "
                        + name + " does not have");
            }
            if (!this.textures.containsKey(p.texture())) {
                throw new IllegalArgumentException("prop " + p.name() + " uses texture '" + p.texture()
                        + "', which " + name + " does not have");
            }
        }
    }

    public String name() {
        return name;
    }

    public Map<String, MeshSource> meshes() {
        return meshes;
    }

    public Map<String, TextureSource> textures() {
        return textures;
    }

    public List<Prop> props() {
        return props;
    }

    public CollisionWorld collision() {
        return collision;
    }

    /** Frees CPU-side asset data; idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && cpuData != null) {
            try {
                cpuData.close();
            } catch (Exception e) {
                throw new IllegalStateException("level " + name + ": freeing CPU-side data failed", e);
            }
        }
    }

    @Override
    public String toString() {
        return "Level[" + name + ": " + meshes.size() + " meshes, " + textures.size() + " textures, "
                + props.size() + " props, " + collision + "]";
    }
}
