package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * {@link Jobs#blocking}: a blocking call runs on a platform thread while the job's fiber parks, so it never
 * holds a worker; the fiber resumes with the result or the exception; cancelling the job abandons the
 * wait; the watchdog tells a blocking call inside {@code Jobs.blocking} from one outside it.
 */
class BlockingCallTest {

    /**
     * One worker: while a job is blocked in {@code Jobs.blocking}, 100 other jobs still run on that worker.
     * (Were the call run on the fiber, the worker would be held and none of them could start.)
     */
    @Test
    void aBlockingCallDoesNotHoldTheWorker() throws Exception {
        Process cat = new ProcessBuilder("cat").start();    // a pipe read holds the carrier until we write
        try (JobSystem jobs = TestSupport.system(1)) {
            AtomicReference<Thread> callThread = new AtomicReference<>();
            JobHandle<Integer> blocked = jobs.submit(() -> Jobs.blocking(() -> {
                callThread.set(Thread.currentThread());
                return cat.getInputStream().read();  // the "disk": stuck until the test writes a byte
            }));
            try {
                List<JobHandle<Integer>> others = new ArrayList<>();
                for (int i = 0; i < 100; i++) {
                    int n = i;
                    others.add(jobs.submit(() -> n));
                }
                for (int i = 0; i < 100; i++) {
                    assertEquals(i, others.get(i).join(TestSupport.LONG),
                            "the blocked job held the only worker");
                }
                assertFalse(blocked.isDone());
            } finally {
                cat.getOutputStream().write(42);
                cat.getOutputStream().flush();
            }
            assertEquals(42, TestSupport.join(blocked));
            assertTrue(callThread.get().getName().startsWith(jobs.name() + "-blocking-"),
                    "the call ran on " + callThread.get());
            assertFalse(callThread.get().isVirtual());
        } finally {
            cat.destroyForcibly();
        }
    }

    /** The fiber resumes with the call's result, or with exactly what it threw: checked, unchecked, Error. */
    @Test
    void theFiberResumesWithTheResultOrTheSameException() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            assertEquals("bytes", TestSupport.join(jobs.submit(() -> Jobs.blocking(() -> "bytes"))));
            for (Throwable thrown : List.of(new IOException("rock.obj: no such file"),
                    new IllegalArgumentException("bad"), new AssertionError("broken"))) {
                Throwable seen = TestSupport.join(jobs.submit(() -> {
                    try {
                        Jobs.blocking(() -> {
                            if (thrown instanceof Exception e) {
                                throw e;
                            }
                            throw (Error) thrown;
                        });
                        return null;
                    } catch (Exception | Error e) {
                        return e;
                    }
                }));
                assertSame(thrown, seen);
            }
        }
    }

    /**
     * Cancelling a job waiting in {@code Jobs.blocking} ends its wait at once with JobCancelledException,
     * while the call is still stuck; the job system then closes without waiting for the call.
     */
    @Test
    void cancellingTheWaitingJobAbandonsTheWait() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch inCall = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean callReturned = new java.util.concurrent.atomic.AtomicBoolean();
        try (JobSystem jobs = TestSupport.system(2)) {
            JobHandle<Integer> h = jobs.submit(() -> Jobs.blocking(() -> {
                inCall.countDown();
                never.await();
                callReturned.set(true);
                return 1;
            }));
            assertTrue(inCall.await(TestSupport.LONG.toSeconds(), TimeUnit.SECONDS));
            TestSupport.eventually("the job parked in its wait", () -> jobs.stats().waits() > 0);
            h.cancel();
            assertThrows(JobCancelledException.class, () -> h.join(TestSupport.LONG));
            assertFalse(callReturned.get(), "the call returned: the wait was not abandoned, it finished");
        }
        never.countDown();
    }

    /**
     * A call still queued on its executor when its job is cancelled never starts: a level unloaded while its
     * reads wait behind others' reads no longer reads its files for nobody (found in a chunk-streaming
     * probe). A call already running runs to its end, as above.
     */
    @Test
    void aCallNotStartedWhenItsJobIsCancelledNeverRuns() throws Exception {
        ExecutorService lane = Executors.newSingleThreadExecutor(r -> new Thread(r, "io-lane"));
        CountDownLatch laneBusy = new CountDownLatch(1);
        CountDownLatch releaseLane = new CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean queuedCallRan = new java.util.concurrent.atomic.AtomicBoolean();
        try (JobSystem jobs = TestSupport.system(2)) {
            lane.execute(() -> {                           // another job's read, holding the lane's one thread
                laneBusy.countDown();
                try {
                    releaseLane.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertTrue(laneBusy.await(TestSupport.LONG.toSeconds(), TimeUnit.SECONDS));
            JobHandle<Boolean> h = jobs.submit(() -> Jobs.blocking(lane, () -> queuedCallRan.getAndSet(true)));
            TestSupport.eventually("the job parked in its wait", () -> jobs.stats().waits() > 0);
            h.cancel();
            assertThrows(JobCancelledException.class, () -> h.join(TestSupport.LONG));
            releaseLane.countDown();
            Future<?> behindIt = lane.submit(() -> { });   // the lane's queue is FIFO: past the cancelled call
            behindIt.get(TestSupport.LONG.toSeconds(), TimeUnit.SECONDS);
            assertFalse(queuedCallRan.get(), "the call ran after its job was cancelled, for nobody");
        } finally {
            releaseLane.countDown();
            lane.shutdownNow();
        }
    }

    /** Outside a job the call simply runs on the calling thread. */
    @Test
    void outsideAJobTheCallRunsOnTheCaller() throws Exception {
        Thread caller = Thread.currentThread();
        assertSame(caller, Jobs.blocking(Thread::currentThread));
        ExecutorService unused = Executors.newSingleThreadExecutor();
        try {
            assertSame(caller, Jobs.blocking(unused, Thread::currentThread));
        } finally {
            unused.shutdownNow();
        }
    }

    /** The given executor runs the call; one that refuses it gives an exception that says so. */
    @Test
    void anExecutorOfYourOwnRunsTheCallAndARefusalIsClear() throws Exception {
        ExecutorService lane = Executors.newSingleThreadExecutor(r -> new Thread(r, "io-lane"));
        try (JobSystem jobs = TestSupport.system(2)) {
            assertEquals("io-lane", TestSupport.join(jobs.submit(
                    () -> Jobs.blocking(lane, () -> Thread.currentThread().getName()))));
            lane.shutdown();
            Object refused = TestSupport.join(jobs.submit(() -> {
                try {
                    return (Object) Jobs.blocking(lane, () -> "ran");
                } catch (RejectedExecutionException e) {
                    return e;
                }
            }));
            assertTrue(refused instanceof RejectedExecutionException
                    && ((Throwable) refused).getMessage().contains("refused the call"), String.valueOf(refused));
        } finally {
            lane.shutdownNow();
        }
    }

    /**
     * The pool starts a thread only when no idle one can take the call. It had 64 core threads and a plain
     * queue, so the executor started a new thread for each of the first 64 calls, idle threads or not: 200
     * calls made one after another left 64 threads, and a steady 5 calls at a time kept all 64 alive (a
     * probe of a streaming game: 82 to 144 MB of RSS).
     */
    @Test
    void callsReuseIdleThreadsInsteadOfStartingOneEach() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            TestSupport.join(jobs.submit(() -> {
                for (int i = 0; i < 200; i++) {
                    Jobs.blocking(() -> null);
                }
                return null;
            }));
            int afterSequential = blockingThreads(jobs);
            Counter five = new Counter("five callers");
            for (int c = 0; c < 5; c++) {
                jobs.run(() -> {
                    for (int i = 0; i < 40; i++) {
                        Jobs.blocking(() -> {
                            Thread.sleep(1);
                            return null;
                        });
                    }
                }, five);
            }
            five.await();
            int afterConcurrent = blockingThreads(jobs);
            assertTrue(afterSequential <= 4, afterSequential + " threads for 200 calls made one after another");
            assertTrue(afterConcurrent <= 16, afterConcurrent + " threads for 5 callers at a time");
        }
    }

    /** More calls at once than the pool has threads: the rest wait in its queue, and every one runs. */
    @Test
    void callsBeyondTheThreadLimitWaitAndAllRun() throws Exception {
        int calls = BlockingPool.MAX_THREADS + 6;
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch started = new CountDownLatch(BlockingPool.MAX_THREADS);
        try (JobSystem jobs = TestSupport.system(2)) {
            Counter all = new Counter("calls");
            java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
            for (int c = 0; c < calls; c++) {
                jobs.run(() -> Jobs.blocking(() -> {
                    started.countDown();
                    release.await();
                    return ran.incrementAndGet();
                }), all);
            }
            assertTrue(started.await(TestSupport.LONG.toMillis(), TimeUnit.MILLISECONDS), "the pool's threads all started");
            assertEquals(BlockingPool.MAX_THREADS, blockingThreads(jobs), "threads at the limit");
            release.countDown();
            boolean done = all.await(TestSupport.LONG);
            if (!done) {
                jobs.shutdownNow();              // the jobs of lost calls would hold close() for ever
            }
            assertTrue(done, "every call ran: " + ran.get() + " of " + calls);
            assertEquals(calls, ran.get());
        }
    }

    private static int blockingThreads(JobSystem jobs) {
        String prefix = jobs.name() + "-blocking-";
        return (int) Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.getName().startsWith(prefix) && t.isAlive()).count();
    }

    /** The blocking threads stop when the job system terminates. */
    @Test
    void theBlockingThreadsStopWithTheJobSystem() throws Exception {
        JobSystem jobs = TestSupport.system(1);
        AtomicReference<Thread> callThread = new AtomicReference<>();
        TestSupport.join(jobs.submit(() -> Jobs.blocking(() -> {
            callThread.set(Thread.currentThread());
            return null;
        })));
        jobs.close();
        callThread.get().join(TestSupport.LONG.toMillis());
        assertFalse(callThread.get().isAlive(), callThread.get() + " outlived its job system");
    }

    /**
     * The watchdog reports a job parked in {@code Jobs.blocking} as a wait naming the call, not as a held
     * worker; the same read made directly on the fiber (a pipe read holds the carrier) is a held worker.
     */
    @Test
    void theWatchdogTellsABlockingCallInsideJobsBlockingFromOneOutside() throws Exception {
        List<WatchdogReport> reports = new CopyOnWriteArrayList<>();
        Process cat = new ProcessBuilder("cat").start();    // its stdout blocks until we write to its stdin
        try (JobSystem jobs = JobSystem.builder().workers(1).watchdog(Duration.ofMillis(100), reports::add)
                .build()) {
            InputStream pipe = cat.getInputStream();
            JobHandle<Integer> wrapped = jobs.submit(Priority.NORMAL, "reads wrapped",
                    () -> Jobs.blocking(new PipeRead(pipe)));
            TestSupport.eventually(() -> "a LONG_WAIT report naming Jobs.blocking, got " + reports,
                    () -> has(reports, WatchdogReport.Kind.LONG_WAIT, "reads wrapped", "Jobs.blocking(pipe read)"));
            cat.getOutputStream().write('a');
            cat.getOutputStream().flush();
            assertEquals('a', TestSupport.join(wrapped));
            // Only a report whose stack is in the read itself counts: a machine that stalls the job for 100 ms
            // before it parks (a GC pause, a busy host) may report it held, but not inside the read.
            assertFalse(reports.stream().anyMatch(r -> r.kind() == WatchdogReport.Kind.BLOCKED_WORKER
                    && r.jobName().equals("reads wrapped")
                    && r.stack().stream().anyMatch(e -> e.getClassName().endsWith("PipeRead"))),
                    "the wrapped read held the worker: " + reports);

            JobHandle<Integer> direct = jobs.submit(Priority.NORMAL, "reads directly", () -> pipe.read());
            TestSupport.eventually(() -> "a BLOCKED_WORKER report, got " + reports,
                    () -> has(reports, WatchdogReport.Kind.BLOCKED_WORKER, "reads directly", "Jobs.blocking"));
            cat.getOutputStream().write('b');
            cat.getOutputStream().flush();
            assertEquals('b', TestSupport.join(direct));
        } finally {
            cat.destroyForcibly();
        }
    }

    /**
     * Every blocking thread in a call that waits for a job whose own blocking call is queued behind them: a
     * loader's call that submits a decode job and joins it, the decode reading a file through
     * {@code Jobs.blocking}. Each waiting thread now lets the pool add one (BlockingPool's compensation);
     * before, 100 such calls on 2 workers hung for good (a probe), and here the outer calls never ended.
     */
    @Test
    void callsThatWaitForJobsMakingBlockingCallsOfTheirOwnDoNotStarveThePool() throws Exception {
        int outerCalls = BlockingPool.MAX_THREADS + 16;
        try (JobSystem jobs = TestSupport.system(2)) {
            CountDownLatch everyThreadInACall = new CountDownLatch(BlockingPool.MAX_THREADS);
            List<JobHandle<Integer>> outer = new ArrayList<>();
            for (int i = 0; i < outerCalls; i++) {
                outer.add(jobs.submit(Priority.NORMAL, "loader " + i, () -> Jobs.blocking(() -> {
                    everyThreadInACall.countDown();
                    everyThreadInACall.await(30, TimeUnit.SECONDS);   // all 64 threads held before the joins
                    return jobs.submit(Priority.NORMAL, "decode", () -> Jobs.blocking(() -> 7)).join();
                })));
            }
            try {
                for (JobHandle<Integer> h : outer) {
                    assertEquals(7, h.join(Duration.ofSeconds(30)), "every call's inner job ran");
                }
            } catch (java.util.concurrent.TimeoutException starved) {
                long done = outer.stream().filter(JobHandle::isDone).count();
                jobs.shutdownNow();
                throw new AssertionError("the blocking pool starved: " + done + " of " + outerCalls
                        + " outer calls ended in 30 s, the rest wait for jobs whose blocking calls are queued", starved);
            }
        }
    }

    private record PipeRead(InputStream pipe) implements java.util.concurrent.Callable<Integer> {
        @Override
        public Integer call() throws IOException {
            return pipe.read();
        }

        @Override
        public String toString() {
            return "pipe read";
        }
    }

    private static boolean has(List<WatchdogReport> reports, WatchdogReport.Kind kind, String job, String text) {
        return reports.stream().anyMatch(r -> r.kind() == kind && r.jobName().equals(job) && r.detail().contains(text));
    }
    /**
     * 65 jobs whose blocking calls each wait on a latch that all 65 count down: 64 threads run at once
     * (BlockingPool.MAX_THREADS), so the 65th call stays queued behind 64 that can never return. That hung
     * without a word (a probe: 65 calls, stderr empty after 12 s; 64 finished in 0.4 s). The queued call's
     * waiter now says so once on stderr after 2 s, naming the limit and the way out; the wait goes on and
     * ends once the calls are released.
     */
    @Test
    void aCallQueuedBehindBlockingThreadsThatNeverReturnSaysSoOnStderr() throws Exception {
        int calls = BlockingPool.MAX_THREADS + 1;
        java.io.PrintStream original = System.err;
        java.io.ByteArrayOutputStream captured = new java.io.ByteArrayOutputStream();
        System.setErr(new java.io.PrintStream(captured, true, java.nio.charset.StandardCharsets.UTF_8));
        String err;
        try (JobSystem jobs = JobSystem.builder().name("game").workers(1).build()) {
            CountDownLatch everyCallStarted = new CountDownLatch(calls);
            Counter all = new Counter("calls");
            for (int i = 0; i < calls; i++) {
                jobs.run(Priority.NORMAL, "load " + i, () -> Jobs.blocking(() -> {
                    everyCallStarted.countDown();
                    everyCallStarted.await();
                    return null;
                }), all);
            }
            long end = System.nanoTime() + TestSupport.LONG.toNanos();
            while (!captured.toString(java.nio.charset.StandardCharsets.UTF_8).contains("not started")
                    && System.nanoTime() < end) {
                TestSupport.sleepMillis(5);
            }
            err = captured.toString(java.nio.charset.StandardCharsets.UTF_8);
            everyCallStarted.countDown();           // the 65th's share: the 64 return, the queued call runs
            TestSupport.await(all);
        } finally {
            System.setErr(original);
        }
        assertTrue(err.contains("job system 'game'") && err.contains("all " + BlockingPool.MAX_THREADS
                + " of its blocking threads") && err.contains("with 1 queued behind them")
                && err.contains("Jobs.blocking(executor, call)"), "stderr: " + err);
        assertEquals(1, err.split("has waited", -1).length - 1, "said once: " + err);
    }
}
