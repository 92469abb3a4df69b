package dev.weft.assets.gen;

import java.util.Arrays;

/**
 * An OBJ mesh under construction: separate position, UV and normal streams (as OBJ keeps them) and
 * polygon faces whose corners index each stream independently. Indices handed out and stored are OBJ's
 * 1-based ones; 0 in a corner means "no UV" or "no normal".
 */
final class MeshBuilder {
    final String comment;
    private final FloatList positions = new FloatList();
    private final FloatList uvs = new FloatList();
    private final FloatList normals = new FloatList();
    private int[] faceSizes = new int[64];
    private int faceCount;
    private int[] corners = new int[256]; // v, vt, vn per corner, faces back to back
    private int cornerCount;
    private long triangleCount;

    MeshBuilder(String comment) {
        this.comment = comment;
    }

    int position(double x, double y, double z) {
        positions.add(x, y, z);
        return positions.size() / 3;
    }

    int uv(double u, double v) {
        uvs.add(u, v);
        return uvs.size() / 2;
    }

    /** Adds a unit normal; the input need not be normalised. */
    int normal(double x, double y, double z) {
        double length = Math.sqrt(x * x + y * y + z * z);
        if (length == 0) {
            normals.add(0, 1, 0);
        } else {
            normals.add(x / length, y / length, z / length);
        }
        return normals.size() / 3;
    }

    /** Adds a polygon; {@code vVtVn} holds (v, vt, vn) for each corner in counter-clockwise order. */
    void face(int... vVtVn) {
        if (vVtVn.length % 3 != 0 || vVtVn.length < 9) {
            throw new IllegalArgumentException("a face needs >= 3 corners of (v, vt, vn)");
        }
        if (faceCount == faceSizes.length) {
            faceSizes = Arrays.copyOf(faceSizes, faceCount * 2);
        }
        faceSizes[faceCount++] = vVtVn.length / 3;
        while (cornerCount + vVtVn.length > corners.length) {
            corners = Arrays.copyOf(corners, corners.length * 2);
        }
        System.arraycopy(vVtVn, 0, corners, cornerCount, vVtVn.length);
        cornerCount += vVtVn.length;
        triangleCount += vVtVn.length / 3 - 2;
    }

    /** Position {@code index} (1-based), component {@code axis} (0..2). */
    double positionAt(int index, int axis) {
        return positions.get((index - 1) * 3 + axis);
    }

    long triangleCount() {
        return triangleCount;
    }

    FloatList positions() {
        return positions;
    }

    FloatList uvs() {
        return uvs;
    }

    FloatList normals() {
        return normals;
    }

    int faceCount() {
        return faceCount;
    }

    int faceSize(int face) {
        return faceSizes[face];
    }

    /** The corner array: faces back to back, three ints per corner. */
    int[] corners() {
        return corners;
    }

    /** A growable float array; doubles are narrowed on entry because OBJ output is single precision. */
    static final class FloatList {
        private float[] values = new float[192];
        private int size;

        void add(double a, double b) {
            ensure(2);
            values[size++] = (float) a;
            values[size++] = (float) b;
        }

        void add(double a, double b, double c) {
            ensure(3);
            values[size++] = (float) a;
            values[size++] = (float) b;
            values[size++] = (float) c;
        }

        float get(int i) {
            return values[i];
        }

        int size() {
            return size;
        }

        private void ensure(int extra) {
            if (size + extra > values.length) {
                values = Arrays.copyOf(values, values.length * 2);
            }
        }
    }
}
