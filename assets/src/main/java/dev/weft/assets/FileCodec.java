package dev.weft.assets;

import java.util.List;
import java.util.Objects;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The codec of a texture or mesh file format made from its decode step alone: {@link #texture} and
 * {@link #mesh} add what every format of that kind shares (the magenta checker or the unit cube as
 * placeholder, {@link GpuUploader#uploadTexture} or {@link GpuUploader#uploadMesh}, and for textures the
 * native pixels freed after upload). A KTX2 or glTF codec is then one decoder class plus
 * {@code registry.register(FileCodec.texture(List.of("ktx2"), Ktx2Decoder::decode))}. Immutable and
 * stateless, as {@link AssetCodec} requires (given a stateless decoder).
 *
 * @param <D> the decoded data
 */
public final class FileCodec<D> implements AssetCodec<D> {
    private final AssetKind kind;
    private final List<String> extensions;
    private final Decoder<D> decoder;
    private final Supplier<D> placeholder;
    private final BiFunction<GpuUploader, D, Object> upload;
    private final AssetMaker<D> asset;
    private final Function<D, AutoCloseable> nativeMemory;
    private final String fallback;

    private FileCodec(AssetKind kind, List<String> extensions, Decoder<D> decoder, Supplier<D> placeholder,
                      BiFunction<GpuUploader, D, Object> upload, AssetMaker<D> asset,
                      Function<D, AutoCloseable> nativeMemory, String fallback) {
        this.kind = kind;
        this.extensions = List.copyOf(extensions);
        this.decoder = Objects.requireNonNull(decoder, "decoder");
        this.placeholder = placeholder;
        this.upload = upload;
        this.asset = asset;
        this.nativeMemory = nativeMemory;
        this.fallback = fallback;
    }

    /**
     * Textures decoded to RGBA8 by {@code decoder}, e.g. {@code texture(List.of("png"), PngDecoder::decode)}.
     *
     * @param extensions the file extensions to decode, lower case, without the dot
     * @param decoder the decode step; not null
     * @return a texture codec: a checker placeholder, uploaded as RGBA8, pixels freed after upload
     */
    public static FileCodec<TextureData> texture(List<String> extensions, Decoder<TextureData> decoder) {
        return new FileCodec<>(AssetKind.TEXTURE, extensions, decoder, FileCodec::checker,
                (gpu, t) -> gpu.uploadTexture(TextureSource.of(t.width(), t.height(), t.rgba())),
                LoadedTexture::new, t -> t, "using the placeholder texture");
    }

    /**
     * Meshes parsed by {@code decoder} (GC-managed buffers: nothing to free), e.g. {@code
     * mesh(List.of("obj"), ObjParser::parse)}.
     *
     * @param extensions the file extensions to decode, lower case, without the dot
     * @param decoder the decode step; not null
     * @return a mesh codec: a cube placeholder, uploaded as interleaved vertices and indices
     */
    public static FileCodec<MeshData> mesh(List<String> extensions, Decoder<MeshData> decoder) {
        return new FileCodec<>(AssetKind.MESH, extensions, decoder, FileCodec::cube,
                (gpu, m) -> gpu.uploadMesh(MeshSource.of(m.vertices(), m.indices())),
                (id, m, isPlaceholder, gpu) -> new LoadedMesh(id, isPlaceholder ? null : m,
                        MeshSource.of(m.vertices(), m.indices()), m.bounds(), gpu),
                m -> null, "using the placeholder cube");
    }

    private static TextureData checker() {
        TextureSource px = Placeholders.checkerTexture();
        return new TextureData("placeholder texture", px.width(), px.height(), TextureData.BYTES_PER_PIXEL,
                px.rgba(), buffer -> { });      // a direct buffer the GC frees
    }

    private static MeshData cube() {
        MeshSource cube = Placeholders.unitCube();
        return new MeshData("placeholder cube", cube.vertices(), cube.indices(), Placeholders.unitCubeBounds());
    }

    @Override
    public AssetKind kind() {
        return kind;
    }

    @Override
    public List<String> extensions() {
        return extensions;
    }

    @Override
    public D decode(String file, byte[] bytes) {
        return decoder.decode(file, bytes);
    }

    @Override
    public D placeholder() {
        return placeholder.get();
    }

    @Override
    public Object upload(GpuUploader gpu, D data) {
        return upload.apply(gpu, data);
    }

    @Override
    public LoadedAsset asset(AssetId id, D data, boolean isPlaceholder, Object gpu) {
        return asset.make(id, data, isPlaceholder, gpu);
    }

    @Override
    public AutoCloseable nativeMemory(D data) {
        return nativeMemory.apply(data);
    }

    @Override
    public String fallback() {
        return fallback;
    }

    @Override
    public String toString() {
        return kind.keyword() + " codec " + extensions;
    }

    @FunctionalInterface
    private interface AssetMaker<D> {
        LoadedAsset make(AssetId id, D data, boolean isPlaceholder, Object gpu);
    }
}
