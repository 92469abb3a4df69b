package dev.weft.demo.render;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.BitSet;
import org.lwjgl.stb.STBImageWrite;

/**
 * An opaque RGBA8 image, top row first: a screenshot from {@link Renderer#readFrame()}.
 */
public final class RgbaImage {
    private final int width;
    private final int height;
    private final ByteBuffer pixels; // direct, width * height * 4 bytes, row 0 = top, alpha always 255

    private RgbaImage(int width, int height, ByteBuffer pixels) {
        this.width = width;
        this.height = height;
        this.pixels = pixels;
    }

    /**
     * Builds an image from rows in OpenGL order (row 0 = bottom, as {@code glReadPixels} returns them),
     * flipping them right side up and forcing alpha to 255 (a screen has no transparency).
     */
    public static RgbaImage fromBottomUpRows(int width, int height, ByteBuffer bottomUp) {
        if (width <= 0 || height <= 0) {
            throw new IllegalArgumentException("image size must be positive: " + width + "x" + height);
        }
        int rowBytes = width * 4;
        if (bottomUp.remaining() < rowBytes * height) {
            throw new IllegalArgumentException("need " + rowBytes * height + " bytes, have " + bottomUp.remaining());
        }
        ByteBuffer out = ByteBuffer.allocateDirect(rowBytes * height);
        int base = bottomUp.position();
        for (int y = 0; y < height; y++) {
            int src = base + (height - 1 - y) * rowBytes;
            int dst = y * rowBytes;
            for (int i = 0; i < rowBytes; i += 4) {
                out.put(dst + i, bottomUp.get(src + i));
                out.put(dst + i + 1, bottomUp.get(src + i + 1));
                out.put(dst + i + 2, bottomUp.get(src + i + 2));
                out.put(dst + i + 3, (byte) 0xFF);
            }
        }
        return new RgbaImage(width, height, out);
    }

    public int width() {
        return width;
    }

    public int height() {
        return height;
    }

    /** The pixel at (x, y), y = 0 at the top, as {@code 0xRRGGBB}. */
    public int rgb(int x, int y) {
        if (x < 0 || x >= width || y < 0 || y >= height) {
            throw new IndexOutOfBoundsException("(" + x + ", " + y + ") outside " + width + "x" + height);
        }
        int i = (y * width + x) * 4;
        return (pixels.get(i) & 0xFF) << 16 | (pixels.get(i + 1) & 0xFF) << 8 | pixels.get(i + 2) & 0xFF;
    }

    /** A read-only view of the pixels, top row first, 4 bytes per pixel. */
    public ByteBuffer pixels() {
        return pixels.asReadOnlyBuffer();
    }

    /** How many different RGB values occur (1 for a blank frame). */
    public int distinctColours() {
        BitSet seen = new BitSet(1 << 24);
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                seen.set(rgb(x, y));
            }
        }
        return seen.cardinality();
    }

    /** Variance of Rec. 601 luma over all pixels, in (0..255)^2 units; 0 for a single-colour frame. */
    public double lumaVariance() {
        double sum = 0.0;
        double sumSq = 0.0;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++) {
                int c = rgb(x, y);
                double luma = 0.299 * (c >>> 16) + 0.587 * (c >>> 8 & 0xFF) + 0.114 * (c & 0xFF);
                sum += luma;
                sumSq += luma * luma;
            }
        }
        double n = (double) width * height;
        double mean = sum / n;
        return Math.max(0.0, sumSq / n - mean * mean);
    }

    /** Writes a PNG (STB image write), creating parent directories. */
    public void writePng(Path path) throws IOException {
        Path parent = path.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        if (!STBImageWrite.stbi_write_png(path.toString(), width, height, 4, pixels, width * 4)) {
            throw new IOException("stbi_write_png failed for " + path);
        }
    }
}
