package dev.weft.assets;

import java.util.List;

/**
 * A codec for a texture format: subclasses decode to RGBA8 {@link TextureData}; the rest (the magenta
 * checker placeholder, {@link GpuUploader#uploadTexture}, freeing the native pixels after upload) is the
 * same for every texture format and lives here. Stateless, like every codec.
 */
public abstract class TextureCodec implements AssetCodec<TextureData> {
    private final List<String> extensions;

    protected TextureCodec(List<String> extensions) {
        this.extensions = List.copyOf(extensions);
    }

    /** A texture codec from its decode function, e.g. {@code TextureCodec.of(List.of("png"), PngDecoder::decode)}. */
    public static TextureCodec of(List<String> extensions, Decoder<TextureData> decoder) {
        return new TextureCodec(extensions) {
            @Override
            public TextureData decode(String file, byte[] bytes) {
                return decoder.decode(file, bytes);
            }
        };
    }

    @Override
    public final AssetKind kind() {
        return AssetKind.TEXTURE;
    }

    @Override
    public final List<String> extensions() {
        return extensions;
    }

    @Override
    public TextureData placeholder() {
        TextureSource px = Placeholders.checkerTexture();
        return new TextureData("placeholder texture", px.width(), px.height(), TextureData.BYTES_PER_PIXEL,
                px.rgba(), buffer -> { });      // a direct buffer the GC frees
    }

    @Override
    public Object upload(GpuUploader gpu, TextureData data) {
        return gpu.uploadTexture(TextureSource.of(data.width(), data.height(), data.rgba()));
    }

    @Override
    public LoadedAsset asset(AssetId id, TextureData data, boolean placeholder, Object gpu) {
        return new LoadedTexture(id, data, placeholder, gpu);
    }

    @Override
    public AutoCloseable nativeMemory(TextureData data) {
        return data;
    }

    @Override
    public String fallback() {
        return "using the placeholder texture";
    }

    @Override
    public String toString() {
        return "texture codec " + extensions;
    }
}
