package dev.weft.assets;

import de.javagl.obj.Obj;
import de.javagl.obj.ObjData;
import de.javagl.obj.ObjReader;
import de.javagl.obj.ObjUtils;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;

/**
 * The same job as {@link ObjParser} done with de.javagl:obj (ObjReader + ObjUtils.convertToRenderable),
 * producing the same interleaved layout. Two uses: the oracle the parser's output is checked against, and
 * the other side of the speed comparison in {@link ObjParserComparison}.
 */
final class JavaglObjLoader {
    private JavaglObjLoader() {
    }

    /** Interleaved pos3/normal3/uv2 and indices, like {@link MeshData}. */
    record Result(FloatBuffer vertices, IntBuffer indices, int vertexCount, int triangleCount) {
    }

    static Result load(byte[] obj) {
        Obj raw;
        try {
            raw = ObjReader.read(new ByteArrayInputStream(obj));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Obj renderable = ObjUtils.convertToRenderable(raw);
        int vertexCount = renderable.getNumVertices();
        float[] positions = ObjData.getVerticesArray(renderable);
        float[] normals = renderable.getNumNormals() > 0 ? ObjData.getNormalsArray(renderable) : new float[vertexCount * 3];
        float[] uvs = renderable.getNumTexCoords() > 0 ? ObjData.getTexCoordsArray(renderable, 2) : new float[vertexCount * 2];
        FloatBuffer vertices = ByteBuffer.allocateDirect(vertexCount * MeshData.FLOATS_PER_VERTEX * Float.BYTES)
                .order(ByteOrder.nativeOrder()).asFloatBuffer();
        for (int i = 0; i < vertexCount; i++) {
            vertices.put(positions, i * 3, 3).put(normals, i * 3, 3).put(uvs, i * 2, 2);
        }
        vertices.flip();
        int[] indexArray = ObjData.getFaceVertexIndicesArray(renderable, 3);
        IntBuffer indices = ByteBuffer.allocateDirect(indexArray.length * Integer.BYTES)
                .order(ByteOrder.nativeOrder()).asIntBuffer();
        indices.put(indexArray).flip();
        return new Result(vertices, indices, vertexCount, indexArray.length / 3);
    }
}
