package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.awt.image.BufferedImage;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Test;

class PngDecoderTest {

    @Test
    void decodesEveryTextureOfBothLevels() {
        for (String levelName : List.of("tiny", "demo")) {
            for (LevelAsset asset : TestResources.level(levelName).textures()) {
                byte[] png = TestResources.bytes(LevelResources.assetFile(levelName, asset));
                int sidePx = Integer.parseInt(asset.path().replaceAll(".*_(\\d+)\\.png", "$1"));
                try (TextureData texture = PngDecoder.decode(asset.path(), png)) {
                    assertEquals(sidePx, texture.width(), asset.path());
                    assertEquals(sidePx, texture.height(), asset.path());
                    assertEquals(sidePx * sidePx * 4, texture.rgba().remaining());
                    assertTrue(texture.rgba().isDirect());
                }
            }
        }
    }

    @Test
    void pixelsMatchImageIoAndChannelsMatchTheFile() throws IOException {
        // grass: RGB, decal: RGBA; the height map (grey) is only in the demo level.
        assertMatchesImageIo("weft/levels/tiny/textures/grass_64.png", 3);
        assertMatchesImageIo("weft/levels/tiny/textures/decal_16.png", 4);
        assertMatchesImageIo("weft/levels/demo/textures/height_512.png", 1);
    }

    @Test
    void heapDirectAndArrayInputsDecodeTheSameAndPositionIsRespected() {
        byte[] png = TestResources.bytes("weft/levels/tiny/textures/checker_32.png");
        ByteBuffer padded = ByteBuffer.allocateDirect(png.length + 10);
        padded.position(7);
        padded.put(png).position(7).limit(7 + png.length);
        ByteBuffer heap = ByteBuffer.wrap(png);
        try (TextureData fromArray = PngDecoder.decode("c.png", png);
             TextureData fromDirect = PngDecoder.decode("c.png", padded);
             TextureData fromHeap = PngDecoder.decode("c.png", heap)) {
            assertEquals(fromArray.rgba(), fromDirect.rgba());
            assertEquals(fromArray.rgba(), fromHeap.rgba());
        }
        assertEquals(7, padded.position(), "input position untouched");
        assertEquals(0, heap.position());
    }

    @Test
    void corruptPngNamesTheFileAndStbsReason() {
        byte[] png = TestResources.bytes("weft/levels/tiny/textures/grass_64.png");
        byte[] corrupt = png.clone();
        for (int i = 60; i < corrupt.length - 20; i++) {
            corrupt[i] ^= (byte) (i * 31);   // wreck the compressed pixels, keep signature, IHDR, IDAT's header
        }
        AssetFormatException e = assertThrows(AssetFormatException.class, () -> PngDecoder.decode("grass_64.png", corrupt));
        assertTrue(e.getMessage().startsWith("grass_64.png: corrupt PNG: "), e.getMessage());
        assertFalse(e.getMessage().endsWith("no reason given"), e.getMessage());
        assertEquals("grass_64.png", e.file());
    }

    @Test
    void truncatedPngNamesTheFile() {
        byte[] png = TestResources.bytes("weft/levels/tiny/textures/grass_64.png");
        for (int length : new int[] {png.length - 1, png.length / 2, 40, 24}) {
            byte[] truncated = Arrays.copyOf(png, length);
            AssetFormatException e = assertThrows(AssetFormatException.class, () -> PngDecoder.decode("grass_64.png", truncated),
                    "truncated to " + length);
            assertEquals("grass_64.png: truncated PNG: " + length + " bytes, no IEND chunk at the end", e.getMessage());
        }
        // Cut inside the pixel data but with the IEND chunk still at the end (a lost middle block): stb's turn.
        byte[] holed = new byte[png.length - 100];
        System.arraycopy(png, 0, holed, 0, holed.length - 12);
        System.arraycopy(png, png.length - 12, holed, holed.length - 12, 12);
        AssetFormatException e = assertThrows(AssetFormatException.class, () -> PngDecoder.decode("grass_64.png", holed));
        assertTrue(e.getMessage().startsWith("grass_64.png: corrupt PNG: "), e.getMessage());
        AssetFormatException header = assertThrows(AssetFormatException.class,
                () -> PngDecoder.decode("grass_64.png", Arrays.copyOf(png, 20)));
        assertEquals("grass_64.png: not a PNG: only 20 bytes", header.getMessage());
        // Bytes after a whole PNG (a file written twice): not called truncated, which sent a probe looking
        // for a short read.
        byte[] trailing = Arrays.copyOf(png, png.length + 7);
        AssetFormatException after = assertThrows(AssetFormatException.class, () -> PngDecoder.decode("grass_64.png", trailing));
        assertTrue(after.getMessage().startsWith("grass_64.png: PNG with 7 bytes after its IEND chunk"), after.getMessage());
    }

