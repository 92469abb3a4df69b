package dev.weft;

import dev.weft.internal.FiberSupport;
import dev.weft.internal.ThreadSettings;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.locks.LockSupport;

/**
 * A pooled virtual thread that runs job after job on Weft's workers.
 *
 * <p>Each fiber is its own virtual thread's scheduler ({@link Executor}): the JDK hands the fiber's
 * continuation to {@link #execute} whenever the fiber becomes runnable (started, unparked), so the
 * scheduler always knows which fiber became ready and at which priority, without a lookup.
 *
 * <p>A plain virtual thread started inside a job ({@code Thread.ofVirtual()}, a virtual-thread-per-task
 * executor) inherits the job's fiber as its scheduler: the JDK gives a virtual thread made without one its
 * parent virtual thread's. Such a continuation is not this fiber's own, so {@link #execute} forwards it to
 * {@link FiberSupport#foreignScheduler()} (the JVM's virtual-thread scheduler), now and at every later
 * wake: it never runs on Weft's workers, and it runs on after the job system has closed.
 *
 * <p>Life cycle: the fiber loop takes the next item for its worker. A job runs right here, inline, with
 * no thread switch — the common case costs no park. A ready fiber cannot run inside another virtual
 * thread: the fiber leaves it in the worker's {@code next} slot and parks itself in the worker's idle
 * pool, and the worker's carrier loop mounts it. A job that waits parks the fiber; the worker mounts
 * another one (ready or idle).
 *
 * <p>Fields: everything but {@link #waitNode}, {@link #idle} and {@link #retire} is written only by the
 * thread the fiber is mounted on (or the carrier that is about to mount it, before the unpark that
 * publishes it).
 */
final class Fiber implements Executor, Runnable {
    final Scheduler scheduler;
    final Thread thread;
    private Runnable continuation;          // this virtual thread's own runContinuation, captured at start
    private volatile Worker handoffTo;      // carrier that resumes us and wants us mounted right away
    volatile boolean idle;                  // parked in the idle pool; cleared by the taker's claim (CAS)
    volatile boolean retire;                // set at termination: leave the loop and end the thread
    // Set by this fiber just before its idle park; read and cleared by the carrier it parks on, after the
    // unmount (Worker.mount), which then offers it to the idle pool. Plain: one thread (fiber, then its
    // carrier). execute() clears it when the park did not hold (the JDK resubmits us on this carrier).
    boolean poolAfterUnmount;
    JobNode firstJob;                       // handed over by the carrier with the resume
    JobNode currentJob;                     // innermost job on this fiber's stack
    // The name of the job whose failure the uncaught-failure handler is reporting on this fiber, or null:
    // between jobs (currentJob null), so the watchdog can name a handler that holds the worker or parks.
    // Written by this fiber around the handler call only (JobNode.completeCounter, failures nobody waits
    // for: never on a job's normal path); read racily by the watchdog, as currentJob is.
    String failureHandlerJob;
    // Where to queue this fiber when it becomes ready: the highest priority on its stack. Not what the
    // caps count (PriorityCaps): those count every capped priority on the stack (capMask below).
    int readyPriority = Priority.NORMAL.ordinal();
    volatile WaitNode waitNode;             // the wait this fiber is parked in, or null (cancellers read it)
    // Jobs of each capped priority on this stack (PriorityCaps), and the bits p with a count > 0. Plain:
    // written while mounted, read by the worker that resumes us after the JDK's unpark published them.
    private final int[] capDepth = new int[Priority.COUNT];
    int capMask;
    boolean started;
    // The name, context class loader and uncaught-exception handler every job on this fiber starts with,
    // put back after any job that changed them (ThreadSettings). Final: read only by this fiber.
    private final ThreadSettings ownSettings;

    Fiber(Scheduler scheduler, String name) {
        this.scheduler = scheduler;
        // No InheritableThreadLocal values from whoever made us: the first job would see them and every
        // later one would not (runTopLevel clears them). Not inheriting also drops the JDK's copy of the
        // creator's context class loader, so it is set here as before: the carrier's (fibers are made on
        // a worker's carrier, which has the loader of the thread that built the job system).
        Thread t = FiberSupport.virtualThreadBuilder(this).name(name).inheritInheritableThreadLocals(false)
                .unstarted(this);
        t.setContextClassLoader(FiberSupport.currentCarrier().getContextClassLoader());
        this.thread = t;
        this.ownSettings = ThreadSettings.of(t);   // not started: its start publishes these to the fiber
    }

