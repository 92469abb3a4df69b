package dev.weft;

import static dev.weft.TestSupport.LONG;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;

/** One job-system lifetime of {@link SoakTest}: builds a random graph, runs it to a random ending, then audits it. */
final class SoakLifetime extends SoakAudit {
    SoakLifetime(int workers, int life, long seed, Ending ending) {
        super(workers, life, seed, ending);
    }

    void run(Totals totals) {
        // A lifetime takes well under a second; one that hangs prints what every thread is doing and
        // is stopped, so a hang fails this test with a dump instead of running into CI's time limit.
        var hangGuard = HANG_GUARD.schedule(() -> {
            System.err.println("soak: " + name + " (seed 0x" + Long.toHexString(seed) + ", " + ending
                    + ", waitersHelp " + helping + ") still running after " + LIFETIME_LIMIT_SECONDS
                    + " s: stopping it\n" + dump());
            hung = true;
            JobSystem j = jobs;
            if (j != null) {
                j.shutdownNow();
            }
            mainThread.interrupt();
        }, LIFETIME_LIMIT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
        try {
            runAndAudit(totals);
            if (hung) {
                fail("hung for " + LIFETIME_LIMIT_SECONDS + " s (thread dump on stderr)");
            }
        } catch (AssertionError | RuntimeException e) {
            if (hung) {
                throw new AssertionError("hung for " + LIFETIME_LIMIT_SECONDS + " s (thread dump on stderr)", e);
            }
            throw e;
        } finally {
            hangGuard.cancel(false);
            Thread.interrupted();                   // the guard's interrupt must not reach the next lifetime
            if (jobs != null) {                   // after a failure: stop, and unbind the main thread
                try {
                    jobs.shutdownNow();
                } catch (RuntimeException e) {
                    e.printStackTrace();
                }
                try {
                    jobs.awaitTermination(LONG);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        }
    }

    private void runAndAudit(Totals totals) {
        int n = MAX_TOP_JOBS / 4 + rnd.nextInt(MAX_TOP_JOBS * 3 / 4);
        int stopAt = rnd.nextInt(n);
        int cancelGroupAt = rnd.nextInt(3) == 0 ? rnd.nextInt(n) : -1;
        build(n);
        helping = rnd.nextBoolean();                       // both ways a waiting main thread behaves
        JobSystemBuilder builder = JobSystem.builder().name(name).workers(workers).waitersHelp(helping)
                .onUncaughtFailure((job, t) -> uncaught.incrementAndGet());
        if (rnd.nextInt(3) == 0) {
            builder.idleStrategy(IdleStrategy.backoff(0, 0));    // park at once: every hand-off wakes someone
        }
        jobs = builder.build();
        groups = new JobGroup[] {jobs.newGroup(name + "-g0"), jobs.newGroup(name + "-g1"), jobs.newGroup(name + "-g2")};
        jobs.bindMainThread();
        if (ending == Ending.SHUTDOWN_NOW_FROM_A_JOB) {
            top[rnd.nextInt(n)].b.shutdownNow = true;
        }
        Thread closer = null;
        if (ending == Ending.CLOSE_FROM_OTHER_THREAD || ending == Ending.SHUTDOWN_NOW_FROM_OTHER_THREAD) {
            long delayNanos = rnd.nextLong(3_000_000L);
            closer = new Thread(() -> {
                long until = System.nanoTime() + delayNanos;
                while (System.nanoTime() < until) {
                    Thread.onSpinWait();
                }
                if (ending == Ending.CLOSE_FROM_OTHER_THREAD) {
                    jobs.close();
                } else {
                    nowList.compareAndSet(null, jobs.shutdownNow());
                }
            }, name + "-closer");
            closer.start();
        }
        int groupCancels = 0;
        int[] order = windowedShuffle(n);
        for (int idx = 0; idx < n; idx++) {
            if (idx == stopAt && ending == Ending.SHUTDOWN_MIDWAY) {
                jobs.shutdown();
            } else if (idx == stopAt && ending == Ending.SHUTDOWN_NOW_MIDWAY) {
                nowList.compareAndSet(null, jobs.shutdownNow());
            }
            if (idx == cancelGroupAt) {
                groups[rnd.nextInt(groups.length)].cancel();
                groupCancels++;
            }
            submitTop(order[idx]);
            if (rnd.nextInt(20) == 0) {
                Rec target = top[order[rnd.nextInt(idx + 1)]];
                JobHandle<?> h = target.handle;
                if (h != null && mayCancel(target)) {
                    h.cancel();
                    handleCancels.increment();
                }
            }
            if ((idx & 31) == 31) {
                jobs.runMainThreadJobs(200_000);
            }
        }
        waitForTopLevel();
        if (ending == Ending.DRAIN_THEN_CLOSE) {
            jobs.close();
        } else if (ending == Ending.SHUTDOWN_NOW_AFTER_DRAIN) {
            nowList.compareAndSet(null, jobs.shutdownNow());
        } else {
            jobs.shutdown();        // the endings that only cancel still need the workers stopped
        }
        try {
            // On the main thread this keeps running main-thread jobs (a closer thread's close() may
            // be waiting for a job that joins one), so only then join the closer.
            if (!jobs.awaitTermination(LONG)) {
                fail(jobs + " did not terminate within " + LONG + "\n" + dump());
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        if (closer != null) {
            join(closer);
        }
        audit(totals, groupCancels);
    }

    private void build(int n) {
        top = new Rec[n];
        finished = new Counter[n];
        gate = new Counter[n];
        groupOf = new int[n];
        for (int i = 0; i < n; i++) {
            Behaviour b = behaviour(rnd, 0);
            int k = i == 0 ? 0 : rnd.nextInt(4);
            b.deps = new int[k];
            for (int d = 0; d < k; d++) {
                b.deps[d] = i - 1 - rnd.nextInt(Math.min(i, 64));
            }
            if (rnd.nextInt(15) == 0) {
                b.cancelTop = rnd.nextInt(n);
            }
            b.pollMicros = rnd.nextInt(20) == 0 ? 1 + rnd.nextInt(50) : 0;
            groupOf[i] = rnd.nextInt(4) - 1;          // -1: no group
            int kind = rnd.nextInt(3);                 // 0 pooled with counter, 1 handle, 2 handle + counter
            Rec r = new Rec(name + "-t" + i, false, false, b);
            r.submitKind = kind;
            r.hasCounter = kind == 0 || (kind == 2 && groupOf[i] < 0);
            top[i] = r;
            finished[i] = new Counter(r.name);
            gate[i] = new Counter(r.name + "-submitted");
            gate[i].add(1);
            counters.add(finished[i]);
            counters.add(gate[i]);
            all.add(r);
        }
    }

    private Behaviour behaviour(SplittableRandom r, int depth) {
        Behaviour b = new Behaviour();
        b.depth = depth;
        b.seed = r.nextLong();
        b.timedWaits = r.nextBoolean();
        if (depth < 2 && r.nextInt(depth == 0 ? 8 : 20) == 0) {
            b.children = 2 + r.nextInt(4);
            b.childKind = r.nextInt(5);
        }
        int m = r.nextInt(40);
        b.mainCall = m == 0 ? 1 : m == 1 ? 2 : 0;
        int f = r.nextInt(60);
        b.fail = f < 3 ? f + 1 : 0;
        return b;
    }

    private int[] windowedShuffle(int n) {
        int[] order = new int[n];
        for (int i = 0; i < n; i++) {
            order[i] = i;
        }
        for (int w = 0; w < n; w += 32) {
            int end = Math.min(n, w + 32);
            for (int i = end - 1; i > w; i--) {
                int j = w + rnd.nextInt(i - w + 1);
                int t = order[i];
                order[i] = order[j];
                order[j] = t;
            }
        }
        return order;
    }

    private void submitTop(int i) {
        Rec r = top[i];
        Priority p = Priority.VALUES[rnd.nextInt(3)];
        JobGroup g = groupOf[i] >= 0 ? groups[groupOf[i]] : null;
        int kind = r.submitKind;
        try {
            if (kind == 0) {
                if (g != null) {
                    g.run(p, r.name, () -> body(r), finished[i]);
                } else {
                    jobs.run(p, r.name, () -> body(r), finished[i]);
                }
            } else if (g != null) {
                r.handle = g.submit(p, r.name, () -> body(r));     // groups take no counter with submit
            } else {
                r.handle = jobs.submit(p, r.name, () -> body(r), kind == 2 ? finished[i] : null);
            }
            r.submitted = true;
        } catch (RejectedExecutionException expected) {
            rejected.increment();
        }
        gate[i].decrement();                        // publishes r.handle / r.submitted to waiters
    }

    /** The body of every job: does what its behaviour says and records what happened. */
    Object body(Rec r) throws Exception {
        if (r.runs.incrementAndGet() != 1) {
            violation(r.name + " ran " + r.runs.get() + " times");
        }
        if (r.onMain) {
            mainStarts.incrementAndGet();
            if (Thread.currentThread() != mainThread) {
                violation(r.name + ": main-thread job ran on " + Thread.currentThread());
            }
        } else {
            workerStarts.increment();
            if (!Jobs.inFiber()) {
                // Only a waiting main thread may run a job outside a fiber (waitersHelp), as worker
                // number workerCount().
                if (!helping || Thread.currentThread() != mainThread || Jobs.workerIndex() != workers) {
                    violation(r.name + ": job ran outside a fiber on " + Thread.currentThread()
                            + " (worker index " + Jobs.workerIndex() + ", waitersHelp " + helping + ")");
                } else {
                    helpedStarts.increment();
                }
            }
        }
        Behaviour b = r.b;
        try {
            for (int d : b.deps) {
                waitForTop(r, d, b.timedWaits);
            }
            if (b.children > 0) {
                spawnChildren(r, b);
            }
            if (b.mainCall != 0 && !r.onMain) {
                callMainThread(r, b);
            }
            if (b.cancelTop >= 0) {
                JobHandle<?> h = top[b.cancelTop].handle;
                if (h != null && mayCancel(top[b.cancelTop])) {
                    h.cancel();
                    handleCancels.increment();
                }
            }
            if (b.shutdownNow) {
                nowList.compareAndSet(null, jobs.shutdownNow());
            }
            if (b.pollMicros > 0) {
                long until = System.nanoTime() + b.pollMicros * 1000L;
                while (System.nanoTime() < until) {
                    Jobs.checkCancelled();
                    Thread.onSpinWait();
                }
            }
            if (b.fail != 0) {
                r.outcome = FAILED;
                switch (b.fail) {
                    case FAIL_UNCHECKED -> {
                        unchecked.increment();
                        r.thrown = new IllegalStateException("injected unchecked failure in " + r.name);
                    }
                    case FAIL_CHECKED -> {
                        checked.increment();
                        r.thrown = new IOException("injected checked failure in " + r.name);
                    }
                    default -> {
                        errors.increment();
                        r.thrown = new InjectedError("injected Error in " + r.name);
                    }
                }
                throwIt(r.thrown);
            }
            r.outcome = OK;
            return r.name;
        } catch (JobCancelledException e) {
            if (r.outcome == NONE && Jobs.isCancelled()) {
                r.outcome = HONOURED;
                honoured.increment();
                throw e;
            }
            r.outcome = UNEXPECTED;
            violation(r.name + ": unexpected " + e);
            throw e;
        } catch (Exception | Error e) {
            if (r.outcome == FAILED && e == r.thrown) {
                throw e;
            }
            r.outcome = UNEXPECTED;
            violation(r.name + ": unexpected " + e + stackOf(e));
            throw e;
        }
    }

    /** Every handle may be cancelled (the double completion of 3459ad4 is fixed). */
    private boolean mayCancel(Rec target) {
        return target != null;
    }

    private static void throwIt(Throwable t) throws Exception {
        if (t instanceof Exception e) {
            throw e;
        }
        throw (Error) t;
    }

    /** Waits for top-level job {@code d} and checks that the wait reported exactly its outcome. */
    private void waitForTop(Rec waiter, int d, boolean timed) {
        awaitCounter(gate[d], timed, waiter);          // a cancellation here is ours (honoured by body())
        Rec dep = top[d];
        if (!dep.submitted) {
            return;                                   // refused at submission: nothing to wait for
        }
        JobHandle<?> h = dep.handle;
        boolean viaHandle = h != null && (!dep.hasCounter || (d & 1) == 0);
        try {
            if (viaHandle) {
                if (timed) {
                    try {
                        h.join(JOB_WAIT);
                    } catch (TimeoutException e) {
                        waitTimeouts.incrementAndGet();
                        violation(waiter.name + ": join of " + dep.name + " timed out");
                        return;
                    }
                } else {
                    h.join();
                }
            } else {
                awaitCounter(finished[d], timed, waiter);
            }
            int o = dep.outcome;
            if (o == FAILED || o == UNEXPECTED || (viaHandle && o != OK)) {
                violation(waiter.name + " woke normally from " + dep.name + " whose outcome is " + o);
            }
        } catch (JobFailedException e) {
            if (dep.outcome != FAILED || e.getCause() != dep.thrown) {
                violation(waiter.name + " got " + e + " from " + dep.name + " whose outcome is " + dep.outcome);
            }
        } catch (JobCancelledException e) {
            if (Jobs.isCancelled()) {
                throw e;                              // the waiter itself was cancelled: it honours it
            }
            if (!viaHandle || !h.isCancelled()) {
                violation(waiter.name + " got " + e + " waiting on " + dep.name + " (handle " + h + ")");
            }
        }
    }

    private void awaitCounter(Counter c, boolean timed, Rec waiter) {
        if (!timed) {
            c.await();
        } else if (!c.await(JOB_WAIT)) {
            waitTimeouts.incrementAndGet();
            violation(waiter.name + ": wait on " + c + " timed out after " + JOB_WAIT);
        }
    }

    private void spawnChildren(Rec parent, Behaviour b) {
        SplittableRandom r = new SplittableRandom(b.seed);
        Counter kids = new Counter(parent.name + "-kids");
        counters.add(kids);
        Priority p = Priority.VALUES[r.nextInt(3)];
        List<Rec> made = new ArrayList<>();
        AtomicIntegerArray coverage = null;
        try {
            switch (b.childKind) {
                case 0, 1, 4 -> {
                    for (int c = 0; c < b.children; c++) {
                        Rec child = child(parent, r, b.childKind == 4);
                        made.add(child);
                        if (b.childKind == 1) {
                            child.handle = jobs.submit(p, child.name, () -> body(child), kids);
                        } else {
                            jobs.run(p, child.name, () -> body(child), b.childKind == 4 ? null : kids);
                        }
                        child.submitted = true;
                    }
                }
                case 2 -> {
                    Job[] batch = new Job[b.children];
                    for (int c = 0; c < b.children; c++) {
                        Rec child = child(parent, r, false);
                        made.add(child);
                        batch[c] = () -> body(child);
                    }
                    jobs.runAll(p, kids, batch);      // inside a job: all of the batch or none of it
                    made.forEach(c -> c.submitted = true);
                }
                default -> {
                    int length = 16 + r.nextInt(500);
                    AtomicIntegerArray cov = new AtomicIntegerArray(length);
                    jobs.parallelFor(p, 0, length, 1 + r.nextInt(64), (s, e, w) -> {
                        rangeBodies.increment();
                        if (!Jobs.inFiber()) {
                            helpedRangePieces.increment();
                        }
                        for (int k = s; k < e; k++) {
                            cov.incrementAndGet(k);
                        }
                    }, kids);
                    coverage = cov;                    // submitted (a refused one throws first)
                    ranges.add(cov);
                }
            }
        } catch (RejectedExecutionException refused) {
            rejected.increment();
        }
        boolean timed = r.nextBoolean();
        try {
            awaitCounter(kids, timed, parent);
            if (coverage != null && !Jobs.isCancelled()) {
                for (int k = 0; k < coverage.length(); k++) {
                    if (coverage.get(k) != 1) {
                        violation(parent.name + ": parallelFor element " + k + " ran " + coverage.get(k)
                                + " times though nothing was cancelled");
                        break;
                    }
                }
            }
            for (Rec c : made) {
                if (!c.counterless && c.outcome == FAILED) {
                    violation(parent.name + ": child " + c.name + " failed but the wait on its counter did not throw");
                }
            }
        } catch (JobFailedException e) {
            boolean ours = made.stream().anyMatch(c -> c.thrown == e.getCause());
            if (!ours) {
                violation(parent.name + ": children's counter failed with a stranger's failure " + e);
            }
        }
    }

    private Rec child(Rec parent, SplittableRandom r, boolean orphan) {
        Behaviour cb = behaviour(r, parent.b.depth + 1);
        Rec c = new Rec(parent.name + "-c" + childIds.incrementAndGet(), false, orphan, cb);
        all.add(c);
        return c;
    }

    private void callMainThread(Rec parent, Behaviour b) {
        Behaviour mb = new Behaviour();
        mb.fail = b.fail == 0 && (b.seed & 7) == 0 ? FAIL_UNCHECKED : 0;
        Rec m = new Rec(parent.name + "-main", true, false, mb);
        all.add(m);
        JobHandle<Object> h;
        try {
            h = jobs.onMainThread(m.name, () -> body(m));
        } catch (RejectedExecutionException refused) {
            rejected.increment();
            return;
        }
        m.handle = h;
        m.submitted = true;
        if (b.mainCall != 1) {
            return;                                   // fire and forget
        }
        try {
            if (b.timedWaits) {
                h.join(JOB_WAIT);
            } else {
                h.join();
            }
            if (m.outcome != OK) {
                violation(parent.name + ": main-thread job returned but its outcome is " + m.outcome);
            }
        } catch (TimeoutException e) {
            waitTimeouts.incrementAndGet();
            violation(parent.name + ": join of main-thread job timed out");
        } catch (JobFailedException e) {
            if (m.outcome != FAILED || e.getCause() != m.thrown) {
                violation(parent.name + ": main-thread join threw " + e + " but outcome is " + m.outcome);
            }
        } catch (JobCancelledException e) {
            if (Jobs.isCancelled()) {
                throw e;
            }
            if (!h.isCancelled()) {
                violation(parent.name + ": main-thread join threw " + e + " though the job was not cancelled");
            }
        }
    }

    /** The test thread waits for every top-level job (running main-thread jobs meanwhile). */
    private void waitForTopLevel() {
        // A timed wait never helps (JobSystemBuilder.waitersHelp), so with timed waits alone the helping
        // lifetimes never ran a job on the main thread: half of them wait untimed, and help. A hang there
        // is still caught: the hang guard's shutdownNow ends every job, and so the untimed wait.
        boolean untimed = helping && rnd.nextBoolean();
        for (int i = 0; i < top.length; i++) {
            Rec r = top[i];
            if (!r.submitted) {
                continue;
            }
            try {
                JobHandle<?> h = r.handle;
                if (untimed) {
                    if (h != null) {
                        h.join();
                    } else {
                        finished[i].await();
                    }
                } else if (h != null) {
                    h.join(LONG);
                } else if (!finished[i].await(LONG)) {
                    fail("top-level job " + r.name + " did not end within " + LONG + "\n" + dump());
                }
            } catch (TimeoutException e) {
                fail("top-level job " + r.name + " did not end within " + LONG + "\n" + dump());
            } catch (JobFailedException | JobCancelledException expected) {
                // checked per job in audit()
            }
        }
    }
}
