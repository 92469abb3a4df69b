package dev.weft.assets;

import dev.weft.JobFailedException;
import dev.weft.Jobs;
import java.util.concurrent.CancellationException;

/**
 * The steps of one asset's load job, the same for every kind: a file asset awaits its bytes (parked),
 * decodes in the manager's decode lane with its {@link AssetCodec}, and uploads through the
 * {@link GpuUploader} (a main-thread job); a derived asset awaits its source and is built by its
 * {@link DerivedCodec} in the lane. Any failed step gives the codec's placeholder and a
 * {@link LoadFailure}. Runs only inside the load job of its {@link AssetManager} (a fiber), which owns all
 * state it touches.
 */
final class LoadSteps {
    private final AssetManager m;

    LoadSteps(AssetManager m) {
        this.m = m;
    }

    LoadedAsset load(AssetEntry e) {
        return e.id.kind().isDerived() ? loadDerived(e, m.codecs.derived(e.id.kind())) : loadFile(e);
    }

    /** The placeholder of {@code id}'s codec, not uploaded: what a load that failed unexpectedly ends with. */
    LoadedAsset placeholderWithoutUpload(AssetId id) {
        if (id.kind().isDerived()) {
            return m.codecs.derived(id.kind()).placeholder(id);
        }
        return placeholderAsset(m.codecs.placeholderCodec(id), id);
    }

    private static <D> LoadedAsset placeholderAsset(AssetCodec<D> codec, AssetId id) {
        return codec.asset(id, codec.placeholder(), true, null);
    }

    /**
     * Parks until an I/O thread has the bytes, then decodes them in the decode lane with the codec for the
     * asset's extension and uploads the result. On a read, format or upload error: the placeholder, with
     * the failure in {@code e.failure}. A cancellation propagates.
     */
    private LoadedAsset loadFile(AssetEntry e) {
        AssetCodec<?> fallback = m.codecs.placeholderCodec(e.id);
        if (e.id.isPlaceholder()) {
            return placeholder(e, fallback, null);
        }
        String file = m.displayName(e.id);
        byte[] bytes;
        AssetCodec<?> codec;
        try {
            bytes = e.read.await();                 // parks until an I/O thread has the bytes
            m.loads.arrived(e, bytes.length);
            Jobs.checkCancelled();
            codec = m.codecs.codecFor(e.id, file);
        } catch (CancellationException c) {
            throw c;
        } catch (Exception x) {
            return placeholder(e, fallback, LoadFailure.of(e.id.toString(), file, x, fallback.fallback()));
        }
        return decodeAndUpload(e, codec, file, bytes);
    }

    private <D> LoadedAsset decodeAndUpload(AssetEntry e, AssetCodec<D> codec, String file, byte[] bytes) {
        D data;
        try {
            data = m.lane.call(() -> {
                m.io.faults().burnCpu(e.id);
                D d = codec.decode(file, bytes);
                if (d == null) {                    // else a NullPointerException in the upload, reported as its failure
                    throw new IllegalStateException("the " + codec + " returned null; a decoder returns the decoded"
                            + " data or throws an AssetFormatException");
                }
                AutoCloseable memory = codec.nativeMemory(d);
                if (memory != null) {
                    e.nativeMemory = memory;        // freed by cleanup unless the upload frees it first
                    m.transfers.liveNativeMemory.add(memory);
                }
                return d;
            }, d -> m.transfers.freeNativeMemory(codec.nativeMemory(d)));
        } catch (CancellationException c) {
            throw c;
        } catch (Exception | Error x) {
            // An Error too (a game's recursive decoder overflowing a fiber's small stack, an assert): left to the
            // load job's last-resort catch, the placeholder was not uploaded and the game could not draw it.
            return placeholder(e, codec, LoadFailure.of(e.id.toString(), file, x, codec.fallback()));
        }
        e.decodedNanos = System.nanoTime();
        if (m.uploader == null) {
            return codec.asset(e.id, data, false, null);
        }
        Object gpu;
        try {
            gpu = m.transfers.upload(e, u -> codec.upload(u, data), codec.nativeMemory(data));
        } catch (JobFailedException x) {
            return placeholder(e, codec, LoadFailure.of(e.id.toString(), file, x.getCause(),
                    "upload failed; " + codec.fallback()));
        }
        e.uploadedNanos = System.nanoTime();
        return codec.asset(e.id, data, false, gpu);
    }

