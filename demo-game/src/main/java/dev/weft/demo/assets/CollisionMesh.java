package dev.weft.demo.assets;

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

    private CollisionMesh(BvhBuilder tree) {
        triangles = tree.reorderedTriangles();
        sourceTriangle = tree.order();
        nodeBounds = tree.bounds;
        nodeFirst = tree.first;
        nodeCount = tree.count;
        depth = tree.depth;
        bounds = new Aabb(nodeBounds[0], nodeBounds[1], nodeBounds[2], nodeBounds[3], nodeBounds[4], nodeBounds[5]);
    }

    /** Builds from a parsed mesh's positions and indices. */
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

    public Aabb bounds() {
        return bounds;
    }

    public int triangleCount() {
        return sourceTriangle.length;
    }

    /** Nodes in the tree (2 × leaves - 1). */
    public int nodeCount() {
        return nodeCount.length;
    }

    /** Longest root-to-leaf path in nodes; a balanced tree over n triangles is about log2(n / 4) + 1. */
    public int depth() {
        return depth;
    }

    /**
     * The closest triangle hit by the ray origin + t·direction with 0 ≤ t ≤ {@code maxT}.
     * The direction need not be unit length (t is then in multiples of it) but must not be zero.
     */
    public Optional<RayHit> raycast(float ox, float oy, float oz, float dx, float dy, float dz, float maxT) {
        if (dx == 0 && dy == 0 && dz == 0) {
            throw new IllegalArgumentException("zero ray direction");
        }
        float[] origin = {ox, oy, oz};
        // "+ 0f" turns -0 into +0, so a zero component always gives +∞ and the NaN rule in enter() holds.
        float[] inverseDirection = {1 / (dx + 0f), 1 / (dy + 0f), 1 / (dz + 0f)};
        float bestT = maxT;
        int best = -1;
        int[] stack = new int[depth + 1];
        int top = 0;
        if (!Float.isNaN(enter(0, origin, inverseDirection, bestT))) {
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
            float tLeft = enter(left, origin, inverseDirection, bestT);
            float tRight = enter(right, origin, inverseDirection, bestT);
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
        return best < 0 ? Optional.empty() : Optional.of(new RayHit(bestT, sourceTriangle[best]));
    }

    /** True if any triangle touches or intersects the box. */
    public boolean overlaps(Aabb box) {
        return overlapping(box, true).length > 0;
    }

    /** Source indices, ascending, of every triangle touching or intersecting the box. */
    public int[] trianglesOverlapping(Aabb box) {
        int[] found = overlapping(box, false);
        Arrays.sort(found);
        return found;
    }

    private int[] overlapping(Aabb box, boolean firstOnly) {
        int[] found = new int[16];
        int foundCount = 0;
        int[] stack = new int[depth + 1];
        int top = 0;
        stack[top++] = 0;
        while (top > 0) {
            int node = stack[--top];
            if (!boxOverlaps(node, box)) {
                continue;
            }
            if (nodeCount[node] == 0) {
                stack[top++] = nodeFirst[node];
                stack[top++] = nodeFirst[node] + 1;
                continue;
            }
            for (int i = nodeFirst[node], end = i + nodeCount[node]; i < end; i++) {
                if (TriangleTests.overlapsBox(triangles, i * 9, box)) {
                    if (foundCount == found.length) {
                        found = Arrays.copyOf(found, foundCount * 2);
                    }
                    found[foundCount++] = sourceTriangle[i];
                    if (firstOnly) {
                        return Arrays.copyOf(found, foundCount);
                    }
                }
            }
        }
        return Arrays.copyOf(found, foundCount);
    }

    private boolean boxOverlaps(int node, Aabb box) {
        int b = node * 6;
        return nodeBounds[b] <= box.maxX() && box.minX() <= nodeBounds[b + 3]
                && nodeBounds[b + 1] <= box.maxY() && box.minY() <= nodeBounds[b + 4]
                && nodeBounds[b + 2] <= box.maxZ() && box.minZ() <= nodeBounds[b + 5];
    }

    /**
     * Slab test: the ray parameter at which the ray enters node's box, or NaN if it misses the box within
     * [0, maxT]. Written with comparisons that skip NaN (0 × ∞ for a ray parallel to a slab that starts
     * on its plane) instead of Math.min/max, which would propagate it.
     */
    private float enter(int node, float[] origin, float[] inverseDirection, float maxT) {
        int b = node * 6;
        float tMin = 0, tMax = maxT;
        for (int axis = 0; axis < 3; axis++) {
            float t0 = (nodeBounds[b + axis] - origin[axis]) * inverseDirection[axis];
            float t1 = (nodeBounds[b + 3 + axis] - origin[axis]) * inverseDirection[axis];
            if (t0 > t1) {
                float swap = t0;
                t0 = t1;
                t1 = swap;
            }
            if (t0 > tMin) {
                tMin = t0;
            }
            if (t1 < tMax) {
                tMax = t1;
            }
        }
        return tMin <= tMax * (1 + SLAB_SLACK) + SLAB_SLACK ? tMin : Float.NaN;
    }
}
