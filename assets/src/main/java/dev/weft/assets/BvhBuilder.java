package dev.weft.assets;

import java.util.Arrays;

/**
 * Builds the flat AABB tree behind {@link CollisionMesh}: top-down, splitting each node at the best of
 * {@value #BINS} planes along its widest centroid axis by the surface area heuristic (cost ≈ area ×
 * triangle count of each side). Iterative with an explicit work list, so a degenerate mesh cannot overflow
 * the thread stack (fibers have small ones).
 *
 * <p>Output layout, for node {@code n}: bounds at {@code bounds[6n..6n+5]} (min xyz, max xyz);
 * {@code count[n] > 0} marks a leaf holding triangles {@code first[n] .. first[n]+count[n]-1} of the
 * reordered triangle array; {@code count[n] == 0} marks an inner node whose children are
 * {@code first[n]} and {@code first[n] + 1}.
 */
final class BvhBuilder {
    static final int BINS = 16;
    static final int MAX_LEAF_TRIANGLES = 4;
    /** Above this many triangles a node is split even when SAH prefers a leaf, to bound query cost. */
    private static final int MAX_SAH_LEAF_TRIANGLES = 16;

    private final float[] source;        // 9 floats per triangle, input order
    private final float[] centroids;     // 3 per triangle, input order
    private final int[] order;           // leaf order -> input triangle
    float[] bounds;
    int[] first;
    int[] count;
    int nodeCount;
    int depth;
    private boolean splitBeatsLeaf;     // result of the last bestSahPlane call

    private BvhBuilder(float[] triangles) {
        this.source = triangles;
        int n = triangles.length / 9;
        centroids = new float[n * 3];
        order = new int[n];
        for (int t = 0; t < n; t++) {
            order[t] = t;
            for (int k = 0; k < 3; k++) {
                centroids[t * 3 + k] = (triangles[t * 9 + k] + triangles[t * 9 + 3 + k] + triangles[t * 9 + 6 + k]) / 3;
            }
        }
        int maxNodes = Math.max(1, 2 * n - 1);
        bounds = new float[maxNodes * 6];
        first = new int[maxNodes];
        count = new int[maxNodes];
    }

    static BvhBuilder build(float[] triangles) {
        BvhBuilder builder = new BvhBuilder(triangles);
        builder.buildTree();
        return builder;
    }

    /** Input triangle index of each position in leaf order. */
    int[] order() {
        return order;
    }

    /** Triangles copied into leaf order, so a leaf's triangles sit next to each other in memory. */
    float[] reorderedTriangles() {
        float[] out = new float[source.length];
        for (int i = 0; i < order.length; i++) {
            System.arraycopy(source, order[i] * 9, out, i * 9, 9);
        }
        return out;
    }

    /**
     * Triangle visits (a node's triangles, fitted and binned) between {@link DecodeCheckpoint}s: about
     * 0.5 ms of building on the dev machine, the longest a FRAME job waits for this worker.
     */
    static final int CHECKPOINT_TRIANGLE_VISITS = 16_384;

    private void buildTree() {
        int[] work = new int[64 * 4];   // (node, start, end, depth) tuples
        int top = 0;
        nodeCount = 1;
        work[top++] = 0;
        work[top++] = 0;
        work[top++] = order.length;
        work[top++] = 1;
        long visitsSinceCheckpoint = 0;
        while (top > 0) {
            int nodeDepth = work[--top], end = work[--top], start = work[--top], node = work[--top];
            visitsSinceCheckpoint += end - start;          // fitting and binning are linear in the node's triangles
            if (visitsSinceCheckpoint >= CHECKPOINT_TRIANGLE_VISITS) {
                visitsSinceCheckpoint = 0;
                DecodeCheckpoint.checkpoint();             // the tree so far lives in fields: safe to resume elsewhere
            }
            depth = Math.max(depth, nodeDepth);
            fitBounds(node, start, end);
            int mid = split(node, start, end);
            if (mid < 0) {
                first[node] = start;
                count[node] = end - start;
                continue;
            }
            int left = nodeCount;
            nodeCount += 2;
            first[node] = left;
            count[node] = 0;
            if (top + 8 > work.length) {
                work = Arrays.copyOf(work, work.length * 2);
            }
            work[top++] = left + 1;
            work[top++] = mid;
            work[top++] = end;
            work[top++] = nodeDepth + 1;
            work[top++] = left;
            work[top++] = start;
            work[top++] = mid;
            work[top++] = nodeDepth + 1;
        }
        bounds = Arrays.copyOf(bounds, nodeCount * 6);
        first = Arrays.copyOf(first, nodeCount);
        count = Arrays.copyOf(count, nodeCount);
    }

