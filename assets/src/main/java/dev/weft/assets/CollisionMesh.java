package dev.weft.assets;

import dev.weft.WorkerLocal;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Optional;

/**
 * Collision geometry for one mesh: its triangles in a bounding volume hierarchy (an AABB tree), answering
 * ray casts and box overlap queries in about log(n) box tests instead of n triangle tests.
 *
 * <p>{@link #build} is a pure function of the triangles (no shared state, no I/O), so a job can run it as
 * soon as the mesh is parsed: {@code CollisionMesh.build(meshData)}. A built mesh is immutable and its
 * queries are safe from any number of threads. Triangle numbers in results are the source mesh's
 * (triangle i is indices 3i..3i+2). Hits are double-sided.
 *
 * <p>The per-frame queries ({@link #raycastT}, {@link #overlaps(float, float, float, float, float, float)})
 * allocate nothing: their traversal stack and triangle-test scratch are a {@link WorkerLocal}, one per
 * Weft worker (and per thread elsewhere). A query does not wait, so no other job can use the scratch
 * while it runs. (Per-query stacks made ~5 MB of garbage a demo frame; a ThreadLocal, which Weft
 * clears after each job, still made one scratch per job.)
 */
public final class CollisionMesh {
    // Slabs are widened by this relative amount so a ray grazing a triangle on a box face still enters
    // the box despite rounding, and the tree finds exactly what a brute-force loop would.
    private static final float SLAB_SLACK = 1e-5f;

    private final float[] triangles;     // 9 floats per triangle, leaf order
    private final int[] sourceTriangle;  // leaf order -> source mesh triangle index
    private final float[] nodeBounds;    // 6 per node: min xyz, max xyz
    private final int[] nodeFirst;       // leaf: first triangle; inner: left child (right = left + 1)
    private final int[] nodeCount;       // leaf: triangle count (> 0); inner: 0
    private final int depth;             // longest root-to-leaf path, in nodes; sizes the query stack
    private final Aabb bounds;

    /** Per-worker query scratch: a traversal stack (grown to the deepest tree seen) and 18 floats. */
    private static final class Scratch {
        int[] stack = new int[32];
        final float[] floats = new float[TriangleTests.SCRATCH_FLOATS];

        int[] stack(int size) {
            if (stack.length < size) {
                stack = new int[Math.max(size, stack.length * 2)];
            }
            return stack;
        }
    }

    private static final WorkerLocal<Scratch> SCRATCH = WorkerLocal.withInitial(Scratch::new);

    private CollisionMesh(BvhBuilder tree) {
        triangles = tree.reorderedTriangles();
        sourceTriangle = tree.order();
        nodeBounds = tree.bounds;
        nodeFirst = tree.first;
        nodeCount = tree.count;
        depth = tree.depth;
        bounds = new Aabb(nodeBounds[0], nodeBounds[1], nodeBounds[2], nodeBounds[3], nodeBounds[4], nodeBounds[5]);
    }

    /**
     * Builds from a parsed mesh's positions and indices.
     *
     * @param mesh the parsed mesh; its indices, three per triangle, pick positions from its vertices
     * @return the mesh's collision BVH
     * @throws IllegalArgumentException for no triangles or a non-finite position
     */
    public static CollisionMesh build(MeshData mesh) {
        FloatBuffer vertices = mesh.vertices();
        IntBuffer indices = mesh.indices();
        float[] tris = new float[indices.remaining() * 3];
        for (int i = 0; i < indices.remaining(); i++) {
            int v = indices.get(i) * MeshData.FLOATS_PER_VERTEX + MeshData.POSITION_OFFSET;
            tris[i * 3] = vertices.get(v);
            tris[i * 3 + 1] = vertices.get(v + 1);
            tris[i * 3 + 2] = vertices.get(v + 2);
        }
        return fromTriangles(tris);
    }

    /**
     * Builds from raw data: {@code positions} holds xyz per vertex, {@code indices} three per triangle.
     *
     * @param positions x, y, z per vertex
     * @param indices three vertex indices per triangle; a positive multiple of 3
     * @return the collision BVH over those triangles
     * @throws IllegalArgumentException for no triangles, an index out of range or a non-finite position
     */
    public static CollisionMesh build(float[] positions, int[] indices) {
        if (indices.length == 0 || indices.length % 3 != 0) {
            throw new IllegalArgumentException("need a positive multiple of 3 indices, got " + indices.length);
        }
        float[] tris = new float[indices.length * 3];
        for (int i = 0; i < indices.length; i++) {
            int v = indices[i];
            if (v < 0 || v * 3 + 2 >= positions.length) {
                throw new IllegalArgumentException("index " + v + " at " + i + " is out of range");
            }
            System.arraycopy(positions, v * 3, tris, i * 3, 3);
        }
        return fromTriangles(tris);
    }

    private static CollisionMesh fromTriangles(float[] tris) {
        for (float c : tris) {
            if (!Float.isFinite(c)) {
                throw new IllegalArgumentException("non-finite vertex position " + c);
            }
        }
        return new CollisionMesh(BvhBuilder.build(tris));
    }

