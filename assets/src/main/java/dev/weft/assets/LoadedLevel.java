package dev.weft.assets;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A loaded level: its assets by the names the level file gives them, and its entities with their assets
 * resolved. Immutable; valid until {@link #close()} (which unloads it: pixels and GPU objects are freed
 * for assets no other level holds).
 */
public final class LoadedLevel implements AutoCloseable {
    private final LevelLoad load;
    private final LevelFile file;
    private final Map<String, LoadedTexture> textures;
    private final Map<String, LoadedMesh> meshes;
    private final Map<String, LoadedCollision> collisions;
    private final List<PlacedEntity> entities;
    private final List<LoadFailure> failures;

    /**
     * An entity with its assets.
     *
     * @param entity the entity as the level file places it
     * @param mesh its mesh
     * @param texture its texture
     * @param collision null if the entity has none
     */
    public record PlacedEntity(LevelEntity entity, LoadedMesh mesh, LoadedTexture texture, LoadedCollision collision) {
        /**
         * The entity's collision mesh, if it has one.
         *
         * @return the collision mesh, or empty
         */
        public Optional<LoadedCollision> collisionMesh() {
            return Optional.ofNullable(collision);
        }
    }

    LoadedLevel(LevelLoad load, LevelFile file, Map<String, LoadedTexture> textures, Map<String, LoadedMesh> meshes,
                Map<String, LoadedCollision> collisions, List<PlacedEntity> entities, List<LoadFailure> failures) {
        this.load = load;
        this.file = file;
        this.textures = Collections.unmodifiableMap(new LinkedHashMap<>(textures));
        this.meshes = Collections.unmodifiableMap(new LinkedHashMap<>(meshes));
        this.collisions = Collections.unmodifiableMap(new LinkedHashMap<>(collisions));
        this.entities = List.copyOf(entities);
        this.failures = List.copyOf(failures);
    }

    /**
     * The level's name, as given to the loader.
     *
     * @return the level's name
     */
    public String name() {
        return load.levelName();
    }

    /**
     * The level file as parsed (after repairs, if it needed any).
     *
     * @return the parsed level file
     */
    public LevelFile file() {
        return file;
    }

    /**
     * The level's textures, by their names in the level file.
     *
     * @return an unmodifiable map of the textures, in declaration order
     */
    public Map<String, LoadedTexture> textures() {
        return textures;
    }

    /**
     * The level's meshes, by their names in the level file.
     *
     * @return an unmodifiable map of the meshes, in declaration order
     */
    public Map<String, LoadedMesh> meshes() {
        return meshes;
    }

    /**
     * The level's collision meshes, by their names in the level file.
     *
     * @return an unmodifiable map of the collision meshes, in declaration order
     */
    public Map<String, LoadedCollision> collisions() {
        return collisions;
    }

    /**
     * The level's entities, with their assets.
     *
     * @return an immutable list of the entities, in declaration order
     */
    public List<PlacedEntity> entities() {
        return entities;
    }

    /**
     * Everything replaced by a placeholder, level-file repairs first.
     *
     * @return an immutable list of the failures; empty if everything loaded
     */
    public List<LoadFailure> failures() {
        return failures;
    }

    /**
     * The load this came from (timings, progress).
     *
     * @return the load
     */
    public LevelLoad load() {
        return load;
    }

    /** Unloads the level; idempotent. */
    @Override
    public void close() {
        load.unload();
    }

    @Override
    public String toString() {
        return "LoadedLevel[" + name() + ": " + textures.size() + " textures, " + meshes.size() + " meshes, "
                + collisions.size() + " collisions, " + entities.size() + " entities, " + failures.size() + " failures]";
    }
}
