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
    /**
     * The width in pixels.
     *
     * @return the width in pixels
     */
    int width();

    /**
     * The height in pixels.
     *
     * @return the height in pixels
     */
    int height();

    /**
     * RGBA8 pixels, 4 bytes each, no row padding.
     *
     * @return the pixels; exactly {@code width() * height() * 4} bytes remain
     */
    ByteBuffer rgba();

    /**
     * Wraps a size and a pixel buffer.
     *
     * @param width the width in pixels
     * @param height the height in pixels
     * @param rgba the pixels, RGBA8, row by row; not null
     * @return the source
     */
    static TextureSource of(int width, int height, ByteBuffer rgba) {
        return new Pixels(width, height, rgba);
    }

    /**
     * The plain triple.
     *
     * @param width the width in pixels
     * @param height the height in pixels
     * @param rgba the pixels, RGBA8, row by row
     */
    record Pixels(int width, int height, ByteBuffer rgba) implements TextureSource {
        /**
         * Checks the buffer is set.
         *
         * @throws NullPointerException if {@code rgba} is null
         */
        public Pixels {
            if (rgba == null) {
                throw new NullPointerException("rgba must be set");
            }
        }
    }
}
