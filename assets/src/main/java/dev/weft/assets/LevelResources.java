package dev.weft.assets;

/**
 * Where level content lives on the classpath: the assets module's generator writes level {@code name} to
 * {@code weft/levels/<name>/<name>.level}, with asset paths relative to that directory. Only names are
 * computed here; reading them is the I/O layer's business.
 */
public final class LevelResources {
    /** Classpath root of all levels (no leading slash, as {@link ClassLoader#getResource} wants). */
    public static final String ROOT = "weft/levels/";

    private LevelResources() {
    }

    /**
     * {@code weft/levels/demo/demo.level} for {@code demo}.
     *
     * @param levelName the level's name
     * @return the level file's resource name
     */
    public static String levelFile(String levelName) {
        return ROOT + levelName + "/" + levelName + ".level";
    }

    /**
     * Resource name of an asset file declared in level {@code levelName}.
     *
     * @param levelName the level's name
     * @param asset a file asset of that level
     * @return the asset file's resource name, under {@link #ROOT}
     * @throws IllegalArgumentException if {@code asset} is derived (it has no file)
     */
    public static String assetFile(String levelName, LevelAsset asset) {
        if (asset.path() == null) {
            throw new IllegalArgumentException(asset.name() + " is derived and has no file");
        }
        return ROOT + levelName + "/" + asset.path();
    }
}
