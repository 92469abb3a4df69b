package dev.weft.assets;

import dev.weft.Counter;
import dev.weft.JobGroup;
import dev.weft.Priority;
import java.util.concurrent.CancellationException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link AssetManager}'s load jobs: starts each asset's one load job, runs it to a result or a
 * placeholder, cleans up after a dead asset, and counts the loads (started, running now, ended) and
 * their progress. The manager decides which entries live ({@code AssetManager.request}, {@code release},
 * {@code close}); this class does what each entry's load needs from its start to its cleanup.
 *
 * <h2>Order</h2>
 * A file's read is requested when its load starts, in {@link #start}, not when its job first runs:
 * {@link IoPool#read} stamps it with its due time there, and the job's {@code await} (a
 * {@code Jobs.blocking} call, first thing in the job) queues it at that time, so the I/O threads serve
 * reads in request order whatever order the workers pick the jobs in (a worker pops its own newest
 * job first). The level loader requests its largest files first, so the longest read-decode chains
 * start first.
 *
 * <h2>Completion</h2>
 * {@code AssetEntry.done} starts at 1 and the load job is submitted with it as its counter (2), then the
 * starter decrements once; it reaches 0 only when the job has ended, however it ended (a job cancelled
 * before it started still decrements its counter). The job writes {@code result} and {@code failure}
 * before it ends, so {@link AssetRef#join} sees them.
 *
 * <h2>Counted once</h2>
 * Every started load counts one asset in {@link #progress()} and ends counted once
 * ({@code AssetEntry.progressCounted} CAS): by its job's end, by a start that failed, or, for a dead
 * asset whose job never runs, by a housekeeping job that runs when the entry's counter drops (at once if the
 * job system refuses that job: then no job runs any more).
 */
final class AssetLoads {
    private final AssetManager manager;
    private final LoadSteps steps;
    private final JobGroup housekeeping;           // never cancelled
    private final LoadProgress progress = new LoadProgress();   // every load of the manager
    private final AtomicLong started = new AtomicLong();
    // Load jobs running now, released assets' included: what close() waits for besides the live entries.
    // Counted from the job's first line, so a job still queued when close() cancels its group is not
    // counted; it then stops at its first cancellation check, before any decode.
    private final Counter running = new Counter("asset loads running");
    private final Counter dropsBeingCounted = new Counter("dropped asset loads being counted");   // countIfDropped

    AssetLoads(AssetManager manager, JobGroup housekeeping) {
        this.manager = manager;
        this.steps = new LoadSteps(manager);
        this.housekeeping = housekeeping;
    }

    /** Starts {@code e}'s load job unless a request started it already ({@code started} CAS: one job per entry). */
    void start(AssetEntry e) {
        if (!e.started.compareAndSet(false, true)) {
            return;
        }
        started.incrementAndGet();
        progress.addTotals(0, 1);
        try {
            if (!e.id.kind().isDerived() && !e.id.isPlaceholder()) {
                e.read = manager.io.read(e.id.path());   // at once, in request order: see "Order" above
            }
            e.group.run(Priority.BACKGROUND, "load " + e.id, () -> run(e), e.done);
        } catch (RuntimeException x) {              // refused (closing), or a source that threw: counted as done
            e.cancelled = true;
            e.endLoad();
            countDone(e);
            throw x;
        } finally {
            e.done.decrement();
        }
    }

    /** The load job. */
    private void run(AssetEntry e) {
        running.add(1);
        e.startedNanos = System.nanoTime();
        try {
            e.result = steps.load(e);
        } catch (CancellationException c) {
            e.cancelled = true;                     // unloaded (or closed) mid-load: no result
        } catch (RuntimeException | Error t) {      // a bug or an upload of a placeholder failing: still finish
            LoadFailure first = e.failure;          // why it became a placeholder: keep it, it names file and line
            LoadFailure now = LoadFailure.of(e.id.toString(), manager.displayName(e.id), t, "using a placeholder");
            e.failure = first == null ? now : new LoadFailure(first.asset(), first.file(), first.line(),
                    first.message() + "; then the placeholder's upload failed too: " + now.message(), first.cause());
            e.result = steps.placeholderWithoutUpload(e.id);
        } finally {
            e.endedNanos = System.nanoTime();
            e.endLoad();                            // notifies watchers
            countDone(e);
            cleanUpIfDeadAndEnded(e);
            running.decrement();                    // last: its memory is freed or handed over by now
        }
    }

    /** The load job's file arrived: {@code bytes} long. */
    void arrived(AssetEntry e, long bytes) {
        e.inputNanos = System.nanoTime();
        e.bytesArrived(bytes);
        progress.addDone(bytes, 0);
    }

    /**
     * {@code e} died (its last reference went, or close() killed it) after its releaser set {@code dead} and
     * cancelled its group: releases a derived asset's claim on its source, cleans up if its load has ended,
     * and has its progress counted if its job never runs.
     */
    void died(AssetEntry e) {
        AssetRef<?> source = e.sourceClaim.getAndSet(null);   // after dead was written: see AssetEntry.sourceClaim
        if (source != null) {
            source.release();                       // its load may wait for it inline, beyond our group's cancel
        }
        cleanUpIfDeadAndEnded(e);
        countIfDropped(e);
    }

    /**
     * {@code dead} and {@code loadEnded} are each written (volatile) and then the other read, by the releaser
     * and the load job respectively, so at least one of them sees both; the {@code cleaned} CAS makes it once.
     */
    private void cleanUpIfDeadAndEnded(AssetEntry e) {
        if (!e.dead || !e.loadEnded || !e.cleaned.compareAndSet(false, true)) {
            return;
        }
        manager.transfers.cleanUp(e);
    }

    /** A dead asset's unstarted load job never runs: count it done once its counter drops (ran or dropped). */
    private void countIfDropped(AssetEntry e) {
        if (e.progressCounted.get()) {
            return;                                 // its load ended and counted itself (the common case)
        }
        try {
            housekeeping.after(e.done).run(Priority.BACKGROUND, "count " + e.id, () -> countDone(e), dropsBeingCounted);
        } catch (RejectedExecutionException stopped) {
            countDone(e);                           // no job runs any more, this one's included
        }
    }

    private void countDone(AssetEntry e) {
        if (e.progressCounted.compareAndSet(false, true)) {
            progress.addDone(0, 1);
        }
    }

    /** Waits until no load job runs and every dropped load is counted, or until {@code deadlineNanos}. */
    void awaitEnded(long deadlineNanos) {
        AssetManager.awaitEnded(running, deadlineNanos);
        AssetManager.awaitEnded(dropsBeingCounted, deadlineNanos);
    }

    LoadProgress.Snapshot progress() {
        return progress.snapshot();
    }

    long started() {
        return started.get();
    }

    /** Load jobs running now, those of released assets too. */
    long running() {
        return running.value();
    }
}
