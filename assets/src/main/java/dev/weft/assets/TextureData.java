package dev.weft.assets;

import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.lwjgl.stb.STBImage;

/**
 * A decoded image: {@code width * height} RGBA8 pixels, row 0 first (the top row of the PNG), in native
 * memory owned by this object. {@link #close()} frees that memory at once with {@code stbi_image_free};
 * nothing else ever frees it, so an unclosed texture leaks. Use try-with-resources, or close it after the
 * GPU upload:
 *
 * <pre>
 * try (TextureData texture = PngDecoder.decode("grass_1024.png", bytes)) {
 *     upload(texture.width(), texture.height(), texture.rgba());
 * }
 * </pre>
 *
 * <p>Threading: may be created on one thread and used and closed on another (a worker decodes, the GL
 * thread uploads) given the usual happens-before of the hand-off. {@code close()} is idempotent and safe
 * to race: exactly one call frees. Using {@link #rgba()} after close throws; a buffer obtained before
 * close must not be touched after it (it would read freed memory).
 */
public final class TextureData implements AutoCloseable {
    /** Bytes per pixel of {@link #rgba()}, whatever the file had. */
    public static final int BYTES_PER_PIXEL = 4;

    private final String file;
    private final int width;
    private final int height;
    private final int channelsInFile;
    private final ByteBuffer rgba;                  // native memory from stb; freed once by close()
    private final Consumer<ByteBuffer> freeNative;  // stbi_image_free; a test seam counts calls
    private final AtomicBoolean closed = new AtomicBoolean();

    TextureData(String file, int width, int height, int channelsInFile, ByteBuffer rgba) {
        this(file, width, height, channelsInFile, rgba, STBImage::stbi_image_free);
    }

    TextureData(String file, int width, int height, int channelsInFile, ByteBuffer rgba, Consumer<ByteBuffer> freeNative) {
        this.file = file;
        this.width = width;
        this.height = height;
        this.channelsInFile = channelsInFile;
        this.rgba = rgba;
        this.freeNative = freeNative;
    }

    /**
     * A texture from RGBA8 pixels a decoder of your own made (a format registered with
     * {@link FileCodec#texture}): copies {@code pixels} (from its position to its limit, heap or direct) into
     * native memory this object owns and {@link #close()} frees.
     *
     * @param file the file's name, for errors
     * @param width width in pixels, at least 1
     * @param height height in pixels, at least 1
     * @param pixels exactly {@code width * height * 4} bytes, row 0 first, no row padding
     * @return the texture; close it (the asset manager does, after the upload)
     * @throws IllegalArgumentException if the sizes do not match, naming the file
     */
    public static TextureData rgba8(String file, int width, int height, ByteBuffer pixels) {
        java.util.Objects.requireNonNull(pixels, "pixels is null");
        long expected = (long) width * height * BYTES_PER_PIXEL;
        if (width < 1 || height < 1 || expected > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(file + ": a texture must be at least 1x1 and under 2 GiB of RGBA8, got "
                    + width + "x" + height);
        }
        if (pixels.remaining() != expected) {
            throw new IllegalArgumentException(file + ": " + width + "x" + height + " RGBA8 is " + expected
                    + " bytes, but the pixels hold " + pixels.remaining());
        }
        ByteBuffer copy = org.lwjgl.system.MemoryUtil.memAlloc((int) expected);
        copy.put(pixels.duplicate()).flip();
        return new TextureData(file, width, height, BYTES_PER_PIXEL, copy, org.lwjgl.system.MemoryUtil::memFree);
    }

    /**
     * The file name given to the decoder.
     *
     * @return the file's display name, as used in errors
     */
    public String file() {
        return file;
    }

    /**
     * The width in pixels.
     *
     * @return the width in pixels
     */
    public int width() {
        return width;
    }

    /**
     * The height in pixels.
     *
     * @return the height in pixels
     */
    public int height() {
        return height;
    }

    /**
     * Channels stored in the file (1 grey, 2 grey+alpha, 3 RGB, 4 RGBA); pixels are always expanded to RGBA.
     *
     * @return the number of channels in the file, 1 to 4
     */
    public int channels() {
        return channelsInFile;
    }

    /**
     * {@code width * height * 4}.
     *
     * @return the size of the RGBA pixels in bytes
     */
    public int sizeBytes() {
        return width * height * BYTES_PER_PIXEL;
    }

    /**
     * The pixels, RGBA8 with no row padding: a fresh view (own position and limit) of this texture's memory,
     * valid until {@link #close()}.
     *
     * @return a new view of the pixels
     * @throws IllegalStateException if closed
     */
    public ByteBuffer rgba() {
        if (closed.get()) {
            throw new IllegalStateException(file + ": texture already closed");
        }
        return rgba.duplicate();
    }

    /**
     * True once {@link #close()} has freed the pixels.
     *
     * @return true if closed
     */
    public boolean isClosed() {
        return closed.get();
    }

    /** Frees the pixel memory; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            freeNative.accept(rgba);
        }
    }

    @Override
    public String toString() {
        return "TextureData[" + file + " " + width + "x" + height + ", " + channelsInFile + " channels in file"
                + (closed.get() ? ", closed" : "") + "]";
    }
}
