package dev.weft.assets;

import java.util.Objects;

/**
 * What an {@link AssetManager} loads: a kind and a path in its {@link AssetSource}. A collision asset is
 * named by the path of the mesh it is built from, so {@code collision:demo/meshes/rock.obj} is the BVH of
 * {@code mesh:demo/meshes/rock.obj}, whoever asks for it.
 *
 * <p>Paths whose file name lies in {@value #PLACEHOLDER_DIR} name placeholders (a checker texture, a unit
 * cube): they load without I/O. The level loader uses them for assets a broken level file declares
 * badly; see {@link LevelLoader}.
 *
 * <p>The path is kept in normal form, so one file is one asset whatever way it was named:
 * {@code /tiny/x.png}, {@code tiny/./x.png}, {@code tiny//x.png} and {@code tiny/a/../x.png} are all
 * {@code tiny/x.png} (they were separate assets: two copies in memory and on the GPU). Backslashes are not
 * separators.
 *
 * @param kind what to make
 * @param path source path, {@code '/'}-separated, e.g. {@code tiny/textures/grass_64.png}; stored normalized
 */
public record AssetId(AssetKind kind, String path) {
    /** Directory (relative to a level) of placeholder assets, which have no file. */
    public static final String PLACEHOLDER_DIR = "__placeholder__/";

    /**
     * Checks the id.
     *
     * @throws NullPointerException if {@code kind} or {@code path} is null
     * @throws IllegalArgumentException if {@code path} is empty, names no file ({@code "/"}, {@code "."}) or
     *                                  leaves the source's root ({@code "../x.png"})
     */
    public AssetId {
        Objects.requireNonNull(kind, "asset kind is null: pass AssetKind.TEXTURE, MESH or COLLISION");
        Objects.requireNonNull(path, "asset path is null: pass the file's path in the manager's source,"
                + " '/'-separated, e.g. tiny/textures/grass_64.png");
        if (path.isEmpty()) {
            throw new IllegalArgumentException("empty asset path: pass the file's path in the manager's source,"
                    + " '/'-separated, e.g. tiny/textures/grass_64.png");
        }
        path = normalize(path);
    }

    /** {@code path} without empty and {@code "."} segments, {@code ".."} resolved; most paths are normal already. */
    private static String normalize(String path) {
        if (isNormal(path)) {
            return path;
        }
        java.util.ArrayDeque<String> parts = new java.util.ArrayDeque<>();
        for (String part : path.split("/")) {
            if (part.equals("..")) {
                if (parts.pollLast() == null) {
                    throw new IllegalArgumentException("asset path '" + path + "' leaves the source's root; name the"
                            + " file from the root, e.g. tiny/textures/grass_64.png");
                }
            } else if (!part.isEmpty() && !part.equals(".")) {
                parts.addLast(part);
            }
        }
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("asset path '" + path + "' names no file; pass the file's path in the"
                    + " manager's source, e.g. tiny/textures/grass_64.png");
        }
        return String.join("/", parts);
    }

    private static boolean isNormal(String path) {
        int start = 0;
        for (int i = 0; i <= path.length(); i++) {
            if (i == path.length() || path.charAt(i) == '/') {
                int n = i - start;
                if (n == 0 || path.charAt(start) == '.' && (n == 1 || n == 2 && path.charAt(start + 1) == '.')) {
                    return false;
                }
                start = i + 1;
            }
        }
        return true;
    }

    /**
     * The texture at {@code path}.
     *
     * @param path the texture's source path
     * @return the texture's id
     */
    public static AssetId texture(String path) {
        return new AssetId(AssetKind.TEXTURE, path);
    }

    /**
     * The mesh at {@code path}.
     *
     * @param path the mesh's source path
     * @return the mesh's id
     */
    public static AssetId mesh(String path) {
        return new AssetId(AssetKind.MESH, path);
    }

    /**
     * The collision BVH of the mesh at {@code meshPath}.
     *
     * @param meshPath the mesh's source path
     * @return the collision asset's id
     */
    public static AssetId collision(String meshPath) {
        return new AssetId(AssetKind.COLLISION, meshPath);
    }

    /**
     * True for placeholder paths, which load without I/O.
     *
     * @return true if the path names a placeholder
     */
    public boolean isPlaceholder() {
        return path.startsWith(PLACEHOLDER_DIR) || path.contains("/" + PLACEHOLDER_DIR);
    }

    /**
     * The mesh a collision asset is built from; only for {@link AssetKind#COLLISION}.
     *
     * @return the id of the mesh at the same path
     * @throws IllegalStateException if this is not a collision asset
     */
    public AssetId sourceMesh() {
        if (kind != AssetKind.COLLISION) {
            throw new IllegalStateException(this + " is not derived from a mesh");
        }
        return mesh(path);
    }

    /** {@code kind:path}, e.g. {@code texture:tiny/textures/grass_64.png}; what fault-plan CPU rules match. */
    @Override
    public String toString() {
        return kind.keyword() + ":" + path;
    }
}