    /** The Weft fiber the current thread is, or null (a platform thread or a foreign virtual thread). */
    static Fiber current() {
        Thread t = Thread.currentThread();
        // A fiber's thread has the fiber as its scheduler; a virtual thread started inside a job inherits
        // that scheduler but is not the fiber's thread. One load of a final field, where asking the carrier
        // took three dependent loads.
        return t.isVirtual() && FiberSupport.schedulerOf(t) instanceof Fiber f && f.thread == t ? f : null;
    }

    // The worker inside Worker.mount for this fiber, or null: the mount claim (SYNCHRONIZATION.md §3, "One
    // mount at a time"). A carrier takes it by CAS before it runs our continuation and gives it back (release
    // store) after its unmount bookkeeping, so no two carriers are ever in mount for us at once. The JDK
    // can hand us our continuation twice for one wake (Thread.getStackTrace on us while we wait in a ready
    // queue resubmits "as the task may have run while suspended"); the second run is a no-op in the JDK,
    // but without the claim its carrier would overwrite this field while we run elsewhere.
    // While we run, it is the worker we run on: this fiber reads it plain, as the same OS thread wrote it.
    volatile Worker carrier;

    /** Carrier side: claims the right to run this fiber's continuation; false if another carrier holds it. */
    boolean claimMount(Worker w) {
        return CARRIER.compareAndSet(this, null, w);
    }

    /** Carrier side, after the continuation returned and the carrier is done with us: ends the claim. */
    void releaseMount() {
        CARRIER.setRelease(this, null);
    }

    /** The worker this fiber is mounted on right now (fibers migrate between waits). */
    Worker worker() {
        Worker w = (Worker) CARRIER.get(this);           // plain: our own carrier's write, same OS thread
        assert w == ((WorkerThread) FiberSupport.currentCarrier()).worker
                : "carrier field " + w + " is stale: mounted without Worker.mount?";
        return w;
    }

    // ---- scheduling (called by the JDK with the caller's continuation pinned) ----

    @Override
    public void execute(Runnable r) {
        // Ours or foreign: the JDK hands a virtual thread's scheduler the same runContinuation object (a
        // final field of the thread) at its start and at every wake. The first one we get is our own
        // thread's start (a thread can inherit us only once ours runs). One load and one compare per wake.
        if (continuation == null) {
            continuation = r;                       // the first continuation handed to us is our own
        } else if (r != continuation) {
            FiberSupport.foreignScheduler().execute(r);   // a virtual thread started inside a job inherits us
            return;
        }
        if (idle) {
            scheduler.fibers.strayIdleWakes.incrementAndGet();   // rare: see claimIdle
        }
        poolAfterUnmount = false;                   // runnable again (a stale permit): not idle after all
        Worker w = handoffTo;
        if (w != null && Thread.currentThread() == w.thread) {
            handoffTo = null;
            w.next = this;                          // the carrier mounts us as soon as unpark returns
            return;
        }
        scheduler.fiberReady(this);
    }

    Runnable continuation() {
        return continuation;
    }

    private static final VarHandle IDLE;
    private static final VarHandle CARRIER;

