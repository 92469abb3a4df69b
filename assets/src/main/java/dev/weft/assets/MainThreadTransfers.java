package dev.weft.assets;

import dev.weft.Counter;
import dev.weft.JobGroup;
import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.Priority;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * An {@link AssetManager}'s traffic with the main thread: decoded native memory (who frees it, once),
 * uploads (main-thread jobs its load jobs park on) and GPU frees (main-thread jobs queued at cleanup).
 * The protocols are in {@link AssetManager}'s class comment, "Native memory" and "GPU objects".
 */
final class MainThreadTransfers {
    private static final int UPLOAD_PENDING = 0, UPLOAD_TAKEN = 1, UPLOAD_ABANDONED = 2;

    private final JobSystem jobs;
    private final GpuUploader uploader;               // null: no uploads
    private final JobGroup housekeeping;              // never cancelled: queues the GPU frees
    final Set<AutoCloseable> liveNativeMemory = ConcurrentHashMap.newKeySet();  // decoded, not yet closed
    final AtomicLong nativeMemoryFreed = new AtomicLong();
    // GPU frees the job system refused (it was closed first): close() says so instead of leaking quietly.
    final AtomicInteger gpuFreesRefused = new AtomicInteger();
    // The housekeeping jobs that queue GPU frees, until each has queued its free: close() waits for them, so
    // that every free is in the main thread's queue when it returns. It did not, and 1-40 GPU objects of a
    // round stayed live after close(), and were never freed when jobs.close() followed (a soak of a game
    // going back to its menu: 7 of 900 rounds).
    final Counter freesBeingQueued = new Counter("GPU frees being queued");

    MainThreadTransfers(JobSystem jobs, GpuUploader uploader, JobGroup housekeeping) {
        this.jobs = jobs;
        this.uploader = uploader;
        this.housekeeping = housekeeping;
    }

    /**
     * Uploads on the main thread with {@code make} (one call of the uploader) and parks until it ran. The
     * main-thread job belongs to the asset's group, so an asset unloaded meanwhile never uploads.
     * {@code memory}, if given, is freed exactly once and never while the main thread reads it: the upload
     * job and this method race on one CAS for it; the job frees it after uploading, or this method frees it
     * if the wait ends first (cancelled) and the job never took it.
     */
    Object upload(AssetEntry e, Function<GpuUploader, Object> make, AutoCloseable memory) {
        AtomicInteger handoff = new AtomicInteger(UPLOAD_PENDING);
        JobHandle<Object> h;
        try {
            h = jobs.onMainThread("upload " + e.id, () -> {
                if (!handoff.compareAndSet(UPLOAD_PENDING, UPLOAD_TAKEN)) {
                    return null;                    // the loader gave up waiting and freed the data
                }
                try {
                    if (e.dead) {
                        return null;                // unloaded while queued: nothing to make
                    }
                    Object gpu = make.apply(uploader);
                    e.gpu = gpu;                    // main thread only; the free job takes it
                    return gpu;
                } finally {
                    freeNativeMemory(memory);
                }
            });
        } catch (RuntimeException x) {
            freeNativeMemory(memory);
            throw x;
        }
        try {
            return h.join();
        } catch (CancellationException c) {
            if (handoff.compareAndSet(UPLOAD_PENDING, UPLOAD_ABANDONED)) {
                freeNativeMemory(memory);              // the upload never started and now never will touch it
            } else if (memory != null && e.nativeMemory == memory) {
                // The upload job took it and may be reading it on the main thread right now: it frees it
                // after the read (its finally). The load's cleanup, which runs as soon as we return, must
                // not: freeing it here crashed the JVM inside the uploader. Written before endLoad (volatile).
                e.nativeMemory = null;
            }
            throw c;
        }
    }

    /** Frees {@code memory} if it is still live: whoever removes it from the set closes it, once. */
    void freeNativeMemory(AutoCloseable memory) {
        if (memory != null && liveNativeMemory.remove(memory)) {
            try {
                memory.close();
            } catch (Exception x) {
                throw new IllegalStateException("freeing " + memory + " failed", x);
            }
            nativeMemoryFreed.incrementAndGet();
        }
    }

    /** Cleanup of a dead asset whose load ended: its native memory now, its GPU object on the main thread. */
    void cleanUp(AssetEntry e) {
        freeNativeMemory(e.nativeMemory);
        if (uploader == null) {
            return;
        }
        // Queued from a job of the never-cancelled housekeeping group: a main-thread job joins its
        // submitter's group, and ours (the asset's, or a level's) is usually cancelled by now.
        try {
            housekeeping.run(Priority.NORMAL, "queue free " + e.id, () -> queueFree(e), freesBeingQueued);
        } catch (RejectedExecutionException x) {
            countRefused(e);
        }
    }

    private void queueFree(AssetEntry e) {
        try {
            jobs.onMainThread("free " + e.id, () -> {
                Object gpu = e.gpu;
                e.gpu = null;
                if (gpu != null) {
                    try {
                        uploader.free(gpu);
                    } catch (RuntimeException | Error x) {
                        reportFailedFree(e, x);
                    }
                }
                return null;
            });
        } catch (RejectedExecutionException x) {
            countRefused(e);                     // the job system stopped between the two submissions
        }
    }

    /**
     * Nobody joins a free's handle, so a failure left in it reached no one (a renderer that lost its context
     * leaked silently). Rethrown from a job with neither counter nor handle, it goes to the job system's
     * onUncaughtFailure handler (default: stderr), where the game sees its other unwatched failures.
     */
    private void reportFailedFree(AssetEntry e, Throwable x) {
        IllegalStateException failure = new IllegalStateException("GpuUploader.free failed for " + e.id
                + "; its GPU object may be leaked: " + x, x);
        try {
            housekeeping.run(Priority.NORMAL, "free " + e.id, () -> {
                throw failure;
            }, null);
        } catch (RejectedExecutionException stopped) {
            System.err.println("weft-assets: " + failure.getMessage());
        }
    }

    private void countRefused(AssetEntry e) {
        if (e.gpu != null) {                     // written on the main thread, where close() usually runs
            gpuFreesRefused.incrementAndGet();   // the job system is stopping: close() reports it
        }
    }
}