    /**
     * The box around every triangle, the root node's bounds.
     *
     * @return the mesh's bounding box
     */
    public Aabb bounds() {
        return bounds;
    }

    /**
     * The number of triangles, as given.
     *
     * @return the number of triangles
     */
    public int triangleCount() {
        return sourceTriangle.length;
    }

    /**
     * Nodes in the tree (2 × leaves - 1).
     *
     * @return the number of nodes
     */
    public int nodeCount() {
        return nodeCount.length;
    }

    /**
     * Longest root-to-leaf path in nodes; a balanced tree over n triangles is about log2(n / 4) + 1.
     *
     * @return the depth of the tree, in nodes
     */
    public int depth() {
        return depth;
    }

    /**
     * The closest triangle hit by the ray origin + t·direction with 0 ≤ t ≤ {@code maxT}.
     * The direction need not be unit length (t is then in multiples of it) but must not be zero.
     *
     * @param ox the ray origin's x
     * @param oy the ray origin's y
     * @param oz the ray origin's z
     * @param dx the ray direction's x
     * @param dy the ray direction's y
     * @param dz the ray direction's z
     * @param maxT the farthest ray parameter to consider, in multiples of the direction
     * @return the closest hit (its t and source triangle index), or empty if the ray hits nothing up to
     *         {@code maxT}
     * @throws IllegalArgumentException if the direction is zero
     */
    public Optional<RayHit> raycast(float ox, float oy, float oz, float dx, float dy, float dz, float maxT) {
        long hit = nearestHit(ox, oy, oz, dx, dy, dz, maxT);
        int leaf = (int) hit;
        return leaf < 0 ? Optional.empty()
                : Optional.of(new RayHit(Float.intBitsToFloat((int) (hit >>> 32)), sourceTriangle[leaf]));
    }

    /**
     * As {@link #raycast}, but only the ray parameter of the closest hit, or NaN if none; allocates nothing.
     *
     * @param ox the ray origin's x
     * @param oy the ray origin's y
     * @param oz the ray origin's z
     * @param dx the ray direction's x
     * @param dy the ray direction's y
     * @param dz the ray direction's z
     * @param maxT the farthest ray parameter to consider, in multiples of the direction
     * @return the closest hit's t, or NaN if the ray hits nothing up to {@code maxT}
     * @throws IllegalArgumentException if the direction is zero
     */
    public float raycastT(float ox, float oy, float oz, float dx, float dy, float dz, float maxT) {
        long hit = nearestHit(ox, oy, oz, dx, dy, dz, maxT);
        return (int) hit < 0 ? Float.NaN : Float.intBitsToFloat((int) (hit >>> 32));
    }

    /** The closest hit as (float bits of t) << 32 | leaf-order triangle, or a negative low half if none. */
    private long nearestHit(float ox, float oy, float oz, float dx, float dy, float dz, float maxT) {
        if (dx == 0 && dy == 0 && dz == 0) {
            throw new IllegalArgumentException("zero ray direction");
        }
        // "+ 0f" turns -0 into +0, so a zero component always gives +∞ and the NaN rule in enter() holds.
        float ix = 1 / (dx + 0f), iy = 1 / (dy + 0f), iz = 1 / (dz + 0f);
        float bestT = maxT;
        int best = -1;
        int[] stack = SCRATCH.get().stack(depth + 1);
        int top = 0;
        if (!Float.isNaN(enter(0, ox, oy, oz, ix, iy, iz, bestT))) {
            stack[top++] = 0;
        }
        while (top > 0) {
            int node = stack[--top];
            if (nodeCount[node] > 0) {
                for (int i = nodeFirst[node], end = i + nodeCount[node]; i < end; i++) {
                    float t = TriangleTests.ray(triangles, i * 9, ox, oy, oz, dx, dy, dz, bestT);
                    if (!Float.isNaN(t) && (t < bestT || best < 0)) {
                        bestT = t;
                        best = i;
                    }
                }
                continue;
            }
            int left = nodeFirst[node], right = left + 1;
            float tLeft = enter(left, ox, oy, oz, ix, iy, iz, bestT);
            float tRight = enter(right, ox, oy, oz, ix, iy, iz, bestT);
            // Push the farther child first so the nearer one is searched first and shrinks bestT.
            boolean leftFirst = Float.isNaN(tRight) || (!Float.isNaN(tLeft) && tLeft <= tRight);
            int near = leftFirst ? left : right, far = leftFirst ? right : left;
            float tNear = leftFirst ? tLeft : tRight, tFar = leftFirst ? tRight : tLeft;
            if (!Float.isNaN(tFar)) {
                stack[top++] = far;
            }
            if (!Float.isNaN(tNear)) {
                stack[top++] = near;
            }
        }
        return ((long) Float.floatToRawIntBits(bestT) << 32) | (best & 0xFFFF_FFFFL);
    }

