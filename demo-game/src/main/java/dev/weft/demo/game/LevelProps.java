package dev.weft.demo.game;

import dev.weft.assets.MeshSource;
import java.nio.FloatBuffer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.joml.Matrix4f;

/** A level's props resolved for the frame graph: GPU ids, model matrices and world bounds. */
final class LevelProps {
    private LevelProps() {}

    /** Props to ids, model matrices (scale then translate) and world bounds from each mesh's vertices. */
    static FrameGraph.Props resolve(Level level, GpuTable gpu) {
        Map<String, float[]> meshBounds = new HashMap<>();
        for (Map.Entry<String, MeshSource> m : level.meshes().entrySet()) {
            meshBounds.put(m.getKey(), localBounds(m.getValue()));
        }
        List<Level.Prop> props = level.props();
        int n = props.size();
        int[] meshIds = new int[n];
        int[] textureIds = new int[n];
        float[] models = new float[n * CommandBuffer.MATRIX_FLOATS];
        float[] bounds = new float[n * 6];
        Matrix4f m = new Matrix4f();
        for (int i = 0; i < n; i++) {
            Level.Prop p = props.get(i);
            meshIds[i] = gpu.levelMeshIds.get(p.mesh());
            textureIds[i] = gpu.levelTextureIds.get(p.texture());
            m.translation(p.x(), p.y(), p.z()).scale(p.scaleX(), p.scaleY(), p.scaleZ());
            m.get(models, i * CommandBuffer.MATRIX_FLOATS);
            float[] lb = meshBounds.get(p.mesh());
            float[] s = {p.scaleX(), p.scaleY(), p.scaleZ()};
            float[] t = {p.x(), p.y(), p.z()};
            for (int axis = 0; axis < 3; axis++) {
                float a = lb[axis] * s[axis] + t[axis];
                float b = lb[axis + 3] * s[axis] + t[axis];
                bounds[i * 6 + axis] = Math.min(a, b);
                bounds[i * 6 + 3 + axis] = Math.max(a, b);
            }
        }
        return new FrameGraph.Props(meshIds, textureIds, models, bounds);
    }

    private static float[] localBounds(MeshSource mesh) {
        FloatBuffer v = mesh.vertices();
        float[] b = {Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY, Float.POSITIVE_INFINITY,
                Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY, Float.NEGATIVE_INFINITY};
        int base = v.position();
        for (int i = 0; i + 2 < v.remaining(); i += MeshSource.FLOATS_PER_VERTEX) {
            for (int axis = 0; axis < 3; axis++) {
                float c = v.get(base + i + axis);
                b[axis] = Math.min(b[axis], c);
                b[axis + 3] = Math.max(b[axis + 3], c);
            }
        }
        if (b[0] > b[3]) {
            return new float[6];                          // no vertices: a point at the origin
        }
        return b;
    }
}
