package dev.weft;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The job system's fibers: the idle pool a worker takes one from to start a job, the bound of
 * {@link FiberPoolPolicy}, every fiber not ended (for the watchdog, group cancels and shutdownNow), and
 * the count of fibers parked in a {@link Counter} wait.
 *
 * <p>A fiber runs job after job inline, so a job that never waits costs no thread creation and no park.
 * When a job waits, its fiber parks and the worker's carrier loop mounts a ready fiber or takes an idle
 * one to go on with new jobs.
 *
 * <p>Idle fibers (SYNCHRONIZATION.md §3, "Idle fibers"): the carrier a fiber parked idle on pools it,
 * after the unmount ({@link #pool}), first in its worker's {@link Worker#spareFiber} (one slot, no atomic
 * to fill), else in {@link #sharedIdle} (MPMC). A worker starting a job takes its own spare first, then
 * from the shared queue, then makes a new fiber if the policy allows, and only then takes another
 * worker's spare: so a wait that parks and resumes on one worker touches no line another worker writes,
 * and a bounded pool is dry only when no fiber is idle anywhere. Every taker claims the fiber's idle
 * period ({@link Fiber#claimIdle}) and drops an entry it cannot claim: a fiber pooled twice (run by a
 * stray unpark while pooled, see {@link Fiber#claimIdle}) is handed out once.
 */
final class FiberPool {
    private final IdleFibers sharedIdle = new IdleFibers();
    private final Set<Fiber> allFibers = ConcurrentHashMap.newKeySet();
    private final AtomicInteger fiberCount = new AtomicInteger();
    private final AtomicLong fiberIds = new AtomicLong();
    // Idle fibers made runnable by something other than a taker's claim (a stray unpark, see
    // Fiber.claimIdle): harmless, but each costs a mount, and Weft's own wake-ups should cause none.
    final AtomicLong strayIdleWakes = new AtomicLong();
    // Mounts dropped because the fiber was already mounted elsewhere: a wake the JDK handed us twice
    // (Thread.getStackTrace on a fiber waiting in a ready queue). Worker.claimAfterItsCarrier.
    final AtomicLong duplicateWakes = new AtomicLong();
    // Fibers that ended instead of idling, the shared pool being full (idleOrEnd).
    final AtomicLong fibersTrimmed = new AtomicLong();
    private final Scheduler scheduler;
    private final FiberPoolPolicy policy;

    FiberPool(Scheduler scheduler, FiberPoolPolicy policy) {
        this.scheduler = scheduler;
        this.policy = policy;
    }

    /**
     * Carrier of {@code w} only, after fiber {@code f} parked idle and unmounted ({@link Worker#mount}): from
     * now on any worker may take it. The slot's release store (or the queue's CAS) publishes the unmount.
     */
    void pool(Worker w, Fiber f) {
        if (!w.spareFiber.offer(f)) {
            sharedIdle.offer(f);
        }
    }

    /** Carrier of {@code w}: an idle fiber from its spare slot or the shared queue, claimed; null if none. */
    private Fiber takeIdle(Worker w) {
        Fiber f;
        do {
            f = w.spareFiber.take();
            if (f == null) {
                f = sharedIdle.poll();
            }
        } while (f != null && !f.claimIdle());      // a stale second entry: dropped
        return f;
    }

    /** Carrier of {@code w}, when it may make no new fiber: another worker's spare, claimed, or null. */
    private Fiber takeOthersSpare(Worker w) {
        for (Worker other : scheduler.workers) {
            if (other != w) {
                Fiber f = other.spareFiber.take();
                if (f != null && f.claimIdle()) {
                    return f;
                }
            }
        }
        return null;
    }

    /**
     * Fiber {@code f}, mounted, about to park idle: no longer busy; marked idle (true), or, if the shared
     * idle pool already holds {@value IdleFibers#CAPACITY} fibers, it ends instead (false: leave the fiber
     * loop, and the virtual thread terminates). One call in {@link Fiber}'s idle path, whose size decides
     * the fiber loop's inlining. Idle fibers were kept forever: after a burst of 100,000 parked jobs all
     * 100,000 stayed (150-200 MB), and everything that walks {@link #allFibers} (the watchdog every few
     * milliseconds, a group's cancel, stats) paid for each: a watchdog at 20 ms took 70% of a core on an idle
     * system. An ending fiber counts itself not busy as an idling one does ({@link Scheduler#fiberIdle}), then
     * leaves the set and frees its place under a bounded policy. The pool refills as the next burst needs.
     */
    boolean idleOrEnd(Fiber f) {
        // Only a fiber bound for the shared queue looks at it: one whose worker's spare slot is free goes
        // there (the common case: one idle fiber per worker), and reads no line another worker writes.
        Worker w = f.worker();
        boolean end = w.spareFiber.isOccupied() && sharedIdle.looksFull();
        if (!end) {
            f.idle = true;                    // before the busy count goes down, as the idle park always did
        }
        scheduler.fiberIdle(w);
        if (end) {
            allFibers.remove(f);
            fiberCount.decrementAndGet();
            fibersTrimmed.incrementAndGet();
        }
        return !end;
    }

    /** Any thread: whether some fiber was idle at the moment of reading (a dry worker's hint to retry). */
    boolean anyIdle() {
        if (!sharedIdle.isEmpty()) {
            return true;
        }
        for (Worker w : scheduler.workers) {
            if (w.spareFiber.isOccupied()) {
                return true;
            }
        }
        return false;
    }

    /** For tests: entries in the spare slots and the shared queue (a fiber pooled twice counts twice). */
    int idleEntries() {
        int n = sharedIdle.size();
        for (Worker w : scheduler.workers) {
            n += w.spareFiber.isOccupied() ? 1 : 0;
        }
        return n;
    }

    /** Carrier side: start {@code job} on a pooled (or new) fiber, which becomes {@code w.next}. */
    void startOnFiber(Worker w, JobNode job) {
        Fiber f = takeIdle(w);
        if (f == null) {
            f = newFiber(w);
            if (f == null) {
                f = takeOthersSpare(w);
                if (f == null) {
                    onPoolDry(w, job);
                    return;
                }
            }
        }
        w.exhaustedSinceNanos = 0;
        scheduler.fiberStarted(w);         // before the fiber can run: see WorkerParking.decide
        f.firstJob = job;                  // published to the fiber by resumeOn's unpark (or start)
        try {
            f.resumeOn(w);
        } catch (Throwable noRoom) {
            resumeThrew(w, f);
            throw noRoom;                  // the carrier loop fails the job (HeapExhaustion.startFailed)
        }
        if (w.next != f && w.capHeld != 0) {
            // A guard: pooled fibers have unmounted (Worker.mount), so the fiber lands in our next slot.
            // Were it to run elsewhere, its carrier takes the slot there (Fiber.runTopLevel).
            scheduler.caps.releaseAll(w, w.capHeld);
        }
    }

    private Fiber newFiber(Worker w) {
        int max = policy.maxFibers();
        for (;;) {
            int c = fiberCount.get();
            if (c >= max) {
                return null;
            }
            if (fiberCount.compareAndSet(c, c + 1)) {
                break;
            }
        }
        Fiber f;
        try {
            f = new Fiber(scheduler, scheduler.name() + "-fiber-" + fiberIds.incrementAndGet());
            allFibers.add(f);
        } catch (Throwable noRoom) {
            // The heap exhausted (HeapExhaustion): no fiber after all, and its place under the bound is
            // free again. The carrier loop fails the job in hand with this error.
            fiberCount.decrementAndGet();
            throw noRoom;
        }
        w.count(Worker.FIBERS_CREATED);
        return f;
    }

    /**
     * Starting a new fiber's thread threw (the heap exhausted: the JDK allocates to start a virtual thread;
     * waking an idle fiber allocates nothing). The job goes back to the caller, which fails it; the fiber is
     * busy no more, and one whose thread will never run is forgotten, so that close() does not wait for it.
     */
    private void resumeThrew(Worker w, Fiber f) {
        f.firstJob = null;
        scheduler.fiberIdle(w);
        if (f.thread.getState() == Thread.State.TERMINATED || f.thread.getState() == Thread.State.NEW) {
            allFibers.remove(f);
            fiberCount.decrementAndGet();
        }
    }

    private void onPoolDry(Worker w, JobNode job) {
        scheduler.caps.releaseAll(w, w.capHeld);   // the job in hand goes back (or fails): its slot too
        long now = System.nanoTime();
        if (w.exhaustedSinceNanos == 0) {
            w.exhaustedSinceNanos = now;
        }
        if (now - w.exhaustedSinceNanos >= Timeouts.saturatedNanos(policy.exhaustionTimeout())) {
            if (job.tryStart()) {
                job.finishRun(scheduler, new FiberPoolExhaustedException("job '" + job.name() + "' could not "
                        + "start: all " + policy.maxFibers() + " fibers of job system '" + scheduler.name()
                        + "' have been parked in waits (counters, joins, blocking calls) for "
                        + Timeouts.saturatedMillis(policy.exhaustionTimeout()) + " ms with no fiber free for it."
                        + " If they wait on jobs that need a fiber to start, that is a deadlock by exhaustion;"
                        + " if they wait on I/O or other slow work, the bound is too low for this load. Raise"
                        + " FiberPoolPolicy.bounded(n), lengthen its exhaustion timeout, or use"
                        + " FiberPoolPolicy.growable()."));
            }
            return;
        }
        if (w.jobs[job.priority].push(job)) {
            scheduler.signalWork(job.priority);
        }
    }

    /**
     * At worker exit: end this worker's spare and every fiber in the shared queue (each runs to its end on
     * this carrier). Every worker does this as it exits, so the last one leaves no idle fiber behind: only
     * a worker fills its own slot, and it has stopped doing so.
     */
    void retireIdleFibers(Worker w) {
        Fiber f;
        while ((f = w.spareFiber.take()) != null || (f = sharedIdle.poll()) != null) {
            if (!f.claimIdle()) {
                continue;                      // a stale second entry: the fiber is retired through the other
            }
            f.retire = true;
            f.resumeOn(w);
            Object item = w.next;
            w.next = null;
            if (item instanceof Fiber ready) {
                while (!ready.claimMount(w)) {
                    Thread.onSpinWait();       // a duplicate wake's no-op mount elsewhere: brief
                }
                w.mounted = ready;
                try {
                    ready.continuation().run();
                } finally {
                    w.mounted = null;
                    ready.releaseMount();
                }
            }
        }
    }

    // ------------------------------------------------------------------ fibers in waits

    // Fibers inside a Counter wait: the sum over workers of WAITS minus WAITS_ENDED, each counted by the
    // worker the fiber is on (a wait may end elsewhere). Per-worker plain counts, no shared XADD on the
    // wait path; a snapshot taken while waits begin and end can be off by those in flight.
    void fiberParking(Fiber f) {
        Worker w = Worker.current(scheduler);
        if (w != null) {
            w.count(Worker.WAITS);
        }
        if (scheduler.isStopping()) {
            f.cancelWait();
        }
    }

    void fiberResumed(Fiber f) {
        Worker w = Worker.current(scheduler);
        if (w != null) {
            w.count(Worker.WAITS_ENDED);
        }
    }

    void cancelWaitsOf(JobGroup g) {
        for (Fiber f : allFibers) {
            WaitNode n = f.waitNode;
            JobNode waiting = n != null ? n.job : null;   // read once: the waiter clears it when done
            if (waiting != null && waiting.group == g) {
                n.cancel();                    // the waiting job's own group decides, as for handles
            }
        }
        scheduler.wakeJobsWaitingOnThreads();
    }

    /**
     * shutdownNow: every parked wait throws JobCancelledException (runState was written first), and every
     * running job is interrupted (a JDK call it blocks in throws InterruptedException).
     */
    void cancelAllWaits() {
        for (Fiber f : allFibers) {
            f.cancelWait();
            f.interruptJob();
        }
        scheduler.wakeJobsWaitingOnThreads();
    }

    /** For tests and the watchdog: every fiber made and not trimmed (live, idle, or retired at termination). */
    Set<Fiber> all() {
        return allFibers;
    }

    /** Fibers ever made (fiberCount counts those not ended, for the policy's bound). */
    long created() {
        return fiberIds.get();
    }

    long alive() {
        return allFibers.stream().filter(f -> f.thread.isAlive()).count();
    }

    int parked() {
        long parked = 0;
        for (Worker w : scheduler.workers) {
            parked += w.stat(Worker.WAITS) - w.stat(Worker.WAITS_ENDED);
        }
        return (int) Math.max(0, parked);
    }

    @Override
    public String toString() {
        return "FiberPool[fibers=" + fiberCount + ", created=" + fiberIds + ", parked=" + parked() + "]";
    }
}
