package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The JDK's interfaces: {@link JobSystem} as an Executor, {@link JobSystem#asExecutorService()}, CompletableFuture. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ExecutorTest {

    /**
     * A job of a group hands a CompletableFuture stage to the job system and the group is cancelled: the
     * stage, an Executor.execute job, inherited the group and was dropped unrun, so the future never
     * completed and a join on it hung (a probe). An Executor must run what it accepts.
     */
    @Test
    void aStageHandedToTheExecutorRunsThoughTheSubmittingJobsGroupIsCancelled() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            JobGroup level = jobs.newGroup("level");
            AtomicReference<CompletableFuture<Integer>> stage = new AtomicReference<>();
            TestSupport.join(level.submit(() -> {
                level.cancel();                                      // the level unloads meanwhile
                stage.set(CompletableFuture.supplyAsync(() -> 42, jobs));
                return null;
            }));
            assertEquals(42, stage.get().get(TestSupport.LONG.toMillis(), TimeUnit.MILLISECONDS));
        }
    }

    @Test
    void executeRunsTheCommandAsAJobOnAFiberAndSendsItsFailureToTheUncaughtHandler() {
        AtomicReference<Throwable> reported = new AtomicReference<>();
        AtomicReference<String> reportedName = new AtomicReference<>();
        try (JobSystem jobs = JobSystem.builder().workers(2)
                .onUncaughtFailure((name, t) -> { reportedName.set(name); reported.set(t); }).build()) {
            AtomicBoolean onFiber = new AtomicBoolean();
            Counter ran = new Counter("ran");
            ran.add(1);
            jobs.execute(() -> { onFiber.set(Jobs.inFiber() && Jobs.workerIndex() >= 0); ran.decrement(); });
            TestSupport.await(ran);
            assertTrue(onFiber.get(), "execute() did not run the command on a Weft fiber");

            IllegalStateException boom = new IllegalStateException("boom");
            jobs.execute(() -> { throw boom; });
            TestSupport.eventually("the failure reaches the uncaught-failure handler", () -> reported.get() != null);
            assertSame(boom, reported.get());
        }
    }

    @Test
    void executeAfterCloseIsRefused() {
        JobSystem jobs = TestSupport.system(1);
        jobs.close();
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> jobs.execute(() -> {}));
        assertTrue(e.getMessage().contains("refused"), e.getMessage());
    }

    /**
     * One worker: the first stage waits on a counter that only a job submitted after it can decrement. A
     * stage that blocked its worker would deadlock; a stage on a fiber parks, and the worker runs the job.
     */
    @Test
    void completableFutureStagesRunOnFibersAndMayWaitOnCounters() {
        try (JobSystem jobs = JobSystem.builder().workers(1).waitersHelp(false).build()) {
            Counter gate = new Counter("gate");
            gate.add(1);
            CompletableFuture<String> stages = CompletableFuture
                    .supplyAsync(() -> {
                        jobs.run(Priority.NORMAL, "opens the gate", gate::decrement, null);
                        gate.await();                                  // parks this stage's fiber
                        return Jobs.inFiber() ? "first on a fiber" : "first NOT on a fiber";
                    }, jobs)
                    .thenApplyAsync(s -> s + ", second " + (Jobs.inFiber() ? "on a fiber" : "NOT on a fiber"), jobs);
            assertEquals("first on a fiber, second on a fiber", stages.orTimeout(30, TimeUnit.SECONDS).join());
            assertTrue(jobs.stats().toString().length() > 0);
        }
    }

    @Test
    void aCompletableFutureJoinedInsideAJobParksItsFiberInsteadOfBlockingTheWorker() {
        try (JobSystem jobs = JobSystem.builder().workers(1).waitersHelp(false).build()) {
            CompletableFuture<Integer> later = new CompletableFuture<>();
            JobHandle<Integer> waiter = jobs.submit(() -> later.join() + 1);   // parks the fiber
            jobs.submit(() -> later.complete(41));                             // needs the only worker
            assertEquals(42, TestSupport.join(waiter));
        }
    }

    @Test
    void theViewsShutdownStopsTheViewNotTheJobSystem() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            ExecutorService pool = jobs.asExecutorService();
            AtomicInteger ran = new AtomicInteger();
            List<Future<Integer>> results = pool.invokeAll(List.<Callable<Integer>>of(
                    () -> { ran.incrementAndGet(); return 1; }, () -> { ran.incrementAndGet(); return 2; }));
            assertEquals(1, results.get(0).get());
            assertEquals(2, results.get(1).get());
            pool.shutdown();
            assertTrue(pool.isShutdown());
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertTrue(pool.isTerminated());
            RejectedExecutionException refused = assertThrows(RejectedExecutionException.class,
                    () -> pool.submit(() -> 3));
            assertTrue(refused.getMessage().contains("view"), refused.getMessage());
            assertEquals(7, TestSupport.join(jobs.submit(() -> 7)), "the job system must still run");
            assertFalse(jobs.isTerminated());
            try (ExecutorService second = jobs.asExecutorService()) {   // a new view works
                assertEquals(5, second.submit(() -> 5).get(30, TimeUnit.SECONDS));
            }
        }
    }

    @Test
    void awaitTerminationWaitsForRunningTasksAndCloseWaitsToo() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            ExecutorService pool = jobs.asExecutorService();
            CompletableFuture<Void> release = new CompletableFuture<>();
            AtomicBoolean finished = new AtomicBoolean();
            pool.execute(() -> { release.join(); finished.set(true); });
            pool.shutdown();
            assertFalse(pool.awaitTermination(50, TimeUnit.MILLISECONDS), "terminated with a task still running");
            assertFalse(pool.isTerminated());
            release.complete(null);
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertTrue(finished.get());

            ExecutorService closing = jobs.asExecutorService();
            AtomicBoolean closedAfterTask = new AtomicBoolean();
            CompletableFuture<Void> go = new CompletableFuture<>();
            closing.execute(() -> { go.join(); closedAfterTask.set(true); });
            jobs.execute(() -> go.complete(null));
            closing.close();                                   // ExecutorService.close: shutdown + wait
            assertTrue(closedAfterTask.get(), "close() returned before the view's task ended");
        }
    }

    /** One busy worker keeps the rest queued: shutdownNow returns exactly those, and none of them runs. */
    @Test
    void shutdownNowReturnsTheTasksThatNeverStartedAndAsksRunningOnesToStop() throws Exception {
        try (JobSystem jobs = JobSystem.builder().workers(1).waitersHelp(false).build()) {
            ExecutorService pool = jobs.asExecutorService();
            AtomicBoolean started = new AtomicBoolean();
            AtomicBoolean sawCancel = new AtomicBoolean();
            pool.execute(() -> {
                started.set(true);
                while (!Jobs.isCancelled()) {
                    Thread.onSpinWait();                       // holds the only worker (no park)
                }
                sawCancel.set(true);
            });
            TestSupport.eventually("the first task started", started::get);
            AtomicInteger queuedRan = new AtomicInteger();
            Runnable[] queued = new Runnable[5];
            for (int i = 0; i < queued.length; i++) {
                queued[i] = queuedRan::incrementAndGet;
                pool.execute(queued[i]);
            }
            List<Runnable> neverRan = pool.shutdownNow();
            assertEquals(List.of(queued), neverRan);
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertTrue(sawCancel.get(), "the running task did not see Jobs.isCancelled()");
            assertEquals(0, queuedRan.get(), "a task shutdownNow returned ran anyway");
        }
    }

    @Test
    void futuresReportFailureAsExecutionExceptionAndCancelBeforeStart() throws Exception {
        try (JobSystem jobs = JobSystem.builder().workers(1).waitersHelp(false).build()) {
            ExecutorService pool = jobs.asExecutorService();
            IllegalArgumentException boom = new IllegalArgumentException("bad input");
            Future<Object> failed = pool.submit(() -> { throw boom; });
            ExecutionException e = assertThrows(ExecutionException.class, () -> failed.get(30, TimeUnit.SECONDS));
            assertSame(boom, e.getCause());

            AtomicBoolean release = new AtomicBoolean();
            AtomicBoolean holding = new AtomicBoolean();
            pool.execute(() -> {
                holding.set(true);
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            });
            TestSupport.eventually("the only worker is held", holding::get);   // else it might take the next task first
            AtomicBoolean cancelledRan = new AtomicBoolean();
            Future<?> queued = pool.submit(() -> cancelledRan.set(true));
            assertTrue(queued.cancel(false), "a task that had not started must be cancellable");
            assertTrue(queued.isCancelled());
            assertTrue(queued.isDone());
            assertInstanceOf(CancellationException.class, assertThrows(CancellationException.class, queued::get));
            release.set(true);
            pool.shutdown();
            assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS));
            assertFalse(cancelledRan.get());
        }
    }

    /**
     * The JDK's invokeAny cancels the losers with {@code cancel(true)}, which interrupts the thread that
     * runs them: a Weft fiber, pooled for the next job. The interrupt must end with the job it was for.
     */
    @Test
    void anInterruptLeftByATaskDoesNotReachTheNextJobOnThePooledFiber() throws Exception {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            for (int i = 0; i < 50; i++) {
                TestSupport.join(jobs.submit(() -> {
                    Thread.currentThread().interrupt();        // as FutureTask.cancel(true) would, then ends
                    return null;
                }));
                assertFalse(TestSupport.join(jobs.submit(() -> Thread.currentThread().isInterrupted())),
                        "round " + i + ": the next job saw the previous job's interrupt");
            }
            ExecutorService pool = jobs.asExecutorService();
            String winner = pool.invokeAny(List.<Callable<String>>of(() -> "fast", () -> {
                Thread.sleep(30_000);
                return "slow";
            }));
            assertEquals("fast", winner);
            assertEquals(0, TestSupport.join(jobs.submit(() -> { Thread.sleep(1); return 0; })),
                    "a job after invokeAny's cancel(true) was interrupted in its sleep");
        }
    }

    /**
     * Future.get() is interruptible, as the JDK's contract says (a Weft join is not): a thread interrupted
     * while it waits gets InterruptedException, and one interrupted before it calls gets it at once. Found
     * by a probe on the public API: get() returned only when the 1.5 s task ended.
     */
    @Test
    void futureGetIsInterruptible() throws Exception {
        try (JobSystem jobs = TestSupport.system(1)) {
            ExecutorService pool = jobs.asExecutorService();
            CompletableFuture<Void> release = new CompletableFuture<>();
            Future<String> slow = pool.submit(() -> {
                release.join();
                return "ended";
            });
            for (boolean timed : new boolean[] {false, true}) {
                Thread getter = Thread.currentThread();
                Thread interrupter = Thread.ofPlatform().start(() -> {
                    TestSupport.sleepMillis(100);
                    getter.interrupt();
                });
                long start = System.nanoTime();
                assertThrows(InterruptedException.class, () -> {
                    if (timed) {
                        slow.get(30, TimeUnit.SECONDS);
                    } else {
                        slow.get();
                    }
                }, timed ? "get(timeout)" : "get()");
                assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(20), "returned on the interrupt");
                interrupter.join();
                assertFalse(Thread.interrupted(), "InterruptedException cleared the status, as the JDK does");
            }
            Thread.currentThread().interrupt();
            assertThrows(InterruptedException.class, slow::get, "interrupted before the call");
            release.complete(null);
            assertEquals("ended", slow.get(30, TimeUnit.SECONDS));
        }
    }

    /**
     * Tasks given to {@code execute} from two threads while the main thread calls {@code shutdownNow()}:
     * every task accepted without an exception ran or is in shutdownNow's list, and none is reported as a
     * failure. A task whose {@code execute} passed the shutdown check just before the shutdownNow, and whose
     * entry went in after shutdownNow had read the view's tasks, was dropped unrun by the view's cancelled
     * group and listed nowhere: on the old code 97 of 2,000 rounds lost one or two (a probe).
     */
    @Test
    void everyTaskAcceptedWhileShutdownNowRacesRunsOrIsListed() throws Exception {
        AtomicInteger reported = new AtomicInteger();
        try (JobSystem jobs = JobSystem.builder().workers(2).onUncaughtFailure((n, t) -> reported.incrementAndGet())
                .build()) {
            int roundsWithLoss = 0;
            String firstLoss = null;
            for (int round = 0; round < 2_000; round++) {
                ExecutorService pool = jobs.asExecutorService();
                AtomicInteger ran = new AtomicInteger();
                AtomicInteger accepted = new AtomicInteger();
                java.util.concurrent.CountDownLatch go = new java.util.concurrent.CountDownLatch(1);
                Thread[] submitters = new Thread[2];
                for (int t = 0; t < submitters.length; t++) {
                    submitters[t] = Thread.ofPlatform().start(() -> {
                        try {
                            go.await();
                        } catch (InterruptedException e) {
                            return;
                        }
                        for (int i = 0; i < 300; i++) {
                            try {
                                pool.execute(ran::incrementAndGet);
                                accepted.incrementAndGet();
                            } catch (RejectedExecutionException refused) {
                                // after the shutdownNow: neither run nor listed, and the caller was told
                            }
                        }
                    });
                }
                go.countDown();
                for (int spin = (round * 37) % 3_000; spin > 0; spin--) {
                    Thread.onSpinWait();
                }
                List<Runnable> neverRan = pool.shutdownNow();
                for (Thread t : submitters) {
                    t.join();
                }
                assertTrue(pool.awaitTermination(30, TimeUnit.SECONDS), "round " + round + ": terminated");
                int lost = accepted.get() - ran.get() - neverRan.size();
                if (lost != 0 && roundsWithLoss++ == 0) {
                    firstLoss = "round " + round + ": " + accepted.get() + " accepted, " + ran.get() + " ran, "
                            + neverRan.size() + " listed";
                }
            }
            assertEquals(0, roundsWithLoss, "rounds where an accepted task neither ran nor was listed; first: "
                    + firstLoss);
            assertEquals(0, reported.get(), "a task cancelled by shutdownNow was reported as a failure");
        }
    }

    /**
     * A view shut down, then its job system closed: the refusal said "the job system itself still runs;
     * submit to it, or to a new asExecutorService() view", which sent the caller to a system that refuses too.
     */
    @Test
    void aShutDownViewOfAClosedSystemDoesNotSayTheSystemStillRuns() {
        JobSystem jobs = JobSystem.builder().workers(1).build();
        ExecutorService pool = jobs.asExecutorService();
        pool.shutdown();
        jobs.close();
        RejectedExecutionException refused = assertThrows(RejectedExecutionException.class, () -> pool.submit(() -> 1));
        assertFalse(refused.getMessage().contains("still runs"), refused.getMessage());
        assertTrue(refused.getMessage().contains("Submit work before closing the job system"), refused.getMessage());
    }
}
