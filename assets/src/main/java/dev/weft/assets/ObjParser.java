package dev.weft.assets;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import java.util.Set;

/**
 * Parses Wavefront OBJ bytes into {@link MeshData}: positions, UVs and normals, polygons fan-triangulated,
 * corners deduplicated into an indexed vertex list. Pure (bytes in, data out), so any job may call it.
 *
 * <p>Why not de.javagl:obj: its reader does not report line numbers, and this single pass (no per-vertex
 * objects, no {@code String} per number) was measured faster on the demo's 100k-triangle terrain; see
 * assets/README.md for the numbers. javagl stays as the test oracle.
 *
 * <p>Supported: {@code v} (x y z, extra w or colour ignored), {@code vt} (u [v [w]]), {@code vn},
 * {@code f} with {@code v}, {@code v/vt}, {@code v//vn}, {@code v/vt/vn} corners and negative (relative)
 * indices. Corners without a normal get an area-weighted average of the normals of the faces sharing their
 * position; corners without a UV get (0, 0). Grouping, smoothing, material and free-form statements are
 * ignored. Polygons are assumed convex (as OBJ requires), so a fan is a correct triangulation.
 *
 * <p>Rejected with an {@link AssetFormatException} naming file and line: unknown statements, bad or
 * non-finite numbers, indices out of range (including forward references), faces with fewer than 3 or more
 * than {@link ObjLimits#maxFaceCorners()} corners, element or triangle counts over the limits, no faces.
 */
public final class ObjParser {
    private static final Set<String> IGNORED = Set.of("o", "g", "s", "usemtl", "mtllib", "l", "p", "vp", "cstype",
            "deg", "bmat", "step", "curv", "curv2", "surf", "parm", "trim", "hole", "scrv", "sp", "end", "con", "mg",
            "bevel", "c_interp", "d_interp", "lod", "shadow_obj", "trace_obj", "maplib", "usemap", "ctech", "stech");

    private final String file;
    private final byte[] bytes;
    private final ObjLimits limits;
    private final ObjLineCursor cursor;
    private float[] positions = new float[3 * 1024];
    private float[] uvs = new float[2 * 1024];
    private float[] normals = new float[3 * 1024];
    private int positionCount, uvCount, normalCount;
    private final CornerTable corners;
    private int[] indices = new int[3 * 1024];
    private int indexCount;
    private final int[] faceVertices;   // output vertex of each corner of the current face
    private boolean needsNormals;       // some corner had no vn

    private ObjParser(String file, byte[] bytes, ObjLimits limits) {
        this.file = file;
        this.bytes = bytes;
        this.limits = limits;
        this.cursor = new ObjLineCursor(file, bytes);
        this.corners = new CornerTable(bytes.length / 64);   // about one vertex per 64 bytes of OBJ text
        this.faceVertices = new int[limits.maxFaceCorners()];
    }

    /**
     * Parses with {@link ObjLimits#DEFAULT}.
     *
     * @param file used only in error messages and {@link MeshData#file()}
     * @param obj the whole OBJ file
     * @return the mesh
     * @throws AssetFormatException naming the file and line of the first problem
     */
    public static MeshData parse(String file, byte[] obj) {
        return parse(file, obj, ObjLimits.DEFAULT);
    }

    /**
     * Parses a whole OBJ file held in {@code obj}.
     *
     * @param file used only in error messages and {@link MeshData#file()}
     * @param obj the whole OBJ file
     * @param limits the limits past which the file is rejected
     * @return the mesh, triangulated, with normals computed where the file gives none
     * @throws AssetFormatException naming the file and line of the first problem
     */
    public static MeshData parse(String file, byte[] obj, ObjLimits limits) {
        return new ObjParser(file, obj, limits).run();
    }

    /**
     * Lines between {@link DecodeCheckpoint}s (a power of two): about 0.5 ms of parsing on the dev machine
     * (terrain.obj: ~300,000 lines in 18-42 ms warm), the longest a FRAME job waits for this worker.
     */
    static final int CHECKPOINT_LINES = 4096;

    private MeshData run() {
        int lineStart = startsWithByteOrderMark() ? 3 : 0, lineNumber = 1;
        while (lineStart < bytes.length) {
            // A line ends at LF, CRLF or a lone CR (old Mac exporters); a '#' starts a comment even with no
            // blank before it ("v 0 0 0#top").
            int newline = lineStart, comment = -1;
            while (newline < bytes.length && bytes[newline] != '\n' && bytes[newline] != '\r') {
                if (bytes[newline] == '#' && comment < 0) {
                    comment = newline;
                }
                newline++;
            }
            int lineEnd = comment >= 0 ? comment : newline;
            cursor.reset(lineStart, lineEnd, lineNumber);
            statement(lineStart);
            if ((lineNumber & (CHECKPOINT_LINES - 1)) == 0) {
                DecodeCheckpoint.checkpoint();         // the parse state is in fields: safe to resume elsewhere
            }
            boolean crlf = newline + 1 < bytes.length && bytes[newline] == '\r' && bytes[newline + 1] == '\n';
            lineStart = newline + (crlf ? 2 : 1);
            lineNumber++;
        }
        if (indexCount == 0) {
            throw new AssetFormatException(file, "no faces in " + (lineNumber - 1) + " lines");
        }
        return build();
    }

