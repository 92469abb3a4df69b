package dev.weft.assets;

import java.nio.ByteBuffer;

/**
 * CPU-side image for {@link GpuUploader#uploadTexture}: {@code width * height} RGBA8 pixels, row by row.
 *
 * <p>Row 0 is sampled at v = 0. Exactly {@code width * height * 4} bytes must remain in {@link #rgba()};
 * its position is left untouched. The asset loader's texture type can implement this or be wrapped
 * with {@link #of}.
 */
public interface TextureSource {
    int width();

    int height();

    /** RGBA8 pixels, 4 bytes each, no row padding. */
    ByteBuffer rgba();

    static TextureSource of(int width, int height, ByteBuffer rgba) {
        return new Pixels(width, height, rgba);
    }

    /** The plain triple. */
    record Pixels(int width, int height, ByteBuffer rgba) implements TextureSource {
        public Pixels {
            if (rgba == null) {
                throw new NullPointerException("rgba must be set");
            }
        }
    }
}
