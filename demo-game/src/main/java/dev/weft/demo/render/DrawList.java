package dev.weft.demo.render;

import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.joml.Matrix4f;

/**
 * A frame's draws in a reusable, allocation-free form: per draw a mesh, a texture and a column-major
 * 4x4 model matrix stored in one packed {@code float[]}. {@link #clear()} and refill it every frame;
 * it only allocates when it grows past its largest frame so far. A {@link DrawCommand} per draw (a
 * record holding its own {@code Matrix4f}) made ~100 B of garbage per entity per frame, which at
 * 10,000 entities was the demo's largest source of young-GC pauses.
 *
 * <pre>{@code
 * DrawList draws = new DrawList(1024);            // once
 * draws.clear();                                  // every frame
 * draws.add(rock, stone, modelMatrices, i * DrawList.MATRIX_FLOATS);
 * renderer.drawScene(camera, light, draws);
 * }</pre>
 *
 * <p>Not thread-safe: one writer at a time, and readers only after whatever publishes the writes (in
 * the demo, the frame graph's merge job fills it and the main thread reads it after joining the frame).
 */
public final class DrawList {
    /** Floats per model matrix. */
    public static final int MATRIX_FLOATS = 16;

    private Mesh[] meshes;
    private Texture[] textures;
    private float[] models;
    private int size;

    /** An empty list with room for {@code capacity} draws before it grows. */
    public DrawList(int capacity) {
        int c = Math.max(16, capacity);
        meshes = new Mesh[c];
        textures = new Texture[c];
        models = new float[c * MATRIX_FLOATS];
    }

    /** The draws of {@code commands}, in order (a convenience for tests and one-off scenes). */
    public static DrawList of(List<DrawCommand> commands) {
        DrawList list = new DrawList(commands.size());
        float[] m = new float[MATRIX_FLOATS];
        for (DrawCommand c : commands) {
            c.model().get(m);
            list.add(c.mesh(), c.texture(), m, 0);
        }
        return list;
    }

    /** Empties the list; keeps its arrays. */
    public void clear() {
        Arrays.fill(meshes, 0, size, null);      // let released meshes and textures be collected
        Arrays.fill(textures, 0, size, null);
        size = 0;
    }

    /** Draws in the list. */
    public int size() {
        return size;
    }

    /**
     * Appends a draw; its model matrix is the 16 floats (column-major) at {@code from[offset]}, copied.
     *
     * @throws NullPointerException if the mesh or texture is null
     */
    public void add(Mesh mesh, Texture texture, float[] from, int offset) {
        Objects.requireNonNull(mesh, "mesh");
        Objects.requireNonNull(texture, "texture");
        if (size == meshes.length) {
            grow(size * 2);
        }
        meshes[size] = mesh;
        textures[size] = texture;
        System.arraycopy(from, offset, models, size * MATRIX_FLOATS, MATRIX_FLOATS);
        size++;
    }

    /** Makes room for {@code n} draws in all, so that {@code n} adds after a clear do not grow it. */
    public void ensureCapacity(int n) {
        if (n > meshes.length) {
            grow(Math.max(n, meshes.length * 2));
        }
    }

    /** Draw {@code i}'s mesh. */
    public Mesh mesh(int i) {
        return meshes[Objects.checkIndex(i, size)];
    }

    /** Draw {@code i}'s texture. */
    public Texture texture(int i) {
        return textures[Objects.checkIndex(i, size)];
    }

    /** Copies draw {@code i}'s model matrix into {@code dst} and returns it. */
    public Matrix4f model(int i, Matrix4f dst) {
        return dst.set(models, Objects.checkIndex(i, size) * MATRIX_FLOATS);
    }

    @Override
    public String toString() {
        return "DrawList[" + size + " draws]";
    }

    private void grow(int capacity) {
        meshes = Arrays.copyOf(meshes, capacity);
        textures = Arrays.copyOf(textures, capacity);
        models = Arrays.copyOf(models, capacity * MATRIX_FLOATS);
    }
}
