package dev.weft.assets;

/**
 * Exact primitive tests on one triangle stored as nine floats (three xyz corners) at {@code at} in an
 * array. Shared by the BVH and by the brute-force checks in the tests, so both agree on every edge case.
 */
final class TriangleTests {
    private static final float PARALLEL_EPSILON = 1e-12f;

    private TriangleTests() {
    }

    /**
     * Möller–Trumbore, double-sided (collision has no back faces). Returns the ray parameter of the hit in
     * [0, tMax], or NaN for a miss.
     */
    static float ray(float[] tri, int at, float ox, float oy, float oz, float dx, float dy, float dz, float tMax) {
        float ax = tri[at], ay = tri[at + 1], az = tri[at + 2];
        float e1x = tri[at + 3] - ax, e1y = tri[at + 4] - ay, e1z = tri[at + 5] - az;
        float e2x = tri[at + 6] - ax, e2y = tri[at + 7] - ay, e2z = tri[at + 8] - az;
        float px = dy * e2z - dz * e2y, py = dz * e2x - dx * e2z, pz = dx * e2y - dy * e2x;
        float det = e1x * px + e1y * py + e1z * pz;
        if (Math.abs(det) < PARALLEL_EPSILON) {
            return Float.NaN;
        }
        float inv = 1 / det;
        float sx = ox - ax, sy = oy - ay, sz = oz - az;
        float u = (sx * px + sy * py + sz * pz) * inv;
        if (u < 0 || u > 1) {
            return Float.NaN;
        }
        float qx = sy * e1z - sz * e1y, qy = sz * e1x - sx * e1z, qz = sx * e1y - sy * e1x;
        float v = (dx * qx + dy * qy + dz * qz) * inv;
        if (v < 0 || u + v > 1) {
            return Float.NaN;
        }
        float t = (e2x * qx + e2y * qy + e2z * qz) * inv;
        return t >= 0 && t <= tMax ? t : Float.NaN;
    }

    /**
     * Separating-axis test of a triangle against a box (Akenine-Möller): the 3 box axes, the triangle's
     * normal and the 9 edge × axis cross products. Touching counts as overlapping.
     */
    static boolean overlapsBox(float[] tri, int at, Aabb box) {
        return overlapsBox(tri, at, (box.minX() + box.maxX()) * 0.5f, (box.minY() + box.maxY()) * 0.5f,
                (box.minZ() + box.maxZ()) * 0.5f, (box.maxX() - box.minX()) * 0.5f, (box.maxY() - box.minY()) * 0.5f,
                (box.maxZ() - box.minZ()) * 0.5f, new float[SCRATCH_FLOATS]);
    }

    /** Floats of scratch {@link #overlapsBox(float[], int, float, float, float, float, float, float, float[])} needs. */
    static final int SCRATCH_FLOATS = 18;

    /**
     * As above for the box with centre c and half size h, using {@code scratch} (at least
     * {@value #SCRATCH_FLOATS} floats, overwritten) instead of allocating.
     */
    static boolean overlapsBox(float[] tri, int at, float cx, float cy, float cz, float hx, float hy, float hz,
                               float[] scratch) {
        // Corners relative to the box centre: v = scratch[0..8]; edges: e = scratch[9..17].
        float[] v = scratch;
        for (int k = 0; k < 3; k++) {
            v[k * 3] = tri[at + k * 3] - cx;
            v[k * 3 + 1] = tri[at + k * 3 + 1] - cy;
            v[k * 3 + 2] = tri[at + k * 3 + 2] - cz;
        }
        // Box face normals: the triangle's bounds against the box.
        if (min3(v[0], v[3], v[6]) > hx || max3(v[0], v[3], v[6]) < -hx
                || min3(v[1], v[4], v[7]) > hy || max3(v[1], v[4], v[7]) < -hy
                || min3(v[2], v[5], v[8]) > hz || max3(v[2], v[5], v[8]) < -hz) {
            return false;
        }
        for (int k = 0; k < 3; k++) {                       // edge k runs from corner k to corner k + 1
            int from = k * 3, to = ((k + 1) % 3) * 3;
            scratch[9 + from] = v[to] - v[from];
            scratch[9 + from + 1] = v[to + 1] - v[from + 1];
            scratch[9 + from + 2] = v[to + 2] - v[from + 2];
        }
        // Edge × box axis.
        for (int i = 0; i < 3; i++) {
            float ex = scratch[9 + i * 3], ey = scratch[9 + i * 3 + 1], ez = scratch[9 + i * 3 + 2];
            if (separates(v, 0, -ez, ey, hx, hy, hz) || separates(v, ez, 0, -ex, hx, hy, hz)
                    || separates(v, -ey, ex, 0, hx, hy, hz)) {
                return false;
            }
        }
        // Triangle normal: edge 0 × edge 1.
        float e0x = scratch[9], e0y = scratch[10], e0z = scratch[11];
        float e1x = scratch[12], e1y = scratch[13], e1z = scratch[14];
        float nx = e0y * e1z - e0z * e1y, ny = e0z * e1x - e0x * e1z, nz = e0x * e1y - e0y * e1x;
        return !separates(v, nx, ny, nz, hx, hy, hz);
    }

    /** True if the axis (ax, ay, az) separates the centred triangle {@code v} from the box of half size h. */
    private static boolean separates(float[] v, float ax, float ay, float az, float hx, float hy, float hz) {
        float p0 = v[0] * ax + v[1] * ay + v[2] * az;
        float p1 = v[3] * ax + v[4] * ay + v[5] * az;
        float p2 = v[6] * ax + v[7] * ay + v[8] * az;
        float r = hx * Math.abs(ax) + hy * Math.abs(ay) + hz * Math.abs(az);
        return min3(p0, p1, p2) > r || max3(p0, p1, p2) < -r;
    }

    private static float min3(float a, float b, float c) {
        return Math.min(a, Math.min(b, c));
    }

    private static float max3(float a, float b, float c) {
        return Math.max(a, Math.max(b, c));
    }
}