    /**
     * True if any triangle touches or intersects the box.
     *
     * @param box the box to test
     * @return true if some triangle touches or intersects it
     */
    public boolean overlaps(Aabb box) {
        return overlaps(box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(), box.maxZ());
    }

    /**
     * True if any triangle touches or intersects the box given by its corners; allocates nothing.
     *
     * @param minX the box's smallest x
     * @param minY the box's smallest y
     * @param minZ the box's smallest z
     * @param maxX the box's largest x
     * @param maxY the box's largest y
     * @param maxZ the box's largest z
     * @return true if some triangle touches or intersects the box
     */
    public boolean overlaps(float minX, float minY, float minZ, float maxX, float maxY, float maxZ) {
        return visitOverlapping(minX, minY, minZ, maxX, maxY, maxZ, null) > 0;
    }

    /**
     * Source indices, ascending, of every triangle touching or intersecting the box.
     *
     * @param box the box to test
     * @return the indices, in the order the triangles were given, of the triangles that touch or intersect
     *         it; empty if none
     */
    public int[] trianglesOverlapping(Aabb box) {
        int[][] found = {new int[16]};
        int n = visitOverlapping(box.minX(), box.minY(), box.minZ(), box.maxX(), box.maxY(), box.maxZ(), found);
        int[] result = Arrays.copyOf(found[0], n);
        Arrays.sort(result);
        return result;
    }

    /**
     * Walks the tree for triangles overlapping the box. With {@code found == null} it stops at the first
     * and returns 1 (or 0); otherwise it appends every source index to {@code found[0]} (grown as needed)
     * and returns how many.
     */
    private int visitOverlapping(float minX, float minY, float minZ, float maxX, float maxY, float maxZ,
                                 int[][] found) {
        Scratch scratch = SCRATCH.get();
        int[] stack = scratch.stack(2 * depth + 2);       // both children are pushed at each level
        float cx = (minX + maxX) * 0.5f, cy = (minY + maxY) * 0.5f, cz = (minZ + maxZ) * 0.5f;
        float hx = (maxX - minX) * 0.5f, hy = (maxY - minY) * 0.5f, hz = (maxZ - minZ) * 0.5f;
        int count = 0;
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            int node = stack[--top];
            int b = node * 6;
            if (nodeBounds[b] > maxX || minX > nodeBounds[b + 3] || nodeBounds[b + 1] > maxY
                    || minY > nodeBounds[b + 4] || nodeBounds[b + 2] > maxZ || minZ > nodeBounds[b + 5]) {
                continue;
            }
            if (nodeCount[node] == 0) {
                stack[top++] = nodeFirst[node];
                stack[top++] = nodeFirst[node] + 1;
                continue;
            }
            for (int i = nodeFirst[node], end = i + nodeCount[node]; i < end; i++) {
                if (TriangleTests.overlapsBox(triangles, i * 9, cx, cy, cz, hx, hy, hz, scratch.floats)) {
                    if (found == null) {
                        return 1;
                    }
                    if (count == found[0].length) {
                        found[0] = Arrays.copyOf(found[0], count * 2);
                    }
                    found[0][count++] = sourceTriangle[i];
                }
            }
        }
        return count;
    }

    /**
     * Slab test: the ray parameter at which the ray enters node's box, or NaN if it misses the box within
     * [0, maxT]. Written with comparisons that skip NaN (0 × ∞ for a ray parallel to a slab that starts
     * on its plane) instead of Math.min/max, which would propagate it.
     */
    private float enter(int node, float ox, float oy, float oz, float ix, float iy, float iz, float maxT) {
        int b = node * 6;
        long range = range(0, maxT);
        range = slab(range, nodeBounds[b], nodeBounds[b + 3], ox, ix);
        range = slab(range, nodeBounds[b + 1], nodeBounds[b + 4], oy, iy);
        range = slab(range, nodeBounds[b + 2], nodeBounds[b + 5], oz, iz);
        float tMin = tMin(range), tMax = tMax(range);
        return tMin <= tMax * (1 + SLAB_SLACK) + SLAB_SLACK ? tMin : Float.NaN;
    }

    /** The interval narrowed to one slab's [lo, hi] along one axis (comparisons skip NaN). */
    private static long slab(long range, float lo, float hi, float origin, float inverseDirection) {
        float t0 = (lo - origin) * inverseDirection;
        float t1 = (hi - origin) * inverseDirection;
        if (t0 > t1) {
            float swap = t0;
            t0 = t1;
            t1 = swap;
        }
        float tMin = tMin(range), tMax = tMax(range);
        return range(t0 > tMin ? t0 : tMin, t1 < tMax ? t1 : tMax);
    }

    // A ray interval [tMin, tMax] packed in a long, so the slab test allocates nothing.
    private static long range(float tMin, float tMax) {
        return ((long) Float.floatToRawIntBits(tMin) << 32) | (Float.floatToRawIntBits(tMax) & 0xFFFF_FFFFL);
    }

    private static float tMin(long range) {
        return Float.intBitsToFloat((int) (range >>> 32));
    }

    private static float tMax(long range) {
        return Float.intBitsToFloat((int) range);
    }
}
