package dev.weft.demo.render;

import dev.weft.assets.TextureSource;

import java.nio.ByteBuffer;

/** Textures made in code, for the smoke run and tests. */
public final class ProceduralTextures {
    private ProceduralTextures() {}

    /**
     * A {@code size x size} checkerboard of {@code cells x cells} squares alternating between two
     * {@code 0xRRGGBB} colours, shaded by a soft diagonal gradient so mip levels and lighting show.
     */
    public static TextureSource checker(int size, int cells, int rgbA, int rgbB) {
        if (size <= 0 || cells <= 0 || cells > size) {
            throw new IllegalArgumentException("bad checker: size=" + size + " cells=" + cells);
        }
        ByteBuffer px = ByteBuffer.allocateDirect(size * size * 4);
        int cell = Math.max(1, size / cells);
        for (int y = 0; y < size; y++) {
            for (int x = 0; x < size; x++) {
                int rgb = ((x / cell + y / cell) & 1) == 0 ? rgbA : rgbB;
                float shade = 0.75f + 0.25f * (x + y) / (2f * (size - 1 == 0 ? 1 : size - 1));
                px.put(scale(rgb >>> 16, shade)).put(scale(rgb >>> 8, shade)).put(scale(rgb, shade)).put((byte) 0xFF);
            }
        }
        return TextureSource.of(size, size, px.flip());
    }

    private static byte scale(int channel, float shade) {
        return (byte) Math.min(255, Math.round((channel & 0xFF) * shade));
    }
}
