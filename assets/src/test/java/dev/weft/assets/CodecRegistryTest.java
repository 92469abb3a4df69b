package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Codecs by kind and extension: clear errors for unknown formats, and a new format is one registration. */
@Timeout(120)
class CodecRegistryTest extends WithJobSystem {
    /** A toy mesh format: one triangle per line, nine floats (three corners' x y z). */
    private static final FileCodec<MeshData> TRI = FileCodec.mesh(List.of("tri"), CodecRegistryTest::parseTri);

    @Test
    void anUnknownExtensionNamesTheFileAndTheRegisteredOnes() {
        CodecRegistry codecs = CodecRegistry.defaults();
        AssetFormatException x = assertThrows(AssetFormatException.class,
                () -> codecs.codecFor(AssetId.mesh("lvl/meshes/rock.gltf"), "mem:lvl/meshes/rock.gltf"));
        assertEquals("mem:lvl/meshes/rock.gltf: no mesh codec for '.gltf'; registered: [.obj]", x.getMessage());
        assertEquals(List.of(".png"), codecs.registered(AssetKind.TEXTURE));
        assertThrows(IllegalArgumentException.class, () -> codecs.register(FileCodec.mesh(List.of("OBJ"), TRI::decode)),
                "an extension is taken once per kind");
        assertThrows(IllegalArgumentException.class, () -> codecs.register(new MislabelledTri(AssetKind.COLLISION)),
                "collisions are derived, not decoded");
    }

    @Test
    void theManagerReportsAnUnknownExtensionAsAFailureAndUsesThePlaceholder() {
        Map<String, byte[]> files = Fixture.files("lvl/meshes/rock.tri", Fixture.ascii("0 0 0 1 0 0 0 1 0\n"));
        try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files)).build();
             AssetRef<LoadedMesh> rock = assets.mesh("lvl/meshes/rock.tri")) {
            assertTrue(rock.join().isPlaceholder());
            String message = rock.failure().orElseThrow().message();
            assertTrue(message.contains("no mesh codec for '.tri'; registered: [.obj]"), message);
        }
    }

    /** Registering a codec makes its extension load end to end: I/O, decode lane, upload on the main thread, free. */
    @Test
    void aRegisteredCodecLoadsANewExtensionThroughTheManager() {
        Map<String, byte[]> files = Fixture.files("lvl/meshes/wedge.tri",
                Fixture.ascii("0 0 0 1 0 0 0 1 0\n0 0 0 0 1 0 0 0 1\n"));
        CountingUploader gpu = new CountingUploader();
        jobs.bindMainThread();
        try (AssetManager assets = AssetManager.builder(jobs).source(AssetSource.inMemory(files))
                .codecs(CodecRegistry.defaults().register(TRI)).uploader(gpu).build()) {
            AssetRef<LoadedMesh> wedge = assets.mesh("lvl/meshes/wedge.tri");
            Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> {
                jobs.runMainThreadJobs(1_000_000);   // the upload is a main-thread job
                return wedge.isDone();
            });
            LoadedMesh mesh = wedge.join();
            assertEquals(List.of(), wedge.failure().stream().toList());
            assertFalse(mesh.isPlaceholder());
            assertEquals(2, mesh.triangleCount());
            assertEquals(1, gpu.meshesUploaded);
            assertTrue(mesh.gpu().isPresent());
            wedge.release();
            Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> {
                jobs.runMainThreadJobs(1_000_000);   // the free is a main-thread job too
                return gpu.live() == 0;
            });
            assertEquals(0, gpu.live(), "unload freed the uploaded mesh");
        }
    }

    /** TRI under another kind. */
    private record MislabelledTri(AssetKind kind) implements AssetCodec<MeshData> {
        @Override public List<String> extensions() { return List.of("bvh"); }
        @Override public MeshData decode(String file, byte[] bytes) { return TRI.decode(file, bytes); }
        @Override public MeshData placeholder() { return TRI.placeholder(); }
        @Override public Object upload(GpuUploader gpu, MeshData data) { return TRI.upload(gpu, data); }
        @Override public LoadedAsset asset(AssetId id, MeshData data, boolean placeholder, Object gpu) {
            return TRI.asset(id, data, placeholder, gpu);
        }
    }

    private static MeshData parseTri(String file, byte[] bytes) {
        String[] lines = new String(bytes, StandardCharsets.US_ASCII).strip().split("\n");
        FloatBuffer v = ByteBuffer.allocateDirect(lines.length * 3 * MeshData.FLOATS_PER_VERTEX * 4)
                .order(java.nio.ByteOrder.nativeOrder()).asFloatBuffer();
        IntBuffer idx = ByteBuffer.allocateDirect(lines.length * 3 * 4).order(java.nio.ByteOrder.nativeOrder()).asIntBuffer();
        for (int line = 0; line < lines.length; line++) {
            String[] t = lines[line].trim().split("\\s+");
            if (t.length != 9) {
                throw new AssetFormatException(file, line + 1, "expected 9 numbers, got " + t.length);
            }
            for (int c = 0; c < 3; c++) {
                for (int k = 0; k < 3; k++) {
                    v.put(Float.parseFloat(t[c * 3 + k]));
                }
                v.put(0f).put(0f).put(1f).put(0f).put(0f);   // normal +z, uv 0 0
                idx.put(line * 3 + c);
            }
        }
        return new MeshData(file, v.flip(), idx.flip(), new Aabb(0, 0, 0, 1, 1, 1));
    }
}
