package dev.weft.assets;

/**
 * Sanity limits for {@link ObjParser}: a file over any of them is rejected as malformed rather than
 * allowed to allocate without bound. The defaults are far above any real game mesh.
 *
 * @param maxFaceCorners most corners in one polygon (a 1000-gon is garbage, not a cap)
 * @param maxElements    most {@code v}, {@code vt} or {@code vn} lines, each
 * @param maxTriangles   most triangles after triangulation
 */
public record ObjLimits(int maxFaceCorners, int maxElements, int maxTriangles) {
    /** The limits {@link ObjParser#parse(String, byte[])} uses: 256 corners, 2^24 elements and triangles. */
    public static final ObjLimits DEFAULT = new ObjLimits(256, 1 << 24, 1 << 24);

    /**
     * Checks the limits.
     *
     * @throws IllegalArgumentException if {@code maxFaceCorners} is below 3 or another limit below 1
     */
    public ObjLimits {
        if (maxFaceCorners < 3 || maxElements < 1 || maxTriangles < 1) {
            throw new IllegalArgumentException("limits too small: " + maxFaceCorners + ", " + maxElements + ", " + maxTriangles);
        }
    }
}