    private void fitBounds(int node, int start, int end) {
        float[] b = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int i = start; i < end; i++) {
            int t = order[i] * 9;
            for (int corner = 0; corner < 9; corner += 3) {
                for (int k = 0; k < 3; k++) {
                    float c = source[t + corner + k];
                    b[k] = Math.min(b[k], c);
                    b[3 + k] = Math.max(b[3 + k], c);
                }
            }
        }
        System.arraycopy(b, 0, bounds, node * 6, 6);
    }

    /** Partitions order[start, end) and returns the split index, or -1 to make a leaf. */
    private int split(int node, int start, int end) {
        int n = end - start;
        if (n <= MAX_LEAF_TRIANGLES) {
            return -1;
        }
        float[] cmin = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY};
        float[] cmax = {Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        for (int i = start; i < end; i++) {
            for (int k = 0; k < 3; k++) {
                float c = centroids[order[i] * 3 + k];
                cmin[k] = Math.min(cmin[k], c);
                cmax[k] = Math.max(cmax[k], c);
            }
        }
        int axis = 0;
        for (int k = 1; k < 3; k++) {
            if (cmax[k] - cmin[k] > cmax[axis] - cmin[axis]) {
                axis = k;
            }
        }
        float extent = cmax[axis] - cmin[axis];
        if (!(extent > 0)) {
            // All centroids coincide: no plane separates them, but halving still bounds the leaf size.
            return start + n / 2;
        }
        int bestPlane = bestSahPlane(start, end, axis, cmin[axis], extent);
        if (!splitBeatsLeaf && n <= MAX_SAH_LEAF_TRIANGLES) {
            return -1;
        }
        int mid = start;
        for (int i = start; i < end; i++) {
            if (bin(order[i], axis, cmin[axis], extent) < bestPlane) {
                int swap = order[mid];
                order[mid++] = order[i];
                order[i] = swap;
            }
        }
        return mid;
    }

    /**
     * The plane (between bin p-1 and bin p) with the lowest SAH cost; sets {@link #splitBeatsLeaf}. With a
     * positive extent the lowest and highest centroids land in bins 0 and BINS-1, so a plane always exists.
     */
    private int bestSahPlane(int start, int end, int axis, float axisMin, float extent) {
        int[] binCount = new int[BINS];
        float[] binBounds = new float[BINS * 6];
        for (int b = 0; b < BINS; b++) {
            resetBox(binBounds, b * 6);
        }
        for (int i = start; i < end; i++) {
            int t = order[i];
            int b = bin(t, axis, axisMin, extent);
            binCount[b]++;
            for (int corner = 0; corner < 9; corner += 3) {
                grow(binBounds, b * 6, source, t * 9 + corner);
            }
        }
        float[] leftArea = new float[BINS];
        int[] leftCount = new int[BINS];
        float[] box = new float[6];
        resetBox(box, 0);
        int running = 0;
        for (int b = 0; b < BINS - 1; b++) {
            running += binCount[b];
            merge(box, binBounds, b * 6);
            leftCount[b + 1] = running;
            leftArea[b + 1] = area(box);
        }
        resetBox(box, 0);
        running = 0;
        float bestCost = Float.POSITIVE_INFINITY;
        int bestPlane = -1;
        for (int plane = BINS - 1; plane >= 1; plane--) {
            running += binCount[plane];
            merge(box, binBounds, plane * 6);
            if (leftCount[plane] == 0 || running == 0) {
                continue;
            }
            float cost = leftArea[plane] * leftCount[plane] + area(box) * running;
            if (cost < bestCost) {
                bestCost = cost;
                bestPlane = plane;
            }
        }
        float[] node = new float[6];
        resetBox(node, 0);
        for (int b = 0; b < BINS; b++) {
            merge(node, binBounds, b * 6);
        }
        // Leaf cost: every triangle tested. A split costs one more box test, folded into the comparison.
        splitBeatsLeaf = bestCost < area(node) * (end - start);
        return bestPlane;
    }

    private int bin(int triangle, int axis, float axisMin, float extent) {
        int b = (int) ((centroids[triangle * 3 + axis] - axisMin) / extent * BINS);
        return Math.min(BINS - 1, Math.max(0, b));
    }

    private static void resetBox(float[] box, int at) {
        Arrays.fill(box, at, at + 3, Float.POSITIVE_INFINITY);
        Arrays.fill(box, at + 3, at + 6, Float.NEGATIVE_INFINITY);
    }

    private static void grow(float[] box, int at, float[] point, int p) {
        for (int k = 0; k < 3; k++) {
            box[at + k] = Math.min(box[at + k], point[p + k]);
            box[at + 3 + k] = Math.max(box[at + 3 + k], point[p + k]);
        }
    }

    private static void merge(float[] box, float[] other, int at) {
        for (int k = 0; k < 3; k++) {
            box[k] = Math.min(box[k], other[at + k]);
            box[3 + k] = Math.max(box[3 + k], other[at + 3 + k]);
        }
    }

    private static float area(float[] box) {
        float x = box[3] - box[0], y = box[4] - box[1], z = box[5] - box[2];
        return x < 0 ? 0 : x * y + y * z + z * x;   // half the surface area; the factor cancels
    }
}