    /** UTF-8's byte-order mark, which some editors put before the first line. */
    private boolean startsWithByteOrderMark() {
        return bytes.length >= 3 && (bytes[0] & 0xFF) == 0xEF && (bytes[1] & 0xFF) == 0xBB && (bytes[2] & 0xFF) == 0xBF;
    }

    private void statement(int lineStart) {
        if (cursor.atEnd()) {
            return;   // blank or comment
        }
        int keyStart = cursor.tokenStart();
        int keyLength = cursor.skipToken() - keyStart;
        byte k0 = bytes[keyStart];
        byte k1 = keyLength > 1 ? bytes[keyStart + 1] : 0;
        if (keyLength == 1 && k0 == 'v') {
            position();
        } else if (keyLength == 2 && k0 == 'v' && k1 == 't') {
            uv();
        } else if (keyLength == 2 && k0 == 'v' && k1 == 'n') {
            normal();
        } else if (keyLength == 1 && k0 == 'f') {
            face(lineStart);
        } else {
            String keyword = keyLength <= 32 ? cursor.text(keyStart, keyStart + keyLength) : null;
            if (keyword == null || !IGNORED.contains(keyword)) {
                throw cursor.error("unknown statement '" + cursor.lineText(lineStart) + "'");
            }
        }
    }

    private void position() {
        requireRoom(positionCount, "v");
        positions = withRoom(positions, positionCount * 3 + 3);
        int at = positionCount * 3;
        positions[at] = cursor.readFloat("x");
        positions[at + 1] = cursor.readFloat("y");
        positions[at + 2] = cursor.readFloat("z");
        for (int extra = 0; !cursor.atEnd(); extra++) {   // w, or r g b colour: read to validate, then drop
            if (extra == 4) {
                throw cursor.error("too many numbers for 'v' (at most 7)");
            }
            cursor.readFloat("v extra component");
        }
        positionCount++;
    }

    private void uv() {
        requireRoom(uvCount, "vt");
        uvs = withRoom(uvs, uvCount * 2 + 2);
        uvs[uvCount * 2] = cursor.readFloat("u");
        uvs[uvCount * 2 + 1] = cursor.atEnd() ? 0 : cursor.readFloat("v");
        if (!cursor.atEnd()) {
            cursor.readFloat("w");
        }
        requireLineEnd("vt");
        uvCount++;
    }

    private void normal() {
        requireRoom(normalCount, "vn");
        normals = withRoom(normals, normalCount * 3 + 3);
        int at = normalCount * 3;
        normals[at] = cursor.readFloat("normal x");
        normals[at + 1] = cursor.readFloat("normal y");
        normals[at + 2] = cursor.readFloat("normal z");
        requireLineEnd("vn");
        normalCount++;
    }

    /** {@code a}, or a copy twice its length if it holds fewer than {@code needed} floats. */
    private static float[] withRoom(float[] a, int needed) {
        return a.length < needed ? Arrays.copyOf(a, a.length * 2) : a;
    }

    private void face(int lineStart) {
        int count = 0;
        while (!cursor.atEnd()) {
            if (count == limits.maxFaceCorners()) {
                throw cursor.error("absurd face: more than " + limits.maxFaceCorners() + " corners");
            }
            int cornerStart = cursor.tokenStart();
            int v = cursor.readIndex("vertex", positionCount);
            int vt = 0, vn = 0;
            if (cursor.slash()) {
                if (!cursor.slash()) {
                    vt = cursor.readIndex("texture coordinate", uvCount);
                    if (cursor.slash()) {
                        vn = cursor.readIndex("normal", normalCount);
                    }
                } else {
                    vn = cursor.readIndex("normal", normalCount);
                }
            }
            if (!cursor.cornerEnds()) {
                throw cursor.error("bad face corner '" + cursor.shown(cornerStart, cursor.skipToken()) + "'");
            }
            needsNormals |= vn == 0;
            faceVertices[count++] = corners.vertexOf(v, vt, vn);
        }
        if (count < 3) {
            throw cursor.error("face has " + count + " corner" + (count == 1 ? "" : "s") + ", needs at least 3: '"
                    + cursor.lineText(lineStart) + "'");
        }
        long triangles = indexCount / 3 + (long) count - 2;
        if (triangles > limits.maxTriangles()) {
            throw cursor.error("absurd triangle count: more than " + limits.maxTriangles());
        }
        if (indices.length < indexCount + (count - 2) * 3) {
            indices = Arrays.copyOf(indices, Math.max(indices.length * 2, indexCount + (count - 2) * 3));
        }
        for (int i = 1; i + 1 < count; i++) {
            indices[indexCount++] = faceVertices[0];
            indices[indexCount++] = faceVertices[i];
            indices[indexCount++] = faceVertices[i + 1];
        }
    }

