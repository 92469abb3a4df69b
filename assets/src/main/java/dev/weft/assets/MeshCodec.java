package dev.weft.assets;

import java.util.List;

/**
 * A codec for a mesh format: subclasses decode to {@link MeshData}; the unit-cube placeholder and
 * {@link GpuUploader#uploadMesh} are the same for every mesh format and live here. Mesh data is in
 * GC-managed direct buffers, so there is nothing to free. Stateless, like every codec.
 */
public abstract class MeshCodec implements AssetCodec<MeshData> {
    private final List<String> extensions;

    protected MeshCodec(List<String> extensions) {
        this.extensions = List.copyOf(extensions);
    }

    /** A mesh codec from its decode function, e.g. {@code MeshCodec.of(List.of("obj"), ObjParser::parse)}. */
    public static MeshCodec of(List<String> extensions, Decoder<MeshData> decoder) {
        return new MeshCodec(extensions) {
            @Override
            public MeshData decode(String file, byte[] bytes) {
                return decoder.decode(file, bytes);
            }
        };
    }

    @Override
    public final AssetKind kind() {
        return AssetKind.MESH;
    }

    @Override
    public final List<String> extensions() {
        return extensions;
    }

    @Override
    public MeshData placeholder() {
        MeshSource cube = Placeholders.unitCube();
        return new MeshData("placeholder cube", cube.vertices(), cube.indices(), Placeholders.unitCubeBounds());
    }

    @Override
    public Object upload(GpuUploader gpu, MeshData data) {
        return gpu.uploadMesh(MeshSource.of(data.vertices(), data.indices()));
    }

    @Override
    public LoadedAsset asset(AssetId id, MeshData data, boolean placeholder, Object gpu) {
        return new LoadedMesh(id, placeholder ? null : data, MeshSource.of(data.vertices(), data.indices()),
                data.bounds(), gpu);
    }

    @Override
    public String fallback() {
        return "using the placeholder cube";
    }

    @Override
    public String toString() {
        return "mesh codec " + extensions;
    }
}
