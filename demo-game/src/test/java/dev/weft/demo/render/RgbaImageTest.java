package dev.weft.demo.render;

import static org.junit.jupiter.api.Assertions.*;

import java.awt.image.BufferedImage;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RgbaImageTest {

    /** 2x2 in GL order: bottom row red, green; top row blue, white; alpha 0 everywhere. */
    private static ByteBuffer glOrder2x2() {
        return ByteBuffer.allocateDirect(16)
                .put(new byte[] {(byte) 255, 0, 0, 0, 0, (byte) 255, 0, 0})
                .put(new byte[] {0, 0, (byte) 255, 0, (byte) 255, (byte) 255, (byte) 255, 0})
                .flip();
    }

    @Test
    void flipsGlRowsRightSideUpAndMakesPixelsOpaque() {
        RgbaImage img = RgbaImage.fromBottomUpRows(2, 2, glOrder2x2());
        assertEquals(0x0000FF, img.rgb(0, 0), "top-left was GL's top row");
        assertEquals(0xFFFFFF, img.rgb(1, 0));
        assertEquals(0xFF0000, img.rgb(0, 1), "bottom-left was GL's first row");
        assertEquals(0x00FF00, img.rgb(1, 1));
        assertEquals((byte) 0xFF, img.pixels().get(3), "alpha forced to 255");
        assertEquals(4, img.distinctColours());
    }

    @Test
    void singleColourImageHasNoVariance() {
        ByteBuffer grey = ByteBuffer.allocateDirect(4 * 9);
        for (int i = 0; i < 9; i++) {
            grey.put((byte) 80).put((byte) 80).put((byte) 80).put((byte) 255);
        }
        RgbaImage img = RgbaImage.fromBottomUpRows(3, 3, grey.flip());
        assertEquals(1, img.distinctColours());
        assertEquals(0.0, img.lumaVariance(), 1e-9);
        assertTrue(RgbaImage.fromBottomUpRows(2, 2, glOrder2x2()).lumaVariance() > 1000.0);
    }

    @Test
    void rejectsShortBuffers() {
        assertThrows(IllegalArgumentException.class,
                () -> RgbaImage.fromBottomUpRows(4, 4, ByteBuffer.allocateDirect(16)));
    }

    @Test
    void writesAPngThatReadsBackTopRowFirst(@TempDir Path dir) throws Exception {
        RgbaImage img = RgbaImage.fromBottomUpRows(2, 2, glOrder2x2());
        Path png = dir.resolve("sub/shot.png");
        img.writePng(png);
        BufferedImage back = ImageIO.read(png.toFile());
        assertEquals(2, back.getWidth());
        assertEquals(0x0000FF, back.getRGB(0, 0) & 0xFFFFFF);
        assertEquals(0xFF0000, back.getRGB(0, 1) & 0xFFFFFF);
        assertEquals(0xFF, back.getRGB(1, 1) >>> 24, "written opaque");
    }
}