    /** Records {@code failure} and makes {@code codec}'s placeholder, uploaded if the manager uploads. */
    private <D> LoadedAsset placeholder(AssetEntry e, AssetCodec<D> codec, LoadFailure failure) {
        e.failure = failure;
        D data = codec.placeholder();
        e.decodedNanos = System.nanoTime();
        if (m.uploader == null) {
            return codec.asset(e.id, data, true, null);
        }
        Object gpu = m.transfers.upload(e, u -> codec.upload(u, data), null);
        e.uploadedNanos = System.nanoTime();
        return codec.asset(e.id, data, true, gpu);
    }

    /** A dependent job: waits for its source (parked), then builds from it in the decode lane. */
    private <S extends LoadedAsset> LoadedAsset loadDerived(AssetEntry e, DerivedCodec<S> codec) {
        AssetId sourceId = codec.sourceOf(e.id);
        AssetRef<S> sourceRef = m.request(sourceId, codec.sourceType());
        e.sourceClaim.set(sourceRef);               // volatile write, then read dead: see AssetEntry.sourceClaim
        try {
            if (e.dead) {                           // died before our write: its releaser may not have seen it
                throw unloadedWhileWaiting(e, sourceRef);
            }
            S source = joinSource(e, sourceRef);
            if (!e.sourceClaim.compareAndSet(sourceRef, null)) {
                throw unloadedWhileWaiting(e, sourceRef);   // death released the claim: the source may be freed
            }
            e.inputNanos = System.nanoTime();
            LoadFailure sourceFailure = sourceRef.failure().orElse(null);
            if (sourceFailure != null) {             // built from its source's placeholder: say why, file and line
                e.failure = new LoadFailure(e.id.toString(), sourceFailure.file(), sourceFailure.line(),
                        "built from the placeholder of " + sourceId + ": " + sourceFailure.message(),
                        sourceFailure.cause());
            }
            LoadedAsset built;
            try {
                built = m.lane.call(() -> {
                    m.io.faults().burnCpu(e.id);
                    return codec.build(e.id, source);
                }, b -> { });
            } catch (CancellationException c) {
                throw c;
            } catch (Exception x) {
                e.failure = LoadFailure.of(e.id.toString(), m.displayName(sourceId), x, codec.fallback());
                built = codec.placeholder(e.id);
            }
            e.decodedNanos = System.nanoTime();
            return built;
        } finally {
            sourceRef.release();                    // the built asset no longer needs its source (once: death may have)
        }
    }

    /**
     * Joins the source. Its load job may run inline in this join, where the cancel of this asset's group does
     * not reach its waits (its upload's, say); so a dead asset's death releases the claim itself, which lets an
     * unshared source die and its own group's cancel end that wait. Then the join sees a released claim: that
     * is this asset's cancellation.
     */
    private static <S extends LoadedAsset> S joinSource(AssetEntry e, AssetRef<S> sourceRef) {
        try {
            return sourceRef.join();
        } catch (IllegalStateException released) {
            if (e.dead && sourceRef.isReleased()) {
                throw unloadedWhileWaiting(e, sourceRef);
            }
            throw released;
        }
    }

    private static CancellationException unloadedWhileWaiting(AssetEntry e, AssetRef<?> sourceRef) {
        return new CancellationException(e.id + " was unloaded while it waited for " + sourceRef.id());
    }
}
