package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The extension claim: a new format is one codec plus its registration, and then both the manager and
 * level files take it. The codec lives here, in test sources, so no other production file is involved.
 */
@Timeout(120)
class NewFormatTest extends WithJobSystem {
    /** A toy texture format: "W H" then W*H hex RGBA words, e.g. {@code 1 1 ff00ffff}. */
    private static final FileCodec<TextureData> TXT = FileCodec.texture(List.of("txt"), NewFormatTest::parseTxt);

    private static final String LEVEL = """
            weft-level 1
            texture sign textures/sign.txt
            mesh    box  meshes/box.obj
            entity  e0   mesh=box texture=sign 0 0 0
            """;

    private static Map<String, byte[]> files() {
        return Fixture.files("lvl/lvl.level", LEVEL, "lvl/textures/sign.txt", "2 1 ff0000ff 00ff00ff",
                "lvl/meshes/box.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n");
    }

    /**
     * A decoder outside this package can build what it returns: TextureData and MeshData had no public
     * constructor or factory, so the README's "one decoder and one registration line" could not be written
     * by a game (a probe's program did not compile). The factories copy and check what they are given.
     */
    @Test
    void aDecoderOfYourOwnBuildsTexturesAndMeshesThroughPublicFactories() {
        ByteBuffer red = ByteBuffer.allocate(2 * 2 * 4);
        for (int i = 0; i < 4; i++) {
            red.put((byte) 255).put((byte) 0).put((byte) 0).put((byte) 255);
        }
        try (TextureData t = TextureData.rgba8("a.ktx2", 2, 2, red.flip())) {
            assertEquals(16, t.rgba().remaining());
            assertEquals((byte) 255, t.rgba().get(0));
        }
        IllegalArgumentException size = assertThrows(IllegalArgumentException.class,
                () -> TextureData.rgba8("b.ktx2", 4, 4, ByteBuffer.allocate(10)));
        assertTrue(size.getMessage().startsWith("b.ktx2: 4x4 RGBA8 is 64 bytes"), size.getMessage());
        float[] v = {0, 0, 0, 0, 0, 1, 0, 0, 2, 0, 0, 0, 0, 1, 1, 0, 0, 3, 0, 0, 0, 1, 0, 1};
        MeshData m = MeshData.of("a.tri", v, new int[] {0, 1, 2});
        assertEquals(1, m.triangleCount());
        assertEquals(new Aabb(0, 0, 0, 2, 3, 0), m.bounds());
        IllegalArgumentException index = assertThrows(IllegalArgumentException.class,
                () -> MeshData.of("b.tri", v, new int[] {0, 1, 3}));
        assertEquals("b.tri: index 2 is 3, outside the 3 vertices", index.getMessage());
    }

    @Test
    void aRegisteredTextFormatLoadsThroughTheManagerAndALevelFile() {
        CodecRegistry codecs = CodecRegistry.defaults().register(TXT);
        try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files())).codecs(codecs).build()) {
            try (AssetRef<LoadedTexture> sign = assets.texture("lvl/textures/sign.txt")) {
                LoadedTexture t = sign.join();
                assertEquals(List.of(), sign.failure().stream().toList());
                assertFalse(t.isPlaceholder());
                assertEquals(2, t.width());
                assertEquals((byte) 0xff, t.pixels().rgba().get(4 + 1), "second pixel is green");
            }
            LevelLoad load = new LevelLoader(assets).load("lvl");
            Fixture.awaitLoad(load);
            assertEquals(List.of(), load.failures());
            LoadedLevel level = load.level().orElseThrow();
            assertFalse(level.textures().get("sign").isPlaceholder());
            assertEquals(1, level.textures().get("sign").height());
            level.close();
            Fixture.assertNoLiveTextures(assets);
        }
    }

    @Test
    void aLevelNamingAnUnregisteredExtensionNamesFileLineAndTheRegisteredOnes() {
        AssetFormatException x = assertThrows(AssetFormatException.class,
                () -> LevelFile.parse("lvl.level", LEVEL, CodecRegistry.defaults()));
        assertEquals("lvl.level:2: bad path 'textures/sign.txt' in 'texture sign textures/sign.txt': no texture codec"
                + " for its extension; registered: [.png]", x.getMessage());
        assertEquals(2, x.line());
        try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files())).build()) {
            LevelLoad load = new LevelLoader(assets).load("lvl");
            Fixture.awaitLoad(load);
            LoadedLevel level = load.level().orElseThrow();
            assertTrue(level.textures().get("sign").isPlaceholder(), "unregistered: the level repairs it to a placeholder");
            assertTrue(load.failures().get(0).message().contains("registered: [.png]"), load.failures().toString());
            level.close();
        }
    }

    private static TextureData parseTxt(String file, byte[] bytes) {
        String[] t = new String(bytes, StandardCharsets.US_ASCII).strip().split("\\s+");
        int w = Integer.parseInt(t[0]);
        int h = Integer.parseInt(t[1]);
        if (t.length != 2 + w * h) {
            throw new AssetFormatException(file, 1, "expected " + w * h + " pixels, got " + (t.length - 2));
        }
        ByteBuffer px = ByteBuffer.allocateDirect(w * h * 4);
        for (int i = 2; i < t.length; i++) {
            px.putInt((int) Long.parseLong(t[i], 16));      // big-endian: r g b a in that order
        }
        return new TextureData(file, w, h, 4, px.flip(), buffer -> { });
    }
}
