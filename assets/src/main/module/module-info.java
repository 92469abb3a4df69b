/**
 * Weft's asset streaming library: the asset manager, the level file format, codecs (PNG through LWJGL
 * STB, OBJ, collision from a mesh), GPU upload through the game's {@code GpuUploader}, and the I/O lane
 * on {@code Jobs.blocking}. Its API is the package {@code dev.weft.assets}; the seeded content generator
 * ({@code dev.weft.assets.gen}) is neither exported nor API. {@code dev.weft} is required transitively:
 * the API takes a {@code JobSystem}.
 */
module dev.weft.assets {
    exports dev.weft.assets;

    requires transitive dev.weft;
    requires org.lwjgl;
    requires org.lwjgl.stb;
    requires java.desktop;      // the generator's javax.imageio (it writes the PNGs it seeds)
}
