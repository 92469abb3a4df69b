package dev.weft.demo.render;

/**
 * A mesh living on the GPU (VAO + VBO + EBO), made by {@link Renderer#uploadMesh}. Only meaningful to the
 * renderer that made it; freed by {@link Renderer#release(Mesh)} or when that renderer closes.
 */
public final class Mesh {
    final Renderer owner;
    final int vao;          // GL names; 0 for a headless renderer
    final int vbo;
    final int ebo;
    private final int vertexCount;
    private final int indexCount;
    boolean released;       // owner thread only

    Mesh(Renderer owner, int vao, int vbo, int ebo, int vertexCount, int indexCount) {
        this.owner = owner;
        this.vao = vao;
        this.vbo = vbo;
        this.ebo = ebo;
        this.vertexCount = vertexCount;
        this.indexCount = indexCount;
    }

    public int vertexCount() {
        return vertexCount;
    }

    public int indexCount() {
        return indexCount;
    }

    public boolean isReleased() {
        return released;
    }

    @Override
    public String toString() {
        return "Mesh[vao=" + vao + ", vertices=" + vertexCount + ", indices=" + indexCount
                + (released ? ", released" : "") + "]";
    }
}
