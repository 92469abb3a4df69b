package dev.weft;

import dev.weft.internal.FiberSupport;
import dev.weft.internal.ThreadSettings;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

/**
 * A thread that is not a worker (the game's main thread, a loader thread) and waits without a timeout in
 * {@link Counter#await()} or {@link JobHandle#join()} (a timed wait only sleeps: its timeout must hold) runs queued jobs on its own stack instead of sleeping,
 * as enkiTS's {@code WaitforTask} does and as Naughty Dog's main thread takes part in the frame
 * ({@link JobSystemBuilder#waitersHelp}). The one owner of the <i>helper seat</i>.
 *
 * <p><b>What it runs.</b> FRAME jobs: first those the wait depends on (a queued FRAME job of the awaited
 * counter, or the awaited handle itself), from the injection queue and from the top of any worker's FRAME
 * deque (a conditional steal: only if the top element is one of them), then any FRAME job. Never a ready
 * fiber (a parked job's continuation must resume on a worker's carrier), never a NORMAL or BACKGROUND job:
 * those may recurse deeper than this thread's stack allows (the workers' is 64 MiB; a deep fork/join
 * joined from the main thread overflowed its 8 MiB), block for longer than a frame, or change the thread's
 * priority (the assets' decode lane). A FRAME job is frame work: short, and what this thread waits for. Main-thread jobs keep
 * running between helped jobs: {@link Counter}'s wait loop polls the mailbox before it helps.
 *
 * <p><b>The seat.</b> One outside thread at a time helps (a CAS on {@link #holder}); others wait as before.
 * While it runs a job, that thread is worker number {@code workerCount} for {@link Jobs#workerIndex()} and
 * for {@code parallelFor}'s index argument, so per-worker buffers sized {@link JobSystem#workerSlots()}
 * stay one writer per slot, lock-free. A helped job runs on a platform thread, not a fiber: it is
 * "outside a job" for {@link Jobs#inFiber()}, {@link Jobs#checkpoint()} (nothing) and
 * {@link Jobs#blocking} (the call still goes to the blocking threads while this thread waits); a wait inside it helps again (nested, same seat),
 * but only with the jobs that wait depends on (see {@link #take}: anything else could wait for a job below it on this stack).
 * A range piece it runs splits its upper halves into the injection queue, where workers take them.
 *
 * <p><b>Termination.</b> A helped job is in flight outside the workers, like an outside submission: the
 * seat holds {@code externalSubmitters} up from before it takes a job until that job ended, so the last
 * worker's termination decision (WorkerParking.decide) re-checks instead of terminating under it, and the
 * job's own submissions are accepted while the system is closing, as they would be on a worker.
 */
final class WaitingHelp {
    private static final int FRAME = Priority.FRAME.ordinal();
    /** The seat this thread holds and is running a job in (nested waits keep it), or null. */
    private static final ThreadLocal<WaitingHelp> RUNNING_HERE = new ThreadLocal<>();

    final Scheduler scheduler;
    private final AtomicInteger externalSubmitters;
    final int workerIndex;                              // workerCount: the index after the workers'
    private final AtomicReference<Thread> holder = new AtomicReference<>();
    // The seat holder's innermost helped job: written by its thread only; volatile for the watchdog,
    // which reads it with holderThread() to report a helped job that holds the waiting thread too long.
    volatile JobNode runningJob;
    // WorkerLocal values of slot workerCount(): plain, one holder at a time; the holder CAS (acquire) and
    // its release store hand them from one holder to the next.
    final WorkerLocal.Slots workerLocals = new WorkerLocal.Slots(null);
    // The helped job's ThreadLocal map and the holder's settings, kept between helped jobs: handed between
    // holders as workerLocals are.
    private final HelpedJobLocals jobLocals = new HelpedJobLocals();

    WaitingHelp(Scheduler scheduler, AtomicInteger externalSubmitters, int workerIndex) {
        this.scheduler = scheduler;
        this.externalSubmitters = externalSubmitters;
        this.workerIndex = workerIndex;
    }

    /** The thread holding the seat now, or null (the watchdog). */
    Thread holderThread() {
        return holder.get();
    }

    /** On a helped job's fresh ThreadLocal map: this is the seat the current thread runs it in. */
    void markRunningHere() {
        RUNNING_HERE.set(this);
    }

