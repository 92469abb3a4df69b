package dev.weft.assets.fuzz;

import dev.weft.assets.Aabb;
import dev.weft.assets.AssetFormatException;
import dev.weft.assets.AssetKind;
import dev.weft.assets.LevelAsset;
import dev.weft.assets.LevelEntity;
import dev.weft.assets.LevelFile;
import dev.weft.assets.MeshData;
import dev.weft.assets.ObjParser;
import dev.weft.assets.PngDecoder;
import dev.weft.assets.TextureData;
import java.nio.FloatBuffer;
import java.nio.IntBuffer;
import java.util.HashSet;
import java.util.Set;

/**
 * What each parser may do with any input: return data that meets its documented invariants, or throw
 * an {@link AssetFormatException} that names the file it was given (message {@code file:} or
 * {@code file:line:}). Anything else — another exception, an Error, data that breaks the contract, a
 * texture that is not closed — is a {@link Defect}. Textures are always closed here.
 */
final class Oracle {
    private Oracle() {}

    /** Accepted (valid data) or rejected (a well-formed AssetFormatException). */
    enum Verdict { ACCEPTED, REJECTED }

    /** A broken property, with a short key that groups findings of one cause. */
    static final class Defect extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final String key;

        Defect(String key, String message, Throwable cause) {
            super(message, cause);
            this.key = key;
        }
    }

    static Verdict check(Mutator.Format format, String file, byte[] input) {
        try {
            switch (format) {
                case PNG -> checkTexture(file, PngDecoder.decode(file, input));
                case OBJ -> checkMesh(file, ObjParser.parse(file, input), input);
                case LEVEL -> checkLevel(file, LevelFile.parse(file, input));
                default -> throw new AssertionError(format);
            }
            return Verdict.ACCEPTED;
        } catch (AssetFormatException e) {
            if (!file.equals(e.file()) || !e.getMessage().startsWith(file + ":")) {
                throw new Defect("exception does not name the file", "AssetFormatException for '" + file
                        + "' says file()='" + e.file() + "', message '" + e.getMessage() + "'", e);
            }
            if (format != Mutator.Format.PNG && e.line() < 0) {
                throw new Defect("negative line", e.getMessage(), e);
            }
            return Verdict.REJECTED;
        } catch (Defect d) {
            throw d;
        } catch (Throwable t) {
            throw new Defect(t.getClass().getName() + " at " + firstOwnFrame(t), "undocumented " + t, t);
        }
    }

    /** The first frame in Weft or LWJGL code: findings with the same one are the same bug. */
    static String firstOwnFrame(Throwable t) {
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().startsWith("dev.weft.assets") && !e.getClassName().contains(".fuzz.")) {
                return e.getClassName().substring(e.getClassName().lastIndexOf('.') + 1) + "." + e.getMethodName()
                        + ":" + e.getLineNumber();
            }
        }
        StackTraceElement[] s = t.getStackTrace();
        return s.length > 0 ? s[0].toString() : "?";
    }

    private static void checkTexture(String file, TextureData t) {
        try (t) {
            require(t.file().equals(file), "texture file " + t.file());
            require(t.width() >= 1 && t.width() <= PngDecoder.MAX_SIDE_PX && t.height() >= 1
                    && t.height() <= PngDecoder.MAX_SIDE_PX, "texture size " + t.width() + "x" + t.height());
            require(t.channels() >= 1 && t.channels() <= 4, "channels " + t.channels());
            require(t.rgba().remaining() == t.width() * t.height() * TextureData.BYTES_PER_PIXEL
                    && t.sizeBytes() == t.rgba().remaining(), "rgba bytes " + t.rgba().remaining());
            t.rgba().get(t.rgba().remaining() - 1);               // the whole buffer is readable
        }
        require(t.isClosed(), "texture not closed");
        try {
            t.rgba();
            throw new Defect("rgba after close", "rgba() of a closed texture did not throw", null);
        } catch (IllegalStateException expected) {
            // documented
        }
    }

    private static void checkMesh(String file, MeshData m, byte[] input) {
        require(m.file().equals(file), "mesh file " + m.file());
        int vertices = m.vertexCount();
        IntBuffer idx = m.indices();
        FloatBuffer v = m.vertices();
        require(m.triangleCount() >= 1 && idx.limit() == m.triangleCount() * 3, "index count " + idx.limit());
        require(v.limit() == vertices * MeshData.FLOATS_PER_VERTEX, "vertex floats " + v.limit());
        for (int i = 0; i < idx.limit(); i++) {
            int k = idx.get(i);
            require(k >= 0 && k < vertices, "index " + k + " of " + vertices + " vertices");
        }
        String[] component = {"position", "position", "position", "normal", "normal", "normal", "uv", "uv"};
        for (int i = 0; i < v.limit(); i++) {
            if (!Float.isFinite(v.get(i))) {
                throw new Defect("contract: non-finite " + component[i % MeshData.FLOATS_PER_VERTEX],
                        "returned data breaks the contract: vertex " + i / MeshData.FLOATS_PER_VERTEX + " has a non-finite "
                                + component[i % MeshData.FLOATS_PER_VERTEX] + " component: " + v.get(i), null);
            }
        }
        Aabb b = m.bounds();
        for (int i = 0; i < vertices; i++) {
            float x = m.position(i, 0), y = m.position(i, 1), z = m.position(i, 2);
            require(b.contains(x, y, z), "vertex " + i + " (" + x + ", " + y + ", " + z + ") outside " + b);
        }
        require(vertices <= 3L * m.triangleCount() && input.length > 0, "more vertices than corners");
    }

    private static void checkLevel(String file, LevelFile level) {
        require(level.fileName().equals(file), "level file " + level.fileName());
        Set<String> loaded = new HashSet<>();
        for (LevelAsset a : level.loadOrder()) {
            require(loaded.containsAll(a.dependsOn()), a.name() + " loads before its dependencies");
            require(loaded.add(a.name()), a.name() + " twice in the load order");
        }
        require(loaded.size() == level.assets().size(), "load order misses assets");
        for (LevelAsset a : level.assets()) {
            require(a.kind() != AssetKind.COLLISION
                    || level.asset(a.dependsOn().get(0)).orElseThrow().kind() == AssetKind.MESH, a + " from a non-mesh");
            require(a.path() == null || (!a.path().contains("..") && !a.path().startsWith("/")), "path " + a.path());
        }
        Set<String> entityNames = new HashSet<>();
        for (LevelEntity e : level.entities()) {
            require(entityNames.add(e.name()), "entity " + e.name() + " twice");
            require(level.asset(e.mesh()).orElseThrow().kind() == AssetKind.MESH, e + " mesh");
            require(level.asset(e.texture()).orElseThrow().kind() == AssetKind.TEXTURE, e + " texture");
            require(e.collision() == null || level.asset(e.collision()).orElseThrow().kind() == AssetKind.COLLISION, e + " collision");
            require(Float.isFinite(e.xM()) && Float.isFinite(e.yM()) && Float.isFinite(e.zM()), e + " position");
        }
    }

    private static void require(boolean ok, String what) {
        if (!ok) {
            throw new Defect("contract: " + what.replaceAll("[0-9]+", "N"), "returned data breaks the contract: " + what, null);
        }
    }
}
