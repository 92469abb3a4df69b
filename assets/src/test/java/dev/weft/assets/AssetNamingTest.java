package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.*;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * One file is one asset however it is named, and a misuse says what was wrong. A probe requesting
 * {@code tiny/textures/decal_16.png} as {@code /tiny/...}, {@code tiny/./...} and {@code tiny//...} got four
 * entries and four loads (four copies in memory, and on the GPU with an uploader); {@code request(null)}
 * threw the JDK's {@code Cannot invoke "dev.weft.assets.AssetId.toString()" because "id" is null}.
 */
@Timeout(120)
class AssetNamingTest extends WithJobSystem {
    private static final String FILE = "tiny/textures/decal_16.png";

    @Test
    void oneFileNamedFourWaysIsOneAsset() {
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            List<String> names = List.of(FILE, "/" + FILE, "tiny/./textures/decal_16.png", "tiny//textures/decal_16.png",
                    "tiny/meshes/../textures/decal_16.png");
            List<AssetRef<LoadedTexture>> refs = names.stream().map(assets::texture).toList();
            try {
                assertEquals(1, assets.stats().entries(), assets.stats().toString());
                assertEquals(1, assets.stats().loadsStarted(), assets.stats().toString());
                LoadedTexture first = refs.get(0).join();
                for (AssetRef<LoadedTexture> r : refs) {
                    assertEquals(AssetId.texture(FILE), r.id());
                    assertSame(first, r.join(), r.id() + " is another copy");
                    assertTrue(r.failure().isEmpty(), r.failure().toString());
                }
            } finally {
                refs.forEach(AssetRef::release);
            }
            Fixture.assertNoEntries(assets);
        }
    }

    /**
     * The level parser accepts {@code ./textures/a.png} and {@code textures/./b.png}; the load read them by
     * that name, which an in-memory or classpath source does not know: on the old code 3 of 3 such assets
     * were placeholders ("no such file in memory") and the level's bytes total was 0.
     */
    @Test
    void aLevelFileNamingItsFilesWithDotSegmentsLoadsThem() {
        byte[] a = Fixture.resource(FILE), b = Fixture.resource("tiny/textures/checker_32.png");
        byte[] m = Fixture.resource("tiny/meshes/post.obj");
        AssetSource source = AssetSource.inMemory(Fixture.files(
                "lvl/lvl.level", "weft-level 1\ntexture a ./textures/a.png\ntexture b textures/./b.png\n"
                        + "mesh m ./meshes/m.obj\nentity e mesh=m texture=a 0 0 0\n",
                "lvl/textures/a.png", a, "lvl/textures/b.png", b, "lvl/meshes/m.obj", m));
        try (AssetManager assets = AssetManager.builder(jobs).source(source).build()) {
            LevelLoad load = new LevelLoader(assets).load("lvl");
            Fixture.awaitLoad(load);
            assertEquals(List.of(), load.failures());
            LoadProgress.Snapshot p = load.progress();
            assertEquals(LoadProgress.Outcome.LOADED, p.outcome());
            assertEquals(a.length + b.length + m.length, p.bytesTotal(), p.toString());
            assertEquals(p.bytesTotal(), p.bytesDone(), p.toString());
            try (AssetRef<LoadedTexture> same = assets.texture("lvl/textures/a.png")) {
                assertSame(load.level().orElseThrow().textures().get("a"), same.join(), "the level's texture is this one");
            }
            assertEquals(3, assets.stats().loadsStarted(), assets.stats().toString());
            load.unload();
            Fixture.assertNoEntries(assets);
        }
    }

    @Test
    void pathsThatNameNoFileInTheSourceAreRefused() {
        assertEquals("asset path '../x.png' leaves the source's root; name the file from the root, e.g."
                + " tiny/textures/grass_64.png",
                assertThrows(IllegalArgumentException.class, () -> AssetId.texture("../x.png")).getMessage());
        assertThrows(IllegalArgumentException.class, () -> AssetId.texture("tiny/../../x.png"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> AssetId.mesh("/")).getMessage()
                .startsWith("asset path '/' names no file"));
        assertThrows(IllegalArgumentException.class, () -> AssetId.mesh("./."));
        assertEquals("a/b..c/.d/x.png", AssetId.texture("a/b..c/.d/x.png").path(), "dots inside a name are a name");
    }

    @Test
    void nullArgumentsSayWhichAndWhatToPass() {
        try (AssetManager assets = AssetManager.builder(jobs).build()) {
            NullPointerException e = assertThrows(NullPointerException.class, () -> assets.request(null));
            assertEquals("AssetManager.request(null): pass what to load, e.g. AssetId.texture(\"tiny/textures/grass_64.png\")",
                    e.getMessage());
            for (Runnable call : List.<Runnable>of(() -> assets.texture(null), () -> assets.mesh(null),
                    () -> assets.collision(null))) {
                assertTrue(assertThrows(NullPointerException.class, call::run).getMessage().startsWith("asset path is null:"));
            }
            assertEquals("LevelLoader.load(null): pass the level's name, e.g. \"tiny\" for tiny/tiny.level in the"
                    + " manager's source", assertThrows(NullPointerException.class,
                    () -> new LevelLoader(assets).load(null)).getMessage());
            assertEquals("empty asset path: pass the file's path in the manager's source, '/'-separated, e.g."
                    + " tiny/textures/grass_64.png", assertThrows(IllegalArgumentException.class,
                    () -> assets.texture("")).getMessage());
            ChunkStreamer streamer = new ChunkStreamer(new LevelLoader(assets), ChunkGrid.SHIPPED, 30f, 40f);
            assertEquals("ChunkStreamer.origin(null): pass a chunk from resident()",
                    assertThrows(NullPointerException.class, () -> streamer.origin(null)).getMessage());
            streamer.close();
            assertEquals(0, assets.stats().entries());
        }
    }
}
