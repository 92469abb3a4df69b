package dev.weft;

import java.time.Duration;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * A daemon thread that looks at the job system every quarter threshold: jobs parked longer than the
 * threshold (in a Weft wait, or outside one: {@code Thread.sleep}, a monitor, a lock, {@code Object.wait}),
 * workers that ran one job longer than the threshold without parking (a job blocking its carrier), and
 * cycles of jobs waiting on each other, parked or waiting for prerequisites ({@link WaitCycle}). It reads
 * only published state (fibers' wait nodes, the continuation nodes of jobs waiting for prerequisites,
 * workers' statistics and mounted fiber) and takes no lock the job path uses, so it costs the job path
 * nothing. Each wait, each worker hold and each cycle is reported once.
 */
final class Watchdog implements Runnable {
    private final Scheduler scheduler;
    private final long thresholdNanos;
    private final Consumer<WatchdogReport> sink;
    private final Thread thread;
    private final Set<WaitNode> reportedWaits = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Worker, HoldSample> holds = new IdentityHashMap<>();
    private HoldSample helperHold;            // the waiting thread's helped job (WaitingHelp), sampled the same way
    private HoldSample mainThreadHold;        // the main-thread job the main thread is running, the same way
    // The cycles reported, each by the wait nodes it goes through (WaitNode keeps Object's identity equals),
    // pruned of those with a node no longer WAITING every check: a cycle broken by a cancel and formed
    // again (the next level load, the same job and counter names) is reported again, and the set holds
    // only live cycles. Keyed by names before, it hid the second report and grew with every distinct cycle.
    private final Set<Set<WaitNode>> reportedCycles = new java.util.HashSet<>();
    // Continuation nodes of jobs waiting for prerequisites, seen waiting past the threshold: as a fiber's
    // long wait, a new one starts a cycle search. Not reported themselves: an after() job waiting long for
    // a level-streaming counter is normal. Pruned of nodes no longer WAITING every check.
    private final Set<WaitNode> longPrerequisiteWaits = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Map<Fiber, ElsewhereSample> parkedElsewhere = new IdentityHashMap<>();
    private long unrunMainThreadJobsSince;    // when main-thread jobs were first seen queued with no main thread, or 0
    private boolean unrunMainThreadJobsReported;

    /** {@code job}: the job in hand, or the name a fiber's failure handler reports ({@link #heldBy}). */
    private record HoldSample(long jobsRun, Object job, long sinceNanos, boolean reported) {
    }

    /** A fiber first seen parked outside Weft's waits while running {@code job} (as in HoldSample). */
    private record ElsewhereSample(Object job, long sinceNanos, boolean reported) {
    }

    Watchdog(Scheduler scheduler, Duration threshold, Consumer<WatchdogReport> sink) {
        this.scheduler = scheduler;
        this.thresholdNanos = Timeouts.saturatedNanos(threshold);
        this.sink = sink;
        this.thread = new Thread(this, scheduler.name() + "-watchdog");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    @Override
    public void run() {
        long periodMillis = Math.max(5, thresholdNanos / 4_000_000L);
        while (!scheduler.isTerminated()) {
            try {
                Thread.sleep(periodMillis);
            } catch (InterruptedException e) {
                return;
            }
            try {
                check(System.nanoTime());
            } catch (RuntimeException | LinkageError | StackOverflowError e) {
                // Never let the watchdog die silently: say so and keep watching.
                System.err.println("weft watchdog of '" + scheduler.name() + "': a check failed: " + e);
            }
        }
    }

    void check(long now) {
        boolean longWait = false;
        reportedWaits.removeIf(n -> !n.isWaiting());
        reportedCycles.removeIf(waits -> !waits.stream().allMatch(WaitNode::isWaiting));
        for (Fiber f : scheduler.fibers.all()) {
            WaitNode n = f.waitNode;
            if (n == null || !n.isWaiting() || now - n.sinceNanos < thresholdNanos || reportedWaits.contains(n)) {
                continue;
            }
            reportedWaits.add(n);
            longWait = true;
            JobNode j = f.currentJob;
            long ms = (now - n.sinceNanos) / 1_000_000L;
            String handler = j == null ? f.failureHandlerJob : null;
            String job = j != null ? j.name() : handler != null ? handler : f.thread.getName();
            String who = handler != null ? "the uncaught-failure handler of job '" + job + "'" : "job '" + job + "'";
            List<StackTraceElement> stack = WatchdogReport.stackOf(f.thread);
            String initializing = classInitializerOn(stack);
            String pinned = initializing == null ? "" : ", pinned inside the class initializer of " + initializing
                    + ": its worker is blocked until the wait ends; move the wait out of the static initializer";
            sink.accept(new WatchdogReport(WatchdogReport.Kind.LONG_WAIT, job, who + " has waited "
                    + ms + " ms on " + n.counter + " (fiber " + f.thread.getName() + pinned + ")", ms, stack,
                    List.of()));
        }
        if (newLongPrerequisiteWait(now)) {
            longWait = true;
        }
        if (longWait) {
            for (WaitCycle.Found found : WaitCycle.findTimed(scheduler.fibers.all(), scheduler.pendingJobs)) {
                WaitCycle c = found.cycle();
                if (now - found.oldestWaitSinceNanos() < thresholdNanos) {
                    continue;          // formed since: reported once one of its own waits is long, as waits are
                }
                if (!reportedCycles.add(Set.copyOf(found.waits()))) {
                    continue;
                }
                WaitCycle.Entry first = c.entries().get(0);
                List<String> notStarted = found.notStarted();
                String what = c.entries().size() == 1 && notStarted.isEmpty()
                        ? "a job waits on a counter that only a job below it on its own fiber would complete"
                        : c.entries().size() == 1
                        ? "a job waits for a prerequisite counter that counts the job itself"
                        : c.entries().size() + " jobs wait on each other's counters";
                if (!notStarted.isEmpty()) {
                    what += " (" + notStarted.stream().map(n -> "'" + n + "'").collect(
                            java.util.stream.Collectors.joining(", ")) + (notStarted.size() == 1 ? " has" : " have")
                            + " not started: waiting for the prerequisites given to after())";
                }
                sink.accept(new WatchdogReport(WatchdogReport.Kind.WAIT_CYCLE, first.job(), what
                        + " and can never finish: a deadlock. Break the cycle in the job graph.",
                        (now - found.oldestWaitSinceNanos()) / 1_000_000L,
                        List.of(), c.entries()));
            }
        }
        checkParkedElsewhere(now);
        checkHelpedJob(now);
        checkMainThreadJob(now);
        checkNobodyRunsMainThreadJobs(now);
        for (Worker w : scheduler.workers) {
            Fiber f = w.mounted;
            Object j = f != null ? heldBy(f) : null;
            long run = w.stat(Worker.JOBS_RUN);
            HoldSample prev = holds.get(w);
            if (j == null || prev == null || prev.job != j || prev.jobsRun != run) {
                holds.put(w, new HoldSample(run, j, now, false));
                continue;
            }
            long held = now - prev.sinceNanos;
            if (!prev.reported && held >= thresholdNanos) {
                holds.put(w, new HoldSample(run, j, prev.sinceNanos, true));
                long ms = held / 1_000_000L;
                List<StackTraceElement> stack = WatchdogReport.stackOf(f.thread);
                if (j instanceof String failed) {
                    sink.accept(new WatchdogReport(WatchdogReport.Kind.BLOCKED_WORKER, failed, "the uncaught-failure"
                            + " handler, reporting the failure of job '" + failed + "', has held worker " + w.index
                            + " for " + ms + " ms without parking: it runs on the worker that ran the job, so a"
                            + " logger blocked writing (a full pipe, a slow console) blocks the worker. Hand the"
                            + " report to a logging thread (a queue it drains), or keep the handler short.", ms,
                            stack, List.of()));
                    continue;
                }
                JobNode job = (JobNode) j;
                String initializing = classInitializerOn(stack);
                String why = initializing != null
                        ? "its fiber is pinned inside the class initializer of " + initializing + ": a wait inside"
                        + " a static initializer cannot unmount, so it blocks its worker (on 1 worker, the whole"
                        + " system). Move the wait out of the static initializer: initialise the value in a lazy"
                        + " holder outside a job, or pass it in."
                        : "it blocks its carrier (file or socket I/O, a sleep or native call, a busy loop?). Wrap"
                        + " the blocking call in Jobs.blocking(...), which parks the fiber instead.";
                sink.accept(new WatchdogReport(WatchdogReport.Kind.BLOCKED_WORKER, job.name(), "job '" + job.name()
                        + "' has held worker " + w.index + " for " + ms + " ms without parking: " + why, ms,
                        stack, List.of()));
            }
        }
    }

    /**
     * What fiber {@code f} is busy with: its innermost job, or between jobs the name of the job whose failure
     * its uncaught-failure handler is reporting (user code that may block or park there), or null.
     */
    private static Object heldBy(Fiber f) {
        JobNode j = f.currentJob;
        return j != null ? j : f.failureHandlerJob;
    }

    /**
     * True if a job waiting for its prerequisites has a continuation node waiting past the threshold that
     * no earlier check saw: a cycle through jobs waiting for prerequisites may have formed, and no fiber's
     * long wait would start a search for it (those jobs park nothing; the thread waiting on their counters
     * may be no fiber, the main thread's {@code frame.await()}). A walk of {@link PendingJobs} on the
     * watchdog's thread, with no lock the job path takes: nothing is added to the job path.
     */
    private boolean newLongPrerequisiteWait(long now) {
        longPrerequisiteWaits.removeIf(n -> !n.isWaiting());
        boolean[] found = {false};
        scheduler.pendingJobs.forEach((job, release) -> release.forEachWaiting(n -> {
            if (now - n.sinceNanos >= thresholdNanos && longPrerequisiteWaits.add(n)) {
                found[0] = true;
            }
        }));
        return found[0];
    }

    /**
     * The class whose static initializer is running on {@code stack} (the innermost, if several), or null.
     * A fiber cannot unmount inside one: the JDK's class initialization has a native frame, so a park there
     * parks the carrier. One walk of the stack the report carries anyway, on the watchdog's thread.
     */
    static String classInitializerOn(List<StackTraceElement> stack) {
        for (StackTraceElement e : stack) {
            if (e.getMethodName().equals("<clinit>")) {
                return e.getClassName();
            }
        }
        return null;
    }

    /**
     * A FRAME job that a waiting thread (the main thread in {@code frame.await()}) runs as help, and that
     * holds it past the threshold: the frame is stuck in it, and no worker scan sees it (it runs on that
     * thread's stack, not on a fiber). Sampled as a worker's job is: same job, same count of helped jobs.
     */
    private void checkHelpedJob(long now) {
        WaitingHelp seat = scheduler.waitingHelp;
        Thread holder = seat != null ? seat.holderThread() : null;
        JobNode j = holder != null ? seat.runningJob : null;
        long run = scheduler.jobsRunByWaiters();
        HoldSample prev = helperHold;
        if (j == null || prev == null || prev.job != j || prev.jobsRun != run) {
            helperHold = j == null ? null : new HoldSample(run, j, now, false);
            return;
        }
        long held = now - prev.sinceNanos;
        if (!prev.reported && held >= thresholdNanos) {
            helperHold = new HoldSample(run, j, prev.sinceNanos, true);
            long ms = held / 1_000_000L;
            sink.accept(new WatchdogReport(WatchdogReport.Kind.BLOCKED_WORKER, j.name(), "job '" + j.name()
                    + "' has held waiting thread " + holder.getName() + " for " + ms + " ms (the thread runs FRAME"
                    + " jobs while it waits, as worker " + seat.workerIndex + "): that thread, the game's frame if"
                    + " it is the main thread, cannot go on until the job returns. A busy loop or blocking call?"
                    + " Wrap blocking calls in Jobs.blocking(...), or make the job shorter.", ms,
                    WatchdogReport.stackOf(holder), List.of()));
        }
    }

    /**
     * A main-thread job that holds the main thread past the threshold, busy or in a wait (one on a counter
     * the game loop itself completes after {@code runMainThreadJobs} returns never ends): the frame is stuck
     * in it, and no fiber-based check sees the main thread. A handle runs once, so the same handle seen
     * running past the threshold is one stretch; one report per handle.
     */
    private void checkMainThreadJob(long now) {
        MainThreadMailbox mailbox = scheduler.mainThread;
        JobHandle<?> j = mailbox.runningJob();
        Thread owner = mailbox.owner();
        HoldSample prev = mainThreadHold;
        if (j == null || owner == null || prev == null || prev.job != j) {
            mainThreadHold = j == null ? null : new HoldSample(0, j, now, false);
            return;
        }
        long held = now - prev.sinceNanos;
        if (!prev.reported && held >= thresholdNanos) {
            mainThreadHold = new HoldSample(0, j, prev.sinceNanos, true);
            long ms = held / 1_000_000L;
            sink.accept(new WatchdogReport(WatchdogReport.Kind.BLOCKED_WORKER, j.name(), "main-thread job '"
                    + j.name() + "' has held the main thread (" + owner.getName() + ") for " + ms + " ms: the"
                    + " game loop cannot go on until it returns. Waiting inside it on a counter that the loop"
                    + " itself completes later, it never returns; a long upload or blocking call holds the frame."
                    + " Keep main-thread jobs short: wait in a job, and post only the GL part with onMainThread.",
                    ms, WatchdogReport.stackOf(owner), List.of()));
        }
    }

    /**
     * Main-thread jobs queued for the threshold while no thread has ever run them: a program that never
     * called {@code bindMainThread} or {@code runMainThreadJobs} (the assets README's loop, written on a
     * thread nobody bound) waits for its uploads for ever, and no fiber-based check sees the main thread.
     * One report per such stretch.
     */
    private void checkNobodyRunsMainThreadJobs(long now) {
        String hint = scheduler.mainThread.nobodyRunsThemHint();
        if (hint.isEmpty()) {
            unrunMainThreadJobsSince = 0;
            unrunMainThreadJobsReported = false;
            return;
        }
        if (unrunMainThreadJobsSince == 0) {
            unrunMainThreadJobsSince = now;
            return;
        }
        long ms = (now - unrunMainThreadJobsSince) / 1_000_000L;
        if (!unrunMainThreadJobsReported && now - unrunMainThreadJobsSince >= thresholdNanos) {
            unrunMainThreadJobsReported = true;
            sink.accept(new WatchdogReport(WatchdogReport.Kind.LONG_WAIT, "main-thread jobs", "for at least " + ms
                    + " ms " + hint + ".", ms, List.of(), List.of()));
        }
    }

    /**
     * Jobs whose fiber is parked, but not in a Counter wait: a sleep, a monitor or a
     * java.util.concurrent lock, Object.wait, LockSupport.park. Seen as: the fiber has a job, no wait
     * node, is mounted on no worker and its virtual thread is WAITING, TIMED_WAITING or BLOCKED. The
     * sample is kept while the same job stays so; one report per such stretch.
     */
    private void checkParkedElsewhere(long now) {
        Set<Fiber> mounted = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Worker w : scheduler.workers) {
            Fiber f = w.mounted;
            if (f != null) {
                mounted.add(f);
            }
        }
        for (Fiber f : scheduler.fibers.all()) {
            Object j = heldBy(f);
            Thread.State st = j != null && f.waitNode == null && !mounted.contains(f) ? f.thread.getState() : null;
            boolean elsewhere = st == Thread.State.WAITING || st == Thread.State.TIMED_WAITING
                    || st == Thread.State.BLOCKED;
            if (!elsewhere) {
                parkedElsewhere.remove(f);
                continue;
            }
            ElsewhereSample s = parkedElsewhere.get(f);
            if (s == null || s.job() != j) {
                parkedElsewhere.put(f, new ElsewhereSample(j, now, false));
                continue;
            }
            if (!s.reported() && now - s.sinceNanos() >= thresholdNanos) {
                parkedElsewhere.put(f, new ElsewhereSample(j, s.sinceNanos(), true));
                long ms = (now - s.sinceNanos()) / 1_000_000L;
                String how = st == Thread.State.BLOCKED ? "blocked on a monitor" : "parked outside Weft's waits";
                if (j instanceof String failed) {
                    sink.accept(new WatchdogReport(WatchdogReport.Kind.LONG_WAIT, failed, "the uncaught-failure"
                            + " handler, reporting the failure of job '" + failed + "', has been " + how + " for at"
                            + " least " + ms + " ms (a logger's lock? see its stack; fiber " + f.thread.getName()
                            + "). Its worker runs other jobs meanwhile, but close() waits for it to return.", ms,
                            WatchdogReport.stackOf(f.thread), List.of()));
                    continue;
                }
                JobNode job = (JobNode) j;
                sink.accept(new WatchdogReport(WatchdogReport.Kind.LONG_WAIT, job.name(), "job '" + job.name()
                        + "' has been " + how + " for at least " + ms + " ms (Thread.sleep, a lock, a monitor, "
                        + "Object.wait: see its stack; fiber " + f.thread.getName() + "). Its worker runs other "
                        + "jobs meanwhile; to wait for other jobs, wait on a Counter.", ms,
                        WatchdogReport.stackOf(f.thread), List.of()));
            }
        }
        parkedElsewhere.keySet().removeIf(f -> heldBy(f) == null);
    }
}
