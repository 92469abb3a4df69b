package dev.weft.assets;

import java.util.List;

/**
 * One asset declared in a level file.
 *
 * @param name      unique within the level
 * @param kind      what it is
 * @param path      file path relative to the level file's directory; {@code null} for derived assets
 * @param dependsOn names of the assets this one is built from (a collision's source mesh); empty for files
 * @param line      1-based line of the declaration, for error messages further down the pipeline
 */
public record LevelAsset(String name, AssetKind kind, String path, List<String> dependsOn, int line) {
    /**
     * Copies {@code dependsOn} and checks the path against the kind.
     *
     * @throws IllegalArgumentException if a derived asset has a path or a file asset has none
     */
    public LevelAsset {
        dependsOn = List.copyOf(dependsOn);
        if (kind.isDerived() != (path == null)) {
            throw new IllegalArgumentException(kind + " " + name + ": derived assets have no path, file assets need one");
        }
    }
}