    static {
        try {
            IDLE = MethodHandles.lookup().findVarHandle(Fiber.class, "idle", boolean.class);
            CARRIER = MethodHandles.lookup().findVarHandle(Fiber.class, "carrier", Worker.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A worker that took this fiber from the idle pool: claims this idle period (CAS idle true -> false).
     * False means the entry it took was stale. An unpark can reach a fiber after the wait it was meant
     * for has ended: a Counter decrementer fires a wait node (CAS) and then unparks its thread, and the
     * waiter may see the node fired, or the value reached, and go on before that unpark lands (a user's
     * {@code LockSupport.unpark} of a thread that once ran their job does the same). If the fiber has
     * parked idle meanwhile, the unpark runs it while it is pooled: it finds itself still idle, parks
     * again, and its carrier pools it a second time. The other entry was claimed, or is the one to claim
     * once the fiber is idle again. One claim per idle period, so one busyFibers +1 per {@code fiberIdle}
     * -1, and one job handed to the fiber at a time. (Stopping such unparks at the source would need the
     * waiter to spin until the waker's unpark returned, which a preempted waker stretches to a time slice;
     * a stray unpark costs one mount, counted in {@code FiberPool.strayIdleWakes}: 1 in 400,000 waits in
     * a fan-in stress here.)
     */
    boolean claimIdle() {
        return IDLE.compareAndSet(this, true, false);
    }

    /** Carrier side: make this fiber the worker's next to mount (start it or wake it from the pool). */
    void resumeOn(Worker w) {
        handoffTo = w;
        if (!started) {
            started = true;
            thread.start();
        } else {
            LockSupport.unpark(thread);
        }
        handoffTo = null;
    }

    // ---- the fiber loop ----

    @Override
    public void run() {
        for (;;) {
            JobNode job = null;                 // a local: the catch below needs no store per job
            try {
                Worker w = worker();
                job = firstJob;
                firstJob = null;
                if (job == null && w.next == null) {   // never overwrite a handoff still waiting for the carrier
                    Object next = scheduler.picker.pollNext(w);
                    if (next instanceof JobNode j) {
                        job = j;
                    } else if (next != null) {
                        w.next = next;              // a ready fiber: the carrier mounts it
                    }
                }
                if (job != null) {
                    runTopLevel(job);
                    continue;
                }
                if (!parkIdle()) {
                    return;
                }
            } catch (Throwable t) {
                // An Error of Weft's own code around the jobs (the heap exhausted: see HeapExhaustion); a
                // job's own failure never gets here. The job in hand, if it did not complete, completes
                // failed with it; the fiber must not end: it is counted alive, close() would wait for it.
                for (Throwable e = t;;) {
                    try {
                        HeapExhaustion.fiberLoopThrew(this, job, e);   // throws nothing itself
                        break;
                    } catch (Throwable again) {
                        e = again;              // its way in threw (a deoptimization short of memory): again
                    }
                }
            }
        }
    }

    /**
     * Parks in the idle pool until a worker wants us again; false means retire. We do not offer
     * ourselves: our carrier does, once we have really unmounted ({@link Worker#mount}, through
     * {@link #poolAfterUnmount}). Offered earlier, a worker could take us while we were still mounted
     * elsewhere: its unpark only set our permit, and the job it handed us ran late, behind whatever our
     * old carrier ran first (CheckpointTest saw a FRAME job wait hundreds of checkpoints that way).
     */
    private boolean parkIdle() {
        worker().flushHeld();               // mount() flushes too; nothing held back while we are idle
        if (retire) {
            return false;
        }
        if (!scheduler.fibers.idleOrEnd(this)) {
            return false;                   // after a burst of parked jobs: end instead of idling forever
        }
        while (idle && !retire) {
            poolAfterUnmount = true;        // again after a park that returned on a stale permit
            Thread.interrupted();           // meant for a job that ended; set, every park would return at once
            try {
                LockSupport.park(this);
            } catch (OutOfMemoryError noRoom) {
                // The JDK could not allocate the chunk our stack is frozen into (the heap exhausted): we
                // are still mounted and idle. Park again: the fiber must not end (it is counted alive).
                Thread.onSpinWait();
            }
        }
        poolAfterUnmount = false;           // leaving: a later park (a Counter wait) is not an idle one
        return !retire;
    }

    private void runTopLevel(JobNode job) {
        worker().beforeJob(job.counter);
        int p = job.priority;
        PriorityCaps caps = scheduler.caps;
        if (caps.isCapped(p)) {
            // Normally the picker took the slot for this job on this worker. Should the job run on
            // another worker than the one that took us (a guard: only unmounted fibers are pooled),
            // take it here, as overflow if we must (the job is in our hand).
            Worker w = worker();
            if (!caps.take(w, p, false)) {
                caps.take(w, p, true);
            }
            if (!job.admit(scheduler)) {
                caps.release(w, p);
                return;
            }
            capDepth[p]++;
            capMask |= 1 << p;
        } else if (!job.admit(scheduler)) {
            return;
        }
        Throwable failure = runBody(job, p);
        try {
            FiberSupport.clearThreadLocals(thread);   // the next job on this fiber sees no ThreadLocal of ours
            ownSettings.restoreIfChanged(thread);     // nor our name, context class loader, exception handler
            if (thread.isInterrupted()) {
                Thread.interrupted();                 // nor an interrupt meant for this one (FutureTask.cancel(true))
            }
            if (caps.isCapped(p)) {
                leaveCapped(p);
            }
        } finally {
            job.finishRun(scheduler, failure, this);  // even after an Error above (the heap exhausted)
        }
    }

    /**
     * Before running a job of priority {@code p} nested (inline help, join): a capped priority this
     * stack does not hold yet needs a regular slot (never overflow: refused, we park, and our worker's
     * picker decides, overflow included). True: go ahead.
     */
    boolean takeNestedSlot(int p) {
        PriorityCaps caps = scheduler.caps;
        return !caps.isCapped(p) || capDepth[p] > 0 || caps.take(worker(), p, false);
    }

    /** The job {@link #takeNestedSlot} was for was stolen meanwhile. */
    void undoNestedSlot(int p) {
        if (scheduler.caps.isCapped(p) && capDepth[p] == 0) {
            scheduler.caps.release(worker(), p);
        }
    }

    /** A job of capped priority p left this stack: the last one gives the slot back. */
    private void leaveCapped(int p) {
        if (--capDepth[p] == 0) {
            capMask &= ~(1 << p);
            scheduler.caps.release(worker(), p);   // the worker we are on now: we may have migrated
        }
    }

    /**
     * Runs {@code job} nested on this fiber's stack (it is a dependency of the job below it). While it
     * runs, the fiber is queued, if it parks, at the highest priority on its stack: a FRAME job that runs
     * a BACKGROUND dependency inline must not resume at BACKGROUND (priority inversion).
     */
    private void runNested(JobNode job) {
        int p = job.priority;
        boolean capped = scheduler.caps.isCapped(p);
        if (!job.admit(scheduler)) {
            if (capped) {
                undoNestedSlot(p);
            }
            return;
        }
        if (capped) {
            capDepth[p]++;                    // the slot was taken by takeNestedSlot (or this stack holds it)
            capMask |= 1 << p;
        }
        Throwable failure = null;
        // From here the job is RUNNING: whatever Weft's own code around it throws (the heap exhausted:
        // detaching the outer job's settings allocates, so do the observation hooks), it must complete. A
        // try region costs nothing until something throws; the handler is a cold call (inlining budget).
        try {
            JobNode outer = currentJob;
            int outerPriority = readyPriority;
            Object outerLocals = FiberSupport.detachThreadLocals(thread);
            Object outerBindings = FiberSupport.detachScopedValues();   // a job of its own: sees none of ours
            boolean outerInterrupted = detachInterrupt(thread);
            ThreadSettings outerSettings = ownSettings.detach(thread);   // null unless the outer job changed some
            job.enclosing = outer;
            failure = runBody(job, Math.min(outerPriority, job.priority));   // lower ordinal = higher
            currentJob = outer;                         // first: nestedThrew relies on enclosing meaning "not yet"
            readyPriority = outerPriority;
            job.enclosing = null;
            ownSettings.reattach(thread, outerSettings);   // the nested job's changes go, the outer job's are back
            if (outerInterrupted || thread.isInterrupted()) {   // one volatile read when neither
                settleInterrupt(outerInterrupted);
            }
            FiberSupport.restoreScopedValues(outerBindings);
            FiberSupport.restoreThreadLocals(thread, outerLocals);
            if (capped) {
                leaveCapped(p);
                capped = false;                     // for nestedThrew: the slot went back
            }
            job.finishRun(scheduler, failure, this);
        } catch (Throwable t) {
            nestedThrew(job, capped, failure, t);   // throws nothing itself
            throw t;                                // the joiner's wait (the outer job) gets it too
        }
    }

    /**
     * An Error of Weft's own code around nested job {@code job} (the heap exhausted), after its admit:
     * it completes, failed with {@code t} unless its body failed first ({@code failure}), so that its
     * counter and handle do not stay up for ever; the outer job is the current one again and the capped
     * slot goes back. The outer job's thread locals, bindings and settings may not have been restored:
     * the Error goes on to it (its join or await throws it). Cold, and out of {@link #runNested} for its size.
     */
    private void nestedThrew(JobNode job, boolean capped, Throwable failure, Throwable t) {
        try {
            JobNode outer = job.enclosing;
            if (outer != null) {                    // runBody had made the nested job the current one
                job.enclosing = null;
                currentJob = outer;
            }
            if (capped) {                           // still held: leaveCapped had not run
                leaveCapped(job.priority);
            }
        } catch (Throwable again) {
            // the job must complete regardless
        }
        Throwable cause = failure != null ? failure : t;
        for (int attempt = 0;; attempt++) {
            try {
                if (job.state() == JobNode.RUNNING) {   // DONE: finishRun got past markDone, nothing left
                    job.finishRun(scheduler, cause, this);
                }
                return;
            } catch (Throwable again) {
                if (attempt == HeapExhaustion.MAX_ATTEMPTS) {
                    HeapExhaustion.report(scheduler, "a nested job could not be completed", again);
                    return;
                }
                Thread.onSpinWait();
            }
        }
    }

    /**
     * Hides the joiner's interrupt status from a job about to run nested (a child that sleeps would fail
     * with InterruptedException because its joiner's flag was left set): true if it was set, and cleared.
     * One volatile read when it is clear; kept out of {@link #runNested}, whose size decides its inlining.
     */
    private static boolean detachInterrupt(Thread t) {
        return t.isInterrupted() && Thread.interrupted();
    }

    /**
     * After a nested job: the joiner's interrupt status back as it was before. An interrupt the nested job
     * left (it interrupted itself, or a library re-asserted one) was its own and ends with it, as a job's
     * does on a fiber and on a waiting thread: it reached the joiner, whose next sleep or take threw,
     * only when the child happened to run inline. Kept while shutdownNow stops the system: its interrupt
     * is meant for every job on the stack. Cold.
     */
    private void settleInterrupt(boolean outerInterrupted) {
        if (outerInterrupted) {
            thread.interrupt();
        } else if (!scheduler.isStopping()) {
            Thread.interrupted();
        }
    }

    private Throwable runBody(JobNode job, int queuePriority) {
        currentJob = job;
        readyPriority = queuePriority;
        boolean cancellable = job instanceof JobHandle;   // only handles can be cancelled while running
        if (cancellable) {
            job.setRunner(this);
        }
        Object observation = scheduler.observation.isObserved() ? scheduler.observation.jobBegan(job) : null;
        try {
            job.execute();
            return null;
        } catch (Throwable t) {
            return t;
        } finally {
            if (observation != null) {
                scheduler.observation.jobEnded(job, observation);
            }
            if (cancellable) {
                job.setRunner(null);
            }
            currentJob = null;
        }
    }

    // ---- checkpoints (Jobs.checkpoint on this fiber) ----

    /**
     * Yields if work more urgent than this stack (its {@link #readyPriority}, the highest on it) is
     * queued anywhere. Fast path: one volatile load of {@link CheckpointSignal#queuedMask}. Slow path:
     * clear those bits, scan, and if the scan found work, set its bits back and yield: the JDK hands our
     * continuation to {@link #execute}, which queues us at {@code readyPriority} (our worker's ready
     * deque, where a thief may take us), and our worker's picker, scanning from FRAME, takes the urgent
     * work first. A capped slot is given back at the unmount and taken again at the resume.
     */
    void checkpoint() {
        int above = CheckpointSignal.above(readyPriority);
        CheckpointSignal signal = scheduler.checkpoints;
        if (above == 0 || currentJob == null || !signal.mayBeQueued(above)) {
            return;
        }
        signal.clear(above);                            // full fence, then the scan: see CheckpointSignal
        int found = scheduler.picker.queuedAbove(readyPriority);
        if (found == 0) {
            return;
        }
        signal.set(found);
        worker().count(Worker.CHECKPOINT_YIELDS);
        Thread.yield();                                 // unmounts; resumes here, maybe on another worker
    }

    /** Would {@link #checkpoint()} yield now? The same fast path, then a scan that changes nothing. */
    boolean shouldYield() {
        int above = CheckpointSignal.above(readyPriority);
        return above != 0 && currentJob != null && scheduler.checkpoints.mayBeQueued(above)
                && scheduler.picker.queuedAbove(readyPriority) != 0;
    }

    // ---- waiting (called by CounterWait.await on this fiber) ----

    /**
     * Join's fast path (ForkJoinPool's tryUnpush): if {@code handle} is the bottom job of this worker's
     * deque at its priority, pop it and run it here, nested, instead of parking until someone else does.
     * Only the bottom element: anything above it was pushed later by this fiber's own job and may depend
     * on what follows the join.
     */
    void runInlineIfAtBottom(JobHandle<?> handle) {
        Worker w = worker();
        if (w.seededChoices != null) {
            return;                          // deterministic mode: the seeded picker chooses every job
        }
        int p = handle.priority;
        var deque = w.jobs[p];
        if (deque.atBottom() == handle && takeNestedSlot(p)) {
            if (deque.popIf(handle) != null) {   // null: a thief took it (the plain read above is a hint)
                runNested(handle);
                worker().flushHeld();        // the joiner goes on with its job: hold nothing back meanwhile
            } else {
                undoNestedSlot(p);
            }
        }
    }

    /**
     * Before parking: run inline the jobs of {@code counter} that still sit unstarted at the bottom of
     * this worker's deques. Never an unrelated job: it could wait on something only our caller signals.
     */
    void helpBeforeWait(Counter counter, long target) {
        if (worker().seededChoices != null) {
            return;                          // deterministic mode: the seeded picker chooses every job
        }
        // The value less what our own worker holds back (§13) is what the value will be after our flush:
        // still >= the jobs not yet ended, so stopping at the target never stops early.
        while (counter.pending() - worker().heldFor(counter) > target) {
            JobNode j = worker().popLocalJobOf(counter, this);
            if (j == null) {
                return;
            }
            runNested(j);
        }
    }

    Object parkObservation;                 // trace/JFR state of the current wait, or null

    void beginWait(WaitNode node) {
        waitNode = node;                    // volatile: ordered before our re-check of cancellation
        scheduler.fibers.fiberParking(this);
        if (scheduler.observation.isObserved()) {
            parkObservation = scheduler.observation.fiberParked(this, node.counter);
        }
    }

    void endWait() {
        waitNode = null;
        scheduler.fibers.fiberResumed(this);
        if (parkObservation != null) {
            scheduler.observation.fiberUnparked(this, parkObservation);
            parkObservation = null;
        }
    }

    boolean cancellationRequested() {
        return JobNode.cancellationRequested(currentJob, scheduler);
    }

    JobCancelledException cancelledWhileWaiting(Counter counter) {
        JobNode j = currentJob;
        String who = j != null ? "job '" + j.name() + "'" : "fiber " + thread.getName();
        return new JobCancelledException(who + " was cancelled while waiting on " + counter);
    }

    /** Canceller side (shutdownNow): wake this fiber's wait (if any) with a cancellation. */
    void cancelWait() {
        WaitNode n = waitNode;
        if (n != null) {
            n.cancel();
        }
    }

    /**
     * shutdownNow, after {@link #cancelWait}: interrupts this fiber if it runs a job, so that a job blocked
     * in a JDK call (sleep, BlockingQueue.take, Object.wait) ends as with the JDK's shutdownNow, instead
     * of keeping close() and awaitTermination waiting for ever. A racy read of currentJob: should the job
     * end meanwhile, the interrupt reaches the fiber's next job, which shutdownNow cancels too, or its
     * idle park, which clears it (parkIdle); runTopLevel clears it after every job either way.
     */
    void interruptJob() {
        // Not an idle fiber (volatile read): interrupting a parked virtual thread submits it, so an idle one
        // would be readied for nothing. The caller holds termination off meanwhile (Scheduler.shutdownNow),
        // so a fiber readied anyway, its job having ended after these reads, is run and re-pooled.
        if (currentJob != null && !idle) {
            thread.interrupt();
        }
    }

    /**
     * Canceller side: wake this fiber's wait with a cancellation only if {@code job} is the job waiting
     * in it. A cancelled handle may be running, nested on its fiber, a job of the counter it waits on
     * (see {@link #helpBeforeWait}); that job was not cancelled and its wait is left alone. The handle
     * sees its cancellation when its own wait begins (the re-check in CounterWait.await) or at its next
     * {@code Jobs.checkCancelled()}. The node's job is final and the node is read with acquire
     * (volatile), so the pair is consistent.
     */
    void cancelWaitOf(JobNode job) {
        WaitNode n = waitNode;
        if (n != null && n.job == job) {
            n.cancel();
        }
    }
}
