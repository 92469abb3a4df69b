package dev.weft.assets;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One holder's claim on an asset of an {@link AssetManager}: the asset stays loaded while any claim on
 * it is unreleased. Requesting the same asset again gives another claim on the same load.
 *
 * <pre>{@code
 * try (AssetRef<LoadedTexture> grass = assets.texture("demo/textures/grass_2048.png")) {
 *     LoadedTexture t = grass.join();      // in a job: parks until loaded (a placeholder if it failed)
 *     grass.failure().ifPresent(f -> log(f.message()));
 *     ...
 * }                                        // release: the last one frees pixels and GPU objects
 * }</pre>
 *
 * <p>Threading: every method may be called from any thread. {@link #join()} parks a fiber, blocks a
 * plain thread, and on the main thread keeps running main-thread jobs (uploads) while it waits. The main
 * thread is the one bound with {@code JobSystem.bindMainThread()} (or by its first {@code runMainThreadJobs});
 * with an uploader and no thread bound, nothing ever uploads, so a wait on a plain thread never ends.
 *
 * @param <T> {@link LoadedTexture}, {@link LoadedMesh} or {@link LoadedCollision}
 */
public final class AssetRef<T extends LoadedAsset> implements AutoCloseable {
    private final AssetManager manager;
    final AssetEntry entry;
    private final Class<T> type;
    private final AtomicBoolean released = new AtomicBoolean();

    AssetRef(AssetManager manager, AssetEntry entry, Class<T> type) {
        this.manager = manager;
        this.entry = entry;
        this.type = type;
    }

    /**
     * The asset this reference claims.
     *
     * @return the asset's id
     */
    public AssetId id() {
        return entry.id;
    }

    /**
     * Waits until the asset is loaded and returns it; a placeholder if loading failed (see {@link #failure()}).
     *
     * @return the loaded asset, or its placeholder
     * @throws CancellationException if the load was cancelled (the manager was closed) or the waiting job was
     * @throws IllegalStateException if this claim was released
     */
    public T join() {
        requireHeld();
        entry.done.await();
        return result();
    }

    /**
     * Waits at most {@code timeout}; true if the asset has finished loading.
     *
     * @param timeout how long to wait at most
     * @return true if loading has ended, false on timeout
     * @throws IllegalStateException if this claim was released
     */
    public boolean await(Duration timeout) {
        requireHeld();
        return entry.done.await(timeout);
    }

    /**
     * True once loading has ended: loaded, placeholder, or cancelled.
     *
     * @return true once loading has ended
     */
    public boolean isDone() {
        return entry.done.isDone();
    }

    /**
     * The asset if it has finished loading; never waits.
     *
     * @return the asset (or its placeholder) once loading has ended; empty before, or if the load was
     *         cancelled
     * @throws IllegalStateException if this claim was released (its GPU objects may be freed already), as
     *         {@link #join()}
     */
    public Optional<T> getNow() {
        requireHeld();
        if (!isDone()) {
            return Optional.empty();
        }
        LoadedAsset r = entry.result;
        return r == null ? Optional.empty() : Optional.of(type.cast(r));
    }

    /**
     * Why the asset is a placeholder, once it has finished loading.
     *
     * @return the failure, or empty if there was none (or loading has not ended)
     */
    public Optional<LoadFailure> failure() {
        return Optional.ofNullable(entry.failure);
    }

    /**
     * Where its load time went so far.
     *
     * @return the asset's timeline
     */
    public AssetTimeline timeline() {
        return entry.timeline();
    }

    /** Releases this claim (once; later calls do nothing). The last claim's release unloads the asset. */
    public void release() {
        if (released.compareAndSet(false, true)) {
            manager.release(entry);
        }
    }

    @Override
    public void close() {
        release();
    }

    /**
     * True once {@link #release()} (or {@link #close()}) was called on this reference.
     *
     * @return true if this claim was released
     */
    public boolean isReleased() {
        return released.get();
    }

    void watch(AssetEntry.Watcher w) {
        entry.watch(w);
    }

    private T result() {
        LoadedAsset r = entry.result;
        if (r == null) {
            throw new CancellationException(entry.id + " was cancelled before it finished loading");
        }
        return type.cast(r);
    }

    private void requireHeld() {
        if (released.get()) {
            throw new IllegalStateException(entry.id + ": this reference was released");
        }
    }

    @Override
    public String toString() {
        return "AssetRef[" + entry.id + (isDone() ? ", done" : ", loading") + (released.get() ? ", released]" : "]");
    }
}
