package dev.weft.assets;

import dev.weft.Counter;
import dev.weft.JobGroup;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One asset's shared state in an {@link AssetManager}: reference count, load-job stamps, result, and the
 * GPU handle (main thread only); see the design note in {@code AssetManager}'s class comment.
 */
final class AssetEntry {
    /** Gets told about one entry's progress; called under the entry's lock, so one call at a time. */
    interface Watcher {
        void bytesRead(long bytes);

        void finished(AssetEntry e);
    }

    private static final int DEAD = -1;

    final AssetId id;
    final JobGroup group;                              // this asset's jobs; cancelled when it dies
    final Counter done = new Counter();                // 1 (+1 while the job runs) until the job ended
    final AtomicBoolean started = new AtomicBoolean(); // CAS: one load job
    final AtomicBoolean cleaned = new AtomicBoolean(); // CAS: one cleanup
    final AtomicBoolean progressCounted = new AtomicBoolean(); // CAS: the manager's progress counts it done once
    private final AtomicInteger refs = new AtomicInteger();   // unreleased AssetRefs; DEAD once gone
    final long queuedNanos = System.nanoTime();
    volatile long startedNanos;                        // timeline stamps: written by the load job
    volatile long inputNanos;
    volatile long decodedNanos;
    volatile long uploadedNanos;
    volatile long endedNanos;
    volatile long bytes;
    IoPool.Pending<byte[]> read;                       // requested by start() before the job is submitted
    volatile LoadedAsset result;                       // written by the load job before it ends
    volatile LoadFailure failure;                      // likewise
    volatile boolean cancelled;
    volatile boolean loadEnded;                        // load job wrote its last field; see AssetLoads.cleanUpIfDeadAndEnded
    volatile boolean dead;                             // last reference released
    // A derived asset's claim on its source while its load job waits for the source: the job sets it, then
    // reads dead; the entry's death (AssetLoads.died) wrote dead, then takes it (getAndSet) and releases it, so
    // an unshared source dies at once (one of the two sees the other; AssetRef.release is once). Once its join
    // returns, the job takes it back (CAS) before it touches the source: if death took it first, the source may
    // be freed (a texture's native pixels), and the job ends cancelled instead of building from it.
    final AtomicReference<AssetRef<?>> sourceClaim = new AtomicReference<>();
    Object gpu;                                        // main thread only: the GpuUploader's handle
    volatile AutoCloseable nativeMemory;               // the decoded data's native memory, set in the decode lane
    private final List<Watcher> watchers = new ArrayList<>();   // guarded by this
    private long bytesArrived = -1;                    // guarded by this; -1 until the read completed
    private boolean finished;                          // guarded by this

    AssetEntry(AssetId id, JobGroup group) {
        this.id = id;
        this.group = group;
        done.add(1);
    }

    boolean retain() {
        for (;;) {
            int r = refs.get();
            if (r < 0) {
                return false;
            }
            if (refs.compareAndSet(r, r + 1)) {
                return true;
            }
        }
    }

    /** Drops one reference; true if it was the last and the entry is now dead. */
    boolean release() {
        for (;;) {
            int r = refs.get();
            if (r <= 0) {
                return false;                    // already dead (closed): nothing to do
            }
            if (refs.compareAndSet(r, r - 1)) {
                return r == 1 && refs.compareAndSet(0, DEAD);
            }
        }
    }

    /** Makes the entry dead whatever its count (manager close); true if this call did. */
    boolean kill() {
        return refs.getAndSet(DEAD) != DEAD;
    }

    AssetTimeline timeline() {
        return new AssetTimeline(id, bytes, queuedNanos, startedNanos, inputNanos, decodedNanos, uploadedNanos,
                endedNanos);
    }

    synchronized void watch(Watcher w) {
        if (bytesArrived >= 0) {
            w.bytesRead(bytesArrived);
        }
        if (finished) {
            w.finished(this);                    // told everything already: nothing left to keep it for
            return;
        }
        watchers.add(w);
    }

    synchronized void bytesArrived(long n) {
        bytes = n;
        bytesArrived = n;
        for (Watcher w : watchers) {
            w.bytesRead(n);
        }
    }

    void endLoad() {
        synchronized (this) {
            finished = true;
            for (Watcher w : watchers) {
                w.finished(this);
            }
            // finished is the last call a watcher gets. A level's watcher holds its whole LevelLoad, and an
            // entry a game keeps loaded outlives any number of level loads: kept, they piled up for good.
            watchers.clear();
        }
        loadEnded = true;                        // volatile write, then read dead in AssetLoads.cleanUpIfDeadAndEnded
    }

    /** Watchers registered and not yet told the end (tests). */
    synchronized int watcherCount() {
        return watchers.size();
    }

    @Override
    public String toString() {
        return "AssetEntry[" + id + ", refs=" + refs.get() + (loadEnded ? ", ended" : "") + (dead ? ", dead]" : "]");
    }
}
