package dev.weft.demo.render;

import static org.lwjgl.opengl.GL33C.*;

import java.nio.FloatBuffer;
import org.lwjgl.system.MemoryUtil;

/**
 * Collects coloured pixel-space rectangles and draws them in one call (two triangles each). GL thread only.
 */
final class OverlayBatch {
    private static final int FLOATS_PER_VERTEX = 6; // x, y, r, g, b, a
    private static final int VERTICES_PER_RECT = 6;

    private final int vao;
    private final int vbo;
    private FloatBuffer staging;    // native memory, grown on demand; freed in delete()
    private int rects;              // rectangles queued since the last flush

    OverlayBatch(int initialRects) {
        staging = MemoryUtil.memAllocFloat(initialRects * VERTICES_PER_RECT * FLOATS_PER_VERTEX);
        vao = glGenVertexArrays();
        vbo = glGenBuffers();
        glBindVertexArray(vao);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        int stride = FLOATS_PER_VERTEX * Float.BYTES;
        glVertexAttribPointer(0, 2, GL_FLOAT, false, stride, 0L);
        glEnableVertexAttribArray(0);
        glVertexAttribPointer(1, 4, GL_FLOAT, false, stride, 2L * Float.BYTES);
        glEnableVertexAttribArray(1);
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
    }

    void rect(Rect r, float[] rgba) {
        rect(r.x(), r.y(), r.width(), r.height(), rgba);
    }

    void rect(float x, float y, float w, float h, float[] rgba) {
        if (w <= 0f || h <= 0f) {
            return;
        }
        int needed = (rects + 1) * VERTICES_PER_RECT * FLOATS_PER_VERTEX;
        if (needed > staging.capacity()) {
            staging = MemoryUtil.memRealloc(staging, Math.max(needed, staging.capacity() * 2));
        }
        staging.limit(staging.capacity());
        staging.position(rects * VERTICES_PER_RECT * FLOATS_PER_VERTEX);
        float x1 = x + w;
        float y1 = y + h;
        vertex(x, y, rgba);
        vertex(x, y1, rgba);
        vertex(x1, y1, rgba);
        vertex(x, y, rgba);
        vertex(x1, y1, rgba);
        vertex(x1, y, rgba);
        rects++;
    }

    private void vertex(float x, float y, float[] rgba) {
        staging.put(x).put(y).put(rgba[0]).put(rgba[1]).put(rgba[2]).put(rgba[3]);
    }

    /** Draws everything queued with the currently bound overlay program, then empties the batch. */
    void flush() {
        if (rects == 0) {
            return;
        }
        staging.position(0).limit(rects * VERTICES_PER_RECT * FLOATS_PER_VERTEX);
        glBindVertexArray(vao);
        glBindBuffer(GL_ARRAY_BUFFER, vbo);
        glBufferData(GL_ARRAY_BUFFER, staging, GL_STREAM_DRAW);
        glDrawArrays(GL_TRIANGLES, 0, rects * VERTICES_PER_RECT);
        glBindVertexArray(0);
        glBindBuffer(GL_ARRAY_BUFFER, 0);
        rects = 0;
    }

    void delete() {
        glDeleteBuffers(vbo);
        glDeleteVertexArrays(vao);
        MemoryUtil.memFree(staging);
        staging = null;
    }
}
