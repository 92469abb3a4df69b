package dev.weft.assets.gen;

import java.awt.image.BufferedImage;
import java.awt.image.DataBufferByte;

/**
 * Procedural textures as {@link BufferedImage}s ready for ImageIO's PNG writer. Every texture tiles
 * seamlessly and depends only on its arguments. Pixels are written straight into the raster's byte array
 * (row-major; BGR / ABGR / gray order as the image type says) because per-pixel setRGB would dominate
 * generation time at 2048².
 */
final class TextureGenerator {
    private TextureGenerator() {
    }

    /** Fractal noise blended between two colours ({@code 0xRRGGBB}); {@code cellsPerSide} sets the coarsest feature size. */
    static BufferedImage noise(int sizePx, long seed, int darkRgb, int lightRgb, int cellsPerSide, int octaves) {
        Noise noise = new Noise(seed);
        BufferedImage image = new BufferedImage(sizePx, sizePx, BufferedImage.TYPE_3BYTE_BGR);
        byte[] bgr = pixels(image);
        double scale = (double) cellsPerSide / sizePx;
        for (int y = 0; y < sizePx; y++) {
            for (int x = 0; x < sizePx; x++) {
                double t = noise.fbm2Tiled(x * scale, y * scale, cellsPerSide, octaves);
                putBgr(bgr, (y * sizePx + x) * 3, mix(darkRgb, lightRgb, contrast(t)));
            }
        }
        return image;
    }

    /** A checkerboard of {@code cellsPerSide}² squares with a faint noise so it is not trivially compressible. */
    static BufferedImage checker(int sizePx, long seed, int cellsPerSide, int rgbA, int rgbB) {
        Noise noise = new Noise(seed);
        BufferedImage image = new BufferedImage(sizePx, sizePx, BufferedImage.TYPE_3BYTE_BGR);
        byte[] bgr = pixels(image);
        int cellPx = Math.max(1, sizePx / cellsPerSide);
        for (int y = 0; y < sizePx; y++) {
            for (int x = 0; x < sizePx; x++) {
                int base = ((x / cellPx + y / cellPx) & 1) == 0 ? rgbA : rgbB;
                double grain = noise.fbm2Tiled(x * 0.125, y * 0.125, sizePx / 8, 2);
                putBgr(bgr, (y * sizePx + x) * 3, mix(base, 0x000000, grain * 0.15));
            }
        }
        return image;
    }

    /** Running-bond bricks with mortar lines, a per-brick tint and surface grain. */
    static BufferedImage bricks(int sizePx, long seed, int rows) {
        Noise noise = new Noise(seed);
        BufferedImage image = new BufferedImage(sizePx, sizePx, BufferedImage.TYPE_3BYTE_BGR);
        byte[] bgr = pixels(image);
        int rowPx = sizePx / rows;
        int brickPx = rowPx * 2;
        int mortarPx = Math.max(1, rowPx / 10);
        for (int y = 0; y < sizePx; y++) {
            int row = y / rowPx;
            int shiftPx = (row & 1) * (brickPx / 2);
            for (int x = 0; x < sizePx; x++) {
                int bx = Math.floorMod(x + shiftPx, sizePx);
                int brick = bx / brickPx;
                boolean mortar = y % rowPx < mortarPx || bx % brickPx < mortarPx;
                double grain = noise.fbm2Tiled(x * 0.0625, y * 0.0625, sizePx / 16, 3);
                int rgb;
                if (mortar) {
                    rgb = mix(0x8A857C, 0xB5B0A6, grain);
                } else {
                    double tint = new Noise(seed + row * 131L + brick).fbm2(0.5, 0.5, 1);
                    rgb = mix(mix(0x7A2E1E, 0xA5472C, tint), 0x3A1A10, grain * 0.5);
                }
                putBgr(bgr, (y * sizePx + x) * 3, rgb);
            }
        }
        return image;
    }

    /** A soft splat with transparent surroundings: the only RGBA texture, so the decoder sees an alpha channel. */
    static BufferedImage decal(int sizePx, long seed, int rgb) {
        Noise noise = new Noise(seed);
        BufferedImage image = new BufferedImage(sizePx, sizePx, BufferedImage.TYPE_4BYTE_ABGR);
        byte[] abgr = pixels(image);
        double half = sizePx / 2.0;
        for (int y = 0; y < sizePx; y++) {
            for (int x = 0; x < sizePx; x++) {
                double dx = (x + 0.5 - half) / half, dy = (y + 0.5 - half) / half;
                double edge = 0.6 + 0.35 * noise.fbm2(x * 8.0 / sizePx, y * 8.0 / sizePx, 3);
                double alpha = clamp01((edge - Math.sqrt(dx * dx + dy * dy)) * 6);
                int i = (y * sizePx + x) * 4;
                abgr[i] = (byte) Math.round(alpha * 255);
                putBgr(abgr, i + 1, rgb);
            }
        }
        return image;
    }

    /** A single-channel height map (grey PNG), so the decoder also sees a one-channel file. */
    static BufferedImage heightMap(int sizePx, long seed, int cellsPerSide) {
        Noise noise = new Noise(seed);
        BufferedImage image = new BufferedImage(sizePx, sizePx, BufferedImage.TYPE_BYTE_GRAY);
        byte[] gray = pixels(image);
        double scale = (double) cellsPerSide / sizePx;
        for (int y = 0; y < sizePx; y++) {
            for (int x = 0; x < sizePx; x++) {
                gray[y * sizePx + x] = (byte) Math.round(noise.fbm2Tiled(x * scale, y * scale, cellsPerSide, 5) * 255);
            }
        }
        return image;
    }

    private static byte[] pixels(BufferedImage image) {
        return ((DataBufferByte) image.getRaster().getDataBuffer()).getData();
    }

    private static void putBgr(byte[] dst, int offset, int rgb) {
        dst[offset] = (byte) rgb;
        dst[offset + 1] = (byte) (rgb >> 8);
        dst[offset + 2] = (byte) (rgb >> 16);
    }

    /** Value noise clusters around 0.5; stretch it so the colour range is used. */
    private static double contrast(double t) {
        return clamp01((t - 0.5) * 1.8 + 0.5);
    }

    private static int mix(int rgbA, int rgbB, double t) {
        int r = channel(rgbA >> 16, rgbB >> 16, t);
        int g = channel(rgbA >> 8, rgbB >> 8, t);
        int b = channel(rgbA, rgbB, t);
        return r << 16 | g << 8 | b;
    }

    private static int channel(int a, int b, double t) {
        a &= 0xFF;
        b &= 0xFF;
        return (int) Math.round(a + (b - a) * clamp01(t));
    }

    private static double clamp01(double v) {
        return Math.max(0, Math.min(1, v));
    }
}
