package dev.weft.assets;

import java.util.ArrayList;
import java.util.List;

/**
 * One entity placed in a level.
 *
 * @param name      unique among the level's entities
 * @param mesh      name of a {@link AssetKind#MESH} asset
 * @param texture   name of a {@link AssetKind#TEXTURE} asset
 * @param collision name of a {@link AssetKind#COLLISION} asset, or {@code null} for no collision
 * @param xM        position in metres
 * @param yM        position in metres
 * @param zM        position in metres
 * @param line      1-based line of the declaration
 */
public record LevelEntity(String name, String mesh, String texture, String collision,
                          float xM, float yM, float zM, int line) {

    /**
     * The assets this entity needs before it can be spawned.
     *
     * @return a new list of the names of its mesh, texture and (if any) collision asset
     */
    public List<String> dependsOn() {
        List<String> names = new ArrayList<>(3);
        names.add(mesh);
        names.add(texture);
        if (collision != null) {
            names.add(collision);
        }
        return names;
    }
}
