package dev.weft.assets;

import java.util.Optional;

/**
 * A mesh: its CPU data (GC-managed direct buffers, nothing to free), bounds, and its GPU mesh when the
 * manager uploads. Immutable; {@link #gpu()} is for the main thread only.
 */
public final class LoadedMesh implements LoadedAsset {
    private final AssetId id;
    private final MeshData data;      // parsed OBJ, or null for the placeholder cube
    private final MeshSource source;  // what the uploader gets: data's buffers, or the cube's
    private final Aabb bounds;
    private final Object gpu;            // null when nothing was uploaded

    LoadedMesh(AssetId id, MeshData data, MeshSource source, Aabb bounds, Object gpu) {
        this.id = id;
        this.data = data;
        this.source = source;
        this.bounds = bounds;
        this.gpu = gpu;
    }

    @Override
    public AssetId id() {
        return id;
    }

    @Override
    public boolean isPlaceholder() {
        return data == null;
    }

    /**
     * Vertex and index buffers in the {@link MeshSource} layout.
     *
     * @return the mesh's buffers
     */
    public MeshSource source() {
        return source;
    }

    /**
     * The parsed OBJ; empty for the placeholder cube.
     *
     * @return the parsed mesh, or empty for the placeholder
     */
    public Optional<MeshData> data() {
        return Optional.ofNullable(data);
    }

    /**
     * The box around the mesh's vertices.
     *
     * @return the mesh's bounds
     */
    public Aabb bounds() {
        return bounds;
    }

    /**
     * The number of triangles.
     *
     * @return the number of triangles
     */
    public int triangleCount() {
        return source.indices().remaining() / 3;
    }

    /**
     * The GPU mesh, if the manager uploaded it. Main thread only.
     *
     * @return the handle {@link GpuUploader#uploadMesh} returned, or empty if nothing was uploaded
     */
    public Optional<Object> gpu() {
        return Optional.ofNullable(gpu);
    }

    @Override
    public String toString() {
        return "LoadedMesh[" + id + ", " + triangleCount() + " triangles" + (isPlaceholder() ? ", placeholder" : "")
                + (gpu != null ? ", uploaded" : "") + "]";
    }
}