    /** The seat the current thread is running a helped job in, or null. */
    static WaitingHelp current() {
        return RUNNING_HERE.get();
    }

    /** The seat holder's innermost helped job was cancelled, or the system is stopping (its thread only). */
    boolean cancellationRequested() {
        return JobNode.cancellationRequested(runningJob, scheduler);
    }

    /** The seat holder's job, cancelled while it waited on {@code counter} (its thread only). */
    JobCancelledException cancelledWhileWaiting(Counter counter) {
        JobNode j = runningJob;
        return new JobCancelledException("job '" + (j == null ? "?" : j.name()) + "' (run by waiting thread "
                + Thread.currentThread().getName() + ") was cancelled while waiting on " + counter);
    }

    /**
     * Canceller side, after its volatile write (a handle's or group's cancel, shutdownNow): wakes the
     * seat's holder, so that a helped job parked in a wait re-reads its cancellation. Spurious for a holder
     * that is not waiting, which every park loop tolerates.
     */
    void wakeHolder() {
        Thread t = holder.get();
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    /**
     * A main-thread job is about to run on this thread, perhaps inside a helped job's wait: it is not that
     * job, so {@link Jobs#isCancelled()} and {@link Jobs#currentJobName()} must not answer for it (a level's
     * cancel made an unrelated upload see itself cancelled). Returns what to give {@link #resumeAfter}.
     */
    static WaitingHelp suspendForMainThreadJob() {
        WaitingHelp seat = RUNNING_HERE.get();
        if (seat != null) {
            RUNNING_HERE.remove();
        }
        return seat;
    }

    /** After the main-thread job: the helped job's seat is this thread's again. */
    static void resumeAfter(WaitingHelp seat) {
        if (seat != null) {
            RUNNING_HERE.set(seat);
        }
    }

    /**
     * The current (non-worker) thread waits on {@code counter}: runs one queued job that the wait depends
     * on, or a FRAME job. False if it ran none (nothing suitable, the seat is taken, the system is not
     * running): the caller sleeps as before.
     */
    boolean helpOnce(Counter counter) {
        Thread me = Thread.currentThread();
        WaitingHelp outer = RUNNING_HERE.get();
        boolean nested = outer == this;
        if (!nested && (scheduler.runState() != Scheduler.RUNNING || !holder.compareAndSet(null, me))) {
            return false;
        }
        externalSubmitters.incrementAndGet();          // before taking: see "Termination"
        try {
            JobNode job = take(counter, nested);
            if (job == null) {
                return false;
            }
            run(job);
            return true;
        } finally {
            externalSubmitters.decrementAndGet();
            if (!nested) {
                holder.set(null);
            }
        }
    }

    /**
     * FRAME jobs only: first one the wait depends on, then (for an outermost wait only) any. Jobs of other
     * priorities stay for the workers: they may recurse deeper than this thread's stack allows (the
     * workers' is 64 MiB), block longer than a frame, or lower the thread's priority (the assets' decode
     * lane).
     *
     * <p>A nested wait (inside a helped job) takes only what it depends on. Any other job B run there sits
     * above the waiting job A on one stack, and A cannot end before B returns: if B waits for A, neither
     * ever ends (a worker would park B's fiber instead). A job the wait depends on is safe: for it to
     * wait for A would be a cycle in the user's own graph.
     */
    private JobNode take(Counter counter, boolean nested) {
        WorkPicker picker = scheduler.picker;
        JobNode j = picker.injectedJobs[FRAME].pollIf(x -> x.isAwaitedBy(counter));
        if (j == null) {
            j = stealIf(FRAME, counter);
        }
        if (j != null || nested) {
            return j;
        }
        j = picker.injectedJobs[FRAME].poll();
        return j != null ? j : stealIf(FRAME, null);
    }

    /** A job of priority {@code p} from the top of some worker's deque: one of {@code counter}'s, or any if null. */
    private JobNode stealIf(int p, Counter counter) {
        StealTargets targets = scheduler.picker.targets;
        for (int v = 0; v < targets.workerCount(); v++) {
            var deque = targets.jobs(v, p);
            if (deque.isEmpty()) {
                continue;
            }
            JobNode j = counter == null ? deque.steal() : deque.stealIf(x -> x.isAwaitedBy(counter));
            if (j != null && counter != null && handBackIfNotAwaited(j, counter, p)) {
                continue;
            }
            if (j != null) {
                if (!deque.isEmpty()) {
                    scheduler.signalWork(p);           // more is left there for a sleeping worker
                }
                return j;
            }
        }
        return null;
    }

    /**
     * A conditional steal tested one job but may have claimed another: the owner popped the job tested and
     * pushed the same node again at the same index (JobDeque.stealIf). If {@code j} is not one this wait
     * may run, it goes to the injection queue for the workers, still unstarted and counted, and this
     * returns true.
     */
    boolean handBackIfNotAwaited(JobNode j, Counter counter, int p) {
        if (j.isAwaitedBy(counter)) {
            return false;
        }
        try {
            scheduler.picker.injectedJobs[p].offer(j);
        } catch (Throwable noRoom) {
            // The heap exhausted as the offer linked a chunk, and this wait may not run j: it fails as a job
            // that cannot start, rather than stay counted in no queue (HeapExhaustion.notQueued).
            HeapExhaustion.notQueued(scheduler, j, noRoom);
            return true;
        }
        scheduler.signalWork(p);
        return true;
    }

    private void run(JobNode job) {
        if (!job.admit(scheduler)) {
            return;                                    // cancelled meanwhile: counted and completed
        }
        JobNode outerJob = runningJob;
        // The job must not see this thread's ThreadLocals, nor leave its own behind (as on a fiber, which
        // Weft clears after every job): run it on a map of its own that holds only Weft's per-thread state
        // (the seat, the mailbox ownership), then put the thread's own back (HelpedJobLocals).
        Thread me = Thread.currentThread();
        MainThreadMailbox mailbox = MainThreadMailbox.ownedByCurrentThread();
        JobHandle<?> mainJob = MainThreadMailbox.runningOnCurrentThread();
        Object ownLocals = FiberSupport.threadLocals(me);
        Object ownInheritable = FiberSupport.inheritableThreadLocals(me);
        Object ownBindings = FiberSupport.detachScopedValues();   // nor the waiter's ScopedValue bindings
        boolean ownInterrupt = hideInterrupt();        // nor its interrupt status (a sleep would throw)
        ThreadSettings ownSettings = jobLocals.settingsOf(me);   // a name or class loader the job sets is not kept
        jobLocals.install(this, me, mailbox, mainJob);
        job.enclosing = outerJob;                       // a self-join through the stack is refused (JobHandle)
        runningJob = job;
        Observation observation = scheduler.observation;
        // The trace's last track belongs to this system's main thread (one writer): only it records helped
        // jobs there. Owning a mailbox is not enough: the thread may be another system's main thread, helping
        // this one while this one's main thread writes the track (a probe's helper tore it: two writers).
        Object observed = observation.isObserved() && mailbox == scheduler.mainThread
                ? observation.jobBegan(job) : null;
        Throwable failure = null;
        try {
            job.execute();
        } catch (Throwable t) {
            failure = t;
        } finally {
            if (observed != null) {
                observation.jobEnded(job, observed);
            }
            runningJob = outerJob;
            job.enclosing = null;
            FiberSupport.restoreScopedValues(ownBindings);
            jobLocals.keepIfUntouched(this, me, mailbox, mainJob);
            FiberSupport.setThreadLocals(me, ownLocals, ownInheritable);   // ours (seat included) is back
            ownSettings.restoreIfChanged(me);
            restoreInterrupt(ownInterrupt);
        }
        job.finishRun(scheduler, failure);             // not a worker: counted as helped
        job.recycleOnOutsideThread();                  // a node this thread submitted goes home, else garbage
        scheduler.countHelped();
    }

    /**
     * Before a thread runs a job that is not its own (a waiting thread helping here, the main thread running a
     * main-thread job): clears the thread's interrupt status and returns it, so that the job's sleeps and
     * waits do not throw for an interrupt meant for the thread, nor consume it.
     */
    static boolean hideInterrupt() {
        return Thread.interrupted();
    }

    /**
     * After that job: an interrupt the job left is the job's (as on a fiber) and is cleared; the thread's
     * own, from {@link #hideInterrupt()}, is put back.
     */
    static void restoreInterrupt(boolean threadsOwnInterrupt) {
        Thread.interrupted();
        if (threadsOwnInterrupt) {
            Thread.currentThread().interrupt();
        }
    }
}