    @Test
    void nonPngBytesAreRejectedBeforeStbSeesThem() {
        AssetFormatException tiny = assertThrows(AssetFormatException.class, () -> PngDecoder.decode("a.png", new byte[3]));
        assertEquals("a.png: not a PNG: only 3 bytes", tiny.getMessage());
        AssetFormatException empty = assertThrows(AssetFormatException.class, () -> PngDecoder.decode("e.png", new byte[0]));
        assertEquals("e.png: not a PNG: only 0 bytes", empty.getMessage());
        AssetFormatException text = assertThrows(AssetFormatException.class,
                () -> PngDecoder.decode("b.png", TestResources.ascii("GIF89a, not a png at all, honest")));
        assertEquals("b.png: not a PNG: bad signature", text.getMessage());
        byte[] noIhdr = pngHeader(4, 4);
        noIhdr[12] = 'X';
        AssetFormatException chunk = assertThrows(AssetFormatException.class, () -> PngDecoder.decode("c.png", noIhdr));
        assertEquals("c.png: corrupt PNG: first chunk is not IHDR", chunk.getMessage());
    }

    @Test
    void absurdDimensionsAreRejectedBeforeDecoding() {
        assertAbsurd(100_000, 100_000);
        assertAbsurd(PngDecoder.MAX_SIDE_PX + 1, 1);
        assertAbsurd(9_000, 9_000);   // under the side limit, but 309 MiB decoded
    }

    @Test
    void closeFreesExactlyOnceAndBlocksLaterUse() {
        byte[] png = TestResources.bytes("weft/levels/tiny/textures/decal_16.png");
        TextureData real = PngDecoder.decode("decal_16.png", png);
        AtomicInteger frees = new AtomicInteger();
        TextureData counted = new TextureData(real.file(), real.width(), real.height(), real.channels(), real.rgba(), buffer -> {
            frees.incrementAndGet();
            real.close();   // the real stbi_image_free, once
        });
        counted.close();
        counted.close();
        assertEquals(1, frees.get());
        assertTrue(counted.isClosed());
        assertTrue(real.isClosed());
        IllegalStateException e = assertThrows(IllegalStateException.class, counted::rgba);
        assertEquals("decal_16.png: texture already closed", e.getMessage());
        real.close();   // idempotent on the real one too: a second stbi_image_free would crash the JVM
    }

    @Test
    void closeReturnsTheNativeMemoryToTheAllocator() throws Exception {
        // LWJGL's debug allocator must be switched on before LWJGL starts, so this runs in a fresh JVM.
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        Process probe = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-cp",
                System.getProperty("java.class.path"), NativeFreeProbe.class.getName(),
                "weft/levels/tiny/textures/grass_64.png")
                .redirectErrorStream(true).start();
        String output = new String(probe.getInputStream().readAllBytes());
        assertEquals(0, probe.waitFor(), output);
        // 64 x 64 x RGBA = 16384 bytes live after decode, none after close; the input copy already gone.
        assertTrue(output.contains("decoded: +16384 bytes live"), output);
        assertTrue(output.contains("closed: +0 bytes live"), output);
        assertTrue(output.contains("closed again: +0 bytes live"), output);
    }

    private static void assertAbsurd(int widthPx, int heightPx) {
        byte[] header = pngHeader(widthPx, heightPx);
        AssetFormatException e = assertThrows(AssetFormatException.class, () -> PngDecoder.decode("huge.png", header));
        assertTrue(e.getMessage().startsWith("huge.png: absurd PNG dimensions " + widthPx + "x" + heightPx), e.getMessage());
    }

    /** Signature, a valid IHDR chunk (8-bit RGBA), no pixel data, IEND: enough to reach the size check. */
    private static byte[] pngHeader(int widthPx, int heightPx) {
        ByteBuffer ihdr = ByteBuffer.allocate(17);
        ihdr.put(TestResources.ascii("IHDR")).putInt(widthPx).putInt(heightPx).put((byte) 8).put((byte) 6)
                .put((byte) 0).put((byte) 0).put((byte) 0);
        CRC32 crc = new CRC32();
        crc.update(ihdr.array());
        ByteBuffer png = ByteBuffer.allocate(8 + 4 + 17 + 4 + 12);
        png.put(new byte[] {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'}).putInt(13).put(ihdr.array())
                .putInt((int) crc.getValue())
                .put(new byte[] {0, 0, 0, 0, 'I', 'E', 'N', 'D', (byte) 0xAE, 0x42, 0x60, (byte) 0x82});
        return png.array();
    }

    private static void assertMatchesImageIo(String resource, int channels) throws IOException {
        byte[] png = TestResources.bytes(resource);
        BufferedImage expected = ImageIO.read(new ByteArrayInputStream(png));
        try (TextureData texture = PngDecoder.decode(resource, png)) {
            assertEquals(channels, texture.channels(), resource);
            ByteBuffer rgba = texture.rgba();
            ByteArrayOutputStream want = new ByteArrayOutputStream();
            byte[] got = new byte[rgba.remaining()];
            rgba.get(got);
            for (int y = 0; y < expected.getHeight(); y++) {
                for (int x = 0; x < expected.getWidth(); x++) {
                    int argb = expected.getRGB(x, y);
                    if (channels == 1) {
                        int grey = expected.getRaster().getSample(x, y, 0);   // getRGB would apply a gamma
                        argb = 0xFF000000 | grey << 16 | grey << 8 | grey;
                    }
                    want.write(argb >> 16);
                    want.write(argb >> 8);
                    want.write(argb);
                    want.write(argb >>> 24);
                }
            }
            assertArrayEquals(want.toByteArray(), got, resource);
        }
    }
}
