package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.await;
import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Defects found by {@link SoakTest} and {@link FaultInjectionTest}, each reduced to the smallest program
 * that shows it. Every test here failed on the code it was written against (commit fae3dfe) and passes
 * since the fix (commit 3459ad4); they stay as regression tests.
 */
@Timeout(120)
class SoakFindingsTest {
    private final List<String> uncaught = Collections.synchronizedList(new ArrayList<>());
    private Thread.UncaughtExceptionHandler previous;

    @BeforeEach
    void recordUncaughtExceptions() {
        previous = Thread.getDefaultUncaughtExceptionHandler();
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(t.getName() + ": " + e));
    }

    @AfterEach
    void restore() {
        Thread.setDefaultUncaughtExceptionHandler(previous);
    }

    /** Occupies the only worker with a job of {@code counter} until {@code release} is set. */
    private static void occupyTheWorker(JobSystem jobs, Counter counter, AtomicBoolean release, AtomicBoolean ended) {
        Counter started = new Counter("started");
        started.add(1);
        jobs.run(Priority.NORMAL, "P", () -> {
            started.decrement();
            while (!release.get()) {
                Thread.onSpinWait();
            }
            ended.set(true);
        }, counter);
        await(started);
    }

    /**
     * JobHandle.cancel() completes a queued handle (NEW → CANCELLED) but leaves its node in the queue.
     * shutdownNow() then takes the node out and calls Scheduler.cancelledBeforeStart, which completes it
     * again because its guard is {@code state() == CANCELLED || tryCancel()}. The handle's counter is
     * decremented twice: a counter shared with a job still running reaches zero early (its waiters wake
     * while that job runs), and shutdownNow() throws "decremented below zero" from the handle's own
     * counter. The same second completion happens in admit() when a worker reaches the node while
     * stopping. Found by the soak (SHUTDOWN_NOW_MIDWAY lifetimes).
     */
    @Test
    void aHandleCancelledWhileQueuedIsNotCompletedAgainByShutdownNow() throws Exception {
        JobSystem jobs = system(1);
        Counter batch = new Counter("batch");
        AtomicBoolean release = new AtomicBoolean();
        AtomicBoolean pEnded = new AtomicBoolean();
        occupyTheWorker(jobs, batch, release, pEnded);
        JobHandle<Integer> h = jobs.submit(Priority.NORMAL, "H", () -> 1, batch);
        assertTrue(h.cancel(), "H had not started");
        assertEquals(1, batch.value(), "only P is left in the batch");
        try {
            assertDoesNotThrow(jobs::shutdownNow);
            assertEquals(1, batch.value(), "P is still running, so its counter must not be done yet");
            assertFalse(batch.isDone());
        } finally {
            release.set(true);
            assertTrue(jobs.awaitTermination(LONG));
        }
        assertTrue(pEnded.get());
        assertEquals(0, batch.value());
        assertEquals(1, jobs.stats().jobsCancelled(), "H was cancelled once");
        assertEquals(List.of(), uncaught);
    }

    /**
     * The same second completion through a group: H (inheriting the group of the job that submitted it)
     * is cancelled while queued, then the group is cancelled; when the worker reaches H, admit() sees the
     * group's flag and completes H again. Its counter goes below zero inside admit(), on the fiber, and
     * the exception kills that fiber ("Exception in thread weft-fiber-N").
     */
    @Test
    void aHandleCancelledWhileQueuedIsNotCompletedAgainWhenItsGroupIsCancelled() {
        try (JobSystem jobs = system(1)) {
            JobGroup level = jobs.newGroup("level");
            Counter batch = new Counter("level batch");
            AtomicBoolean release = new AtomicBoolean();
            AtomicInteger qRan = new AtomicInteger();
            List<JobHandle<Integer>> handle = Collections.synchronizedList(new ArrayList<>());
            Counter submitted = new Counter("submitted");
            submitted.add(1);
            level.run(Priority.NORMAL, "loader", () -> {
                jobs.run(Priority.NORMAL, "Q", qRan::incrementAndGet, batch);          // both inherit the group
                handle.add(jobs.submit(Priority.NORMAL, "H", () -> 1, batch));        // popped first (LIFO)
                submitted.decrement();
                while (!release.get()) {
                    Thread.onSpinWait();                                             // keep the worker busy
                }
            }, null);
            await(submitted);
            assertTrue(handle.get(0).cancel());
            assertEquals(1, batch.value(), "only Q is left");
            level.cancel();
            release.set(true);
            await(batch);
            TestSupport.sleepMillis(50);
            assertEquals(List.of(), uncaught, "no thread may die of an uncaught exception");
            assertEquals(0, qRan.get());
            assertEquals(2, jobs.stats().jobsCancelled(), "H and Q, once each");
        }
    }

    /**
     * close() promises to run everything submitted, but termination counts only fibers parked in Weft's
     * own waits (parkedFibers). A job parked by the JDK instead — Thread.sleep, a monitor or
     * ReentrantLock held by a plain thread, a BlockingQueue, a CompletableFuture.get — is invisible: the
     * last worker to idle sees "quiescent", terminates, and the job is stranded. When it wakes, its
     * continuation goes to a queue no worker will ever read: it never finishes, its counter never
     * completes, and stats().fibersAlive() stays 1 after close(). Found while writing FaultInjectionTest.
     */
    @Test
    void closeRunsAJobThatIsSleeping() {
        JobSystem jobs = system(1);
        Counter done = new Counter("sleeper");
        AtomicBoolean finished = new AtomicBoolean();
        Counter started = new Counter("started");
        started.add(1);
        jobs.run(Priority.NORMAL, "sleeper", () -> {
            started.decrement();
            Thread.sleep(300);                    // parks the fiber (JDK 25 unmounts it), not the worker
            finished.set(true);
        }, done);
        await(started);
        jobs.close();
        assertTrue(finished.get(), "close() returned before the job it had to run finished");
        assertEquals(0, done.value());
        assertEquals(0, jobs.stats().fibersAlive());
    }

    /** The same through a monitor held by a plain thread (JDK 25: the contending fiber unmounts). */
    @Test
    void closeRunsAJobBlockedOnAMonitorHeldByAPlainThread() throws Exception {
        JobSystem jobs = system(1);
        Object monitor = new Object();
        Counter done = new Counter("contender");
        AtomicBoolean finished = new AtomicBoolean();
        Counter holding = new Counter("holding");
        holding.add(1);
        Thread holder = new Thread(() -> {
            synchronized (monitor) {
                holding.decrement();
                TestSupport.sleepMillis(300);
            }
        }, "plain monitor holder");
        holder.start();
        await(holding);
        jobs.run(Priority.NORMAL, "contender", () -> {
            synchronized (monitor) {
                finished.set(true);
            }
        }, done);
        TestSupport.sleepMillis(50);             // the contender is blocked on the monitor by now
        jobs.close();
        holder.join();
        assertTrue(finished.get(), "close() returned before the job it had to run finished");
        assertEquals(0, done.value());
        assertEquals(0, jobs.stats().fibersAlive());
    }

    /**
     * close() from inside a job ("every method may be called from any thread"): the job parks in
     * awaitTermination's CountDownLatch, which termination does not count, so the system terminates and
     * the job is stranded as above — close() never returns to it and its counter never completes.
     * Either outcome would be fine: close() throwing IllegalStateException inside a job, or acting as
     * shutdown() there; stranding the caller is not.
     */
    @Test
    void closeCalledInsideAJobDoesNotStrandIt() {
        JobSystem jobs = system(2);
        Counter done = new Counter("closer");
        jobs.run(Priority.NORMAL, "closer", jobs::close, done);
        assertTrue(done.await(LONG) || done.failure() != null, "the job that called close() never ended");
        TestSupport.eventually("terminated", jobs::isTerminated);
        assertEquals(0, jobs.stats().fibersAlive());
    }

    /**
     * JobGroup: "every job submitted through the group, and every job those jobs submit in turn, belongs
     * to it". Scheduler.onMainThread builds the handle with inheritedGroup(null), which is always null,
     * so a main-thread job submitted by a group's job is not in the group: after group.cancel() it still
     * runs on the main thread (an upload for a level being unloaded).
     */
    @Test
    void aMainThreadJobSubmittedByAGroupsJobBelongsToTheGroup() {
        try (JobSystem jobs = system(1)) {
            jobs.bindMainThread();
            JobGroup level = jobs.newGroup("level");
            AtomicInteger uploads = new AtomicInteger();
            List<JobHandle<Integer>> upload = Collections.synchronizedList(new ArrayList<>());
            // Poll rather than join: a join on the main thread would run the queued upload while it waits.
            level.submit(() -> upload.add(jobs.onMainThread("upload", uploads::incrementAndGet)));
            TestSupport.eventually("the upload was queued", () -> !upload.isEmpty());
            level.cancel();
            jobs.runMainThreadJobs(Long.MAX_VALUE);
            assertEquals(0, uploads.get(), "the upload of a cancelled level ran");
            assertTrue(upload.get(0).isCancelled());
        }
    }

    /**
     * A main-thread job still queued at termination is cancelled by awaitTermination: MainThreadMailbox
     * .cancelAll() calls JobHandle.cancel(), whose cancelledBeforeStart already adds it to the report
     * (the system is past STOPPING), and awaitTermination then adds cancelAll's list again.
     */
    @Test
    void shutdownNowReportsAMainThreadJobCancelledAtTerminationOnce() {
        JobSystem jobs = system(1);
        JobHandle<Integer> left = jobs.onMainThread("left for the main thread", () -> 1);   // nobody drains it
        assertClosingReportsOnce(jobs, left);
    }

    /**
     * CI found the test above reporting the job twice: the one worker reached TERMINATED (≥ STOPPING)
     * before close() cancelled the unowned queue, so completeCancelled listed the job and close() then
     * added its own list of the same job. Here the workers terminate first on purpose, every time.
     */
    @Test
    void aMainThreadJobCancelledByCloseAfterTheWorkersTerminatedIsReportedOnce() {
        JobSystem jobs = system(1);
        JobHandle<Integer> left = jobs.onMainThread("left for the main thread", () -> 1);   // nobody drains it
        jobs.shutdown();
        TestSupport.eventually("the workers terminated", jobs::isTerminated);
        assertClosingReportsOnce(jobs, left);
    }

    /** close() cancels {@code left}, a queued main-thread job, and shutdownNow's report lists it exactly once. */
    private static void assertClosingReportsOnce(JobSystem jobs, JobHandle<Integer> left) {
        jobs.close();
        assertTrue(left.isCancelled());
        List<JobInfo> reported = jobs.shutdownNow();
        assertEquals(1, reported.stream().filter(i -> i.name().equals("left for the main thread")).count(),
                "reported: " + reported);
        assertEquals(1, jobs.stats().jobsCancelled());
    }

    /**
     * Found by the soak after 3459ad4 (with the handle cancels it had avoided until then): cancel() on a
     * running handle calls cancelWait() on its runner fiber, which wakes whatever wait that fiber is
     * parked in — also the wait of another job that the handle's wait runs inline (helpBeforeWait runs
     * the unstarted jobs of the awaited counter nested on the same fiber). That nested job gets
     * JobCancelledException although it was not cancelled (Jobs.isCancelled() is false inside it), so
     * it cannot honour it: it fails, and the handle that was cancelled ends failed (JobFailedException,
     * isCancelled() false) instead of cancelled. Either the nested job's wait should be left alone (the
     * handle sees its cancellation when its own wait resumes), or the nested job should see the
     * cancellation as its own and the handle end cancelled.
     */
    @Test
    void cancellingAHandleDoesNotFailAJobItRunsInline() {
        try (JobSystem jobs = system(1)) {
            jobs.bindMainThread();
            List<String> childSaw = Collections.synchronizedList(new ArrayList<>());
            JobHandle<String> parent = jobs.submit(Priority.NORMAL, "parent", () -> {
                Counter kids = new Counter("kids");
                jobs.run(Priority.NORMAL, "child", () -> {
                    try {
                        jobs.onMainThread("upload", () -> 1).join();
                        childSaw.add("joined");
                    } catch (JobCancelledException e) {
                        childSaw.add("cancelled, Jobs.isCancelled()=" + Jobs.isCancelled());
                        throw e;
                    }
                }, kids);
                kids.await();                                  // runs the child inline, on this fiber
                Jobs.checkCancelled();
                return "done";
            });
            TestSupport.eventually("the inline child parked", () -> jobs.stats().fibersParked() == 1);
            assertFalse(parent.cancel(), "running: cancel() only asks");
            TestSupport.sleepMillis(50);
            jobs.runMainThreadJobs(Long.MAX_VALUE);
            TestSupport.eventually("the parent ended", parent::isDone);
            assertTrue(childSaw.isEmpty() || !childSaw.get(0).equals("cancelled, Jobs.isCancelled()=false"),
                    "the child was woken with a cancellation that is not its own: " + childSaw);
            assertTrue(parent.isCancelled(), "the cancelled handle ended " + parent);
        }
    }
}
