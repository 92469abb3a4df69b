package dev.weft.assets;

import dev.weft.JobFailedException;
import dev.weft.Jobs;
import java.util.concurrent.CancellationException;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * The steps of one asset's load job, per kind: await the bytes (parked), decode in the manager's decode
 * lane through its {@link CodecRegistry}, upload through its {@link GpuUploader} (a main-thread job), and
 * fall back to a placeholder with a {@link LoadFailure} at any failed step. Runs only inside the load job
 * of its {@link AssetManager} (a fiber), which owns all state it touches.
 */
final class LoadSteps {
    private final AssetManager m;

    LoadSteps(AssetManager m) {
        this.m = m;
    }

    /**
     * Parks until an I/O thread has the bytes, then decodes them in the decode lane with the codec for the
     * asset's extension; {@code adopt} sees the result inside the lane, {@code abandon} frees it if the
     * waiter was cancelled meanwhile. On a read or format error: records it in {@code e.failure} (ending
     * with {@code fallback}) and returns null for the caller's placeholder. A cancellation propagates.
     */
    private <D> D readAndDecode(AssetEntry e, String file, Class<D> type, Consumer<D> adopt, Consumer<D> abandon,
                                String fallback) {
        try {
            byte[] bytes = e.read.await();          // parks until an I/O thread has the bytes
            m.arrived(e, bytes.length);
            Jobs.checkCancelled();
            return m.lane.call(() -> {
                m.io.faults().burnCpu(e.id);
                D d = m.codecs.decode(e.id, file, bytes, type);
                adopt.accept(d);
                return d;
            }, abandon);
        } catch (CancellationException c) {
            throw c;
        } catch (Exception x) {
            e.failure = LoadFailure.of(e.id.toString(), file, x, fallback);
            return null;
        }
    }

    LoadedTexture loadTexture(AssetEntry e) {
        if (e.id.isPlaceholder()) {
            return placeholderTexture(e, null);
        }
        String file = m.displayName(e.id);
        TextureData data = readAndDecode(e, file, TextureData.class, m.liveTextureData::add, m::freeTextureData,
                "using the placeholder texture");
        if (data == null) {
            return placeholderTexture(e, e.failure);
        }
        e.decodedNanos = System.nanoTime();
        if (m.uploader == null) {
            return new LoadedTexture(e.id, data, null, null);
        }
        Object gpu;
        try {
            gpu = m.upload(e, u -> u.uploadTexture(TextureSource.of(data.width(), data.height(), data.rgba())), data);
        } catch (JobFailedException x) {
            return placeholderTexture(e, LoadFailure.of(e.id.toString(), file, x.getCause(),
                    "upload failed; using the placeholder texture"));
        }
        e.uploadedNanos = System.nanoTime();
        return new LoadedTexture(e.id, data, null, gpu);
    }

    private LoadedTexture placeholderTexture(AssetEntry e, LoadFailure failure) {
        TextureSource px = Placeholders.checkerTexture();
        return new LoadedTexture(e.id, null, px, placeholderUpload(e, failure, u -> u.uploadTexture(px)));
    }

    /** Records {@code failure} and uploads the placeholder with {@code make} if the manager uploads; the handle or null. */
    private Object placeholderUpload(AssetEntry e, LoadFailure failure, Function<GpuUploader, Object> make) {
        e.failure = failure;
        e.decodedNanos = System.nanoTime();
        if (m.uploader == null) {
            return null;
        }
        Object gpu = m.upload(e, make, null);
        e.uploadedNanos = System.nanoTime();
        return gpu;
    }

    LoadedMesh loadMesh(AssetEntry e) {
        if (e.id.isPlaceholder()) {
            return placeholderMesh(e, null);
        }
        String file = m.displayName(e.id);
        MeshData data = readAndDecode(e, file, MeshData.class, d -> { }, d -> { }, "using the placeholder cube");
        if (data == null) {
            return placeholderMesh(e, e.failure);
        }
        e.decodedNanos = System.nanoTime();
        MeshSource source = MeshSource.of(data.vertices(), data.indices());
        Object gpu = null;
        if (m.uploader != null) {
            try {
                gpu = m.upload(e, u -> u.uploadMesh(source), null);
            } catch (JobFailedException x) {
                return placeholderMesh(e, LoadFailure.of(e.id.toString(), file, x.getCause(),
                        "upload failed; using the placeholder cube"));
            }
            e.uploadedNanos = System.nanoTime();
        }
        return new LoadedMesh(e.id, data, source, data.bounds(), gpu);
    }

    private LoadedMesh placeholderMesh(AssetEntry e, LoadFailure failure) {
        MeshSource cube = Placeholders.unitCube();
        return new LoadedMesh(e.id, null, cube, Placeholders.unitCubeBounds(), placeholderUpload(e, failure, u -> u.uploadMesh(cube)));
    }

    /** A dependent job: waits for its mesh (parked), then builds the BVH in the decode lane. */
    LoadedCollision loadCollision(AssetEntry e) {
        AssetRef<LoadedMesh> meshRef = m.request(e.id.sourceMesh(), LoadedMesh.class);
        try {
            LoadedMesh mesh = meshRef.join();
            e.inputNanos = System.nanoTime();
            CollisionMesh bvh;
            try {
                bvh = m.lane.call(() -> {
                    m.io.faults().burnCpu(e.id);
                    return mesh.data().map(CollisionMesh::build).orElseGet(() -> Placeholders.collisionOf(mesh.source()));
                }, c -> { });
            } catch (CancellationException c) {
                throw c;
            } catch (Exception x) {
                e.failure = LoadFailure.of(e.id.toString(), m.displayName(e.id.sourceMesh()), x,
                        "collision built from the placeholder cube");
                bvh = Placeholders.collisionOf(Placeholders.unitCube());
                e.decodedNanos = System.nanoTime();
                return new LoadedCollision(e.id, bvh, true);
            }
            e.decodedNanos = System.nanoTime();
            return new LoadedCollision(e.id, bvh, mesh.isPlaceholder());
        } finally {
            meshRef.release();                      // the BVH no longer needs the mesh
        }
    }
}
