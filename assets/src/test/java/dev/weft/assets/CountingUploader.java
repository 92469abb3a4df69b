package dev.weft.assets;

/**
 * A fake GPU for the manager's upload path: checks that every call comes from the thread that created
 * it (the test's thread, which then is the main thread) and that no handle is freed twice, and counts
 * GPU objects made and freed.
 */
final class CountingUploader implements GpuUploader {
    /** What an upload returns; {@code released} is set once by {@link #free}. */
    static final class Handle {
        final boolean texture;
        boolean released;          // owner thread only

        Handle(boolean texture) {
            this.texture = texture;
        }

        boolean isReleased() {
            return released;
        }
    }

    private final Thread owner = Thread.currentThread();
    int meshesUploaded, texturesUploaded, meshesReleased, texturesReleased;   // owner thread only

    /** GPU objects made and not freed. */
    int live() {
        return meshesUploaded + texturesUploaded - meshesReleased - texturesReleased;
    }

    @Override
    public Object uploadTexture(TextureSource pixels) {
        checkThread();
        if (pixels.rgba().remaining() != pixels.width() * pixels.height() * 4) {
            throw new IllegalArgumentException("pixels do not match " + pixels.width() + "x" + pixels.height());
        }
        texturesUploaded++;
        return new Handle(true);
    }

    @Override
    public Object uploadMesh(MeshSource mesh) {
        checkThread();
        if (mesh.indices().remaining() % 3 != 0) {
            throw new IllegalArgumentException("index count not a multiple of 3");
        }
        meshesUploaded++;
        return new Handle(false);
    }

    @Override
    public void free(Object handle) {
        checkThread();
        Handle h = (Handle) handle;
        if (h.released) {
            throw new IllegalStateException("freed twice");
        }
        h.released = true;
        if (h.texture) {
            texturesReleased++;
        } else {
            meshesReleased++;
        }
    }

    private void checkThread() {
        if (Thread.currentThread() != owner) {
            throw new IllegalStateException("GPU call on " + Thread.currentThread().getName() + ", not the main thread");
        }
    }
}