    private void requireRoom(int count, String keyword) {
        if (count == limits.maxElements()) {
            throw cursor.error("absurd count: more than " + limits.maxElements() + " '" + keyword + "' lines");
        }
    }

    private void requireLineEnd(String keyword) {
        if (!cursor.atEnd()) {
            int start = cursor.tokenStart();
            throw cursor.error("unexpected '" + cursor.shown(start, cursor.skipToken()) + "' after '" + keyword + "' numbers");
        }
    }

    private MeshData build() {
        int vertexCount = corners.size();
        float[] generated = needsNormals ? generateNormals() : null;
        FloatBuffer vertices = ByteBuffer.allocateDirect(vertexCount * MeshData.FLOATS_PER_VERTEX * Float.BYTES)
                .order(ByteOrder.nativeOrder()).asFloatBuffer();
        float[] vertex = new float[MeshData.FLOATS_PER_VERTEX];
        float minX = Float.POSITIVE_INFINITY, minY = minX, minZ = minX;
        float maxX = Float.NEGATIVE_INFINITY, maxY = maxX, maxZ = maxX;
        for (int i = 0; i < vertexCount; i++) {
            int p = (corners.position(i) - 1) * 3;
            int t = corners.uv(i), n = corners.normal(i);
            float[] normalSource = n == 0 ? generated : normals;
            int nAt = n == 0 ? p : (n - 1) * 3;
            System.arraycopy(positions, p, vertex, MeshData.POSITION_OFFSET, 3);
            System.arraycopy(normalSource, nAt, vertex, MeshData.NORMAL_OFFSET, 3);
            vertex[MeshData.UV_OFFSET] = t == 0 ? 0 : uvs[(t - 1) * 2];
            vertex[MeshData.UV_OFFSET + 1] = t == 0 ? 0 : uvs[(t - 1) * 2 + 1];
            vertices.put(vertex);
            minX = Math.min(minX, vertex[0]);
            minY = Math.min(minY, vertex[1]);
            minZ = Math.min(minZ, vertex[2]);
            maxX = Math.max(maxX, vertex[0]);
            maxY = Math.max(maxY, vertex[1]);
            maxZ = Math.max(maxZ, vertex[2]);
        }
        vertices.flip();
        IntBuffer indexBuffer = ByteBuffer.allocateDirect(indexCount * Integer.BYTES)
                .order(ByteOrder.nativeOrder()).asIntBuffer();
        indexBuffer.put(indices, 0, indexCount).flip();
        return new MeshData(file, vertices, indexBuffer, new Aabb(minX, minY, minZ, maxX, maxY, maxZ));
    }

    /**
     * Smooth normals per position, for corners the file gave none: the sum of the (area-weighted, since
     * unnormalised) face normals of every triangle using that position, normalised. Indexed like positions.
     *
     * <p>In double: any finite float coordinates (up to 3.4e38) give edge products up to about 1e78 and
     * squared lengths up to about 1e157, far inside double's range, so large meshes cannot overflow into
     * zero or NaN normals the way float arithmetic did above about 4e9.
     */
    private float[] generateNormals() {
        double[] sum = new double[positionCount * 3];
        for (int i = 0; i < indexCount; i += 3) {
            int a = (corners.position(indices[i]) - 1) * 3;
            int b = (corners.position(indices[i + 1]) - 1) * 3;
            int c = (corners.position(indices[i + 2]) - 1) * 3;
            double ux = (double) positions[b] - positions[a];
            double uy = (double) positions[b + 1] - positions[a + 1];
            double uz = (double) positions[b + 2] - positions[a + 2];
            double vx = (double) positions[c] - positions[a];
            double vy = (double) positions[c + 1] - positions[a + 1];
            double vz = (double) positions[c + 2] - positions[a + 2];
            double nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
            add(sum, a, nx, ny, nz);
            add(sum, b, nx, ny, nz);
            add(sum, c, nx, ny, nz);
        }
        float[] normals = new float[sum.length];
        for (int p = 0; p < sum.length; p += 3) {
            double length = Math.sqrt(sum[p] * sum[p] + sum[p + 1] * sum[p + 1] + sum[p + 2] * sum[p + 2]);
            if (length > 0 && Double.isFinite(length)) {
                normals[p] = (float) (sum[p] / length);
                normals[p + 1] = (float) (sum[p + 1] / length);
                normals[p + 2] = (float) (sum[p + 2] / length);
            } else {
                normals[p + 1] = 1;   // degenerate or unused position: any unit vector will do
            }
        }
        return normals;
    }

    private static void add(double[] sum, int at, double x, double y, double z) {
        sum[at] += x;
        sum[at + 1] += y;
        sum[at + 2] += z;
    }

}
