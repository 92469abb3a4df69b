package dev.weft;

import static dev.weft.TestSupport.LONG;
import static dev.weft.TestSupport.eventually;
import static dev.weft.TestSupport.join;
import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Main-thread jobs: who runs them, a main-thread wait that runs them, budgets, and close() with no main thread. */
@Timeout(120)
class MainThreadJobsTest {
    /**
     * The game's main thread binds a job system, closes it, then starts the next level's. An
     * {@code awaitTermination} whose deadline had passed when it saw the workers gone returned true without
     * releasing the main thread, so the next system's {@code bindMainThread()} was refused ("thread main
     * already runs another job system's main-thread jobs"); {@code close()}, which waits in 100 ms rounds,
     * hit it on a busy CI machine.
     */
    @Test
    void aMainThreadBoundToATerminatedSystemCanBindTheNextOne() throws Exception {
        JobSystem level1 = system(2);
        level1.bindMainThread();
        level1.shutdown();
        eventually("level 1 terminated", level1::isTerminated);
        assertTrue(level1.awaitTermination(java.time.Duration.ZERO), "terminated, seen by a wait already due");
        try (JobSystem level2 = system(2)) {
            level2.bindMainThread();                   // refused on the old code
            assertEquals(3, join(level2.onMainThread("upload", () -> 3)));
        }
    }

    /**
     * A game restarts its job system on the same main thread: the old one stopped with
     * {@code shutdownNow()} and no {@code awaitTermination}, or closed by another thread (a settings
     * screen, a shutdown hook). Only the owner's own termination wait released the main thread, so the next
     * system's {@code bindMainThread()} was refused ("thread main already runs another job system's
     * main-thread jobs") and the old system stayed reachable from the main thread. A system still running
     * is refused with a message naming it and what to do.
     */
    @Test
    void aMainThreadWhoseSystemWasStoppedElsewhereCanBindTheNextOne() throws Exception {
        JobSystem stoppedNow = system(2);
        stoppedNow.bindMainThread();
        stoppedNow.shutdownNow();                                  // no awaitTermination
        JobSystem closedElsewhere = system(2);
        closedElsewhere.bindMainThread();                           // refused on the old code
        JobSystem running = system(2);
        IllegalStateException refused = assertThrows(IllegalStateException.class, running::bindMainThread);
        assertTrue(refused.getMessage().contains("'" + closedElsewhere.name() + "'")
                && refused.getMessage().contains("running") && refused.getMessage().contains("shutdownNow"),
                refused.getMessage());
        running.close();
        Thread closer = new Thread(closedElsewhere::close);
        closer.start();
        closer.join();
        assertTrue(closedElsewhere.isTerminated());
        try (JobSystem next = system(2)) {
            next.bindMainThread();                                  // refused on the old code
            assertEquals(3, join(next.submit(() -> next.onMainThread("upload", () -> 3).join())));
        }
        assertTrue(stoppedNow.awaitTermination(LONG));
    }

    /**
     * A job asks the main thread a question ("quit?") and joins the answer; the main-thread job's handler
     * calls {@code close()}. close() waited for termination, which waited for the joining job, which waited
     * for the main-thread job: the game's main thread hung in {@code runMainThreadJobs} for ever. Inside a
     * main-thread job close() now only starts the shutdown, as it does inside any other job.
     */
    @Test
    void closeCalledByAMainThreadJobThatAJobJoinsStartsTheShutdownInsteadOfHanging() throws Exception {
        JobSystem jobs = system(2);
        AtomicInteger closeReturned = new AtomicInteger();
        CountDownLatch bound = new CountDownLatch(1);
        Thread game = new Thread(() -> {
            jobs.bindMainThread();
            bound.countDown();
            while (closeReturned.get() == 0) {
                jobs.runMainThreadJobs(1_000_000);              // hung here on the old code
                Thread.onSpinWait();
            }
            jobs.close();                                       // the game loop's own close waits
        }, "game main");
        game.start();
        bound.await();
        JobHandle<String> flow = jobs.submit(Priority.NORMAL, "ui flow",
                () -> jobs.onMainThread("quit dialog", () -> {
                    jobs.close();
                    closeReturned.incrementAndGet();
                    return "quit";
                }).join());
        game.join(LONG.toMillis());
        boolean hung = game.isAlive();
        if (hung) {
            jobs.shutdownNow();                                 // wakes the joining job: lets the test end
            game.join(LONG.toMillis());
        }
        assertFalse(hung, "close() inside a main-thread job that a job joins never returned");
        assertEquals("quit", join(flow));
        assertTrue(jobs.isTerminated());
        assertThrows(RejectedExecutionException.class, () -> jobs.submit(() -> 1));
    }

    /**
     * A running main-thread job (an upload in slices) asked to stop by its handle's cancel or its group's:
     * {@code JobHandle.cancel()} says a running job sees {@code Jobs.isCancelled()}, but on the main thread
     * it read false, and {@code Jobs.currentJobName()} threw "works only inside a job running on a Weft
     * fiber" there.
     */
    @Test
    void aRunningMainThreadJobSeesItsCancellationAndItsName() throws Exception {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            AtomicReference<JobHandle<String>> self = new AtomicReference<>();
            CountDownLatch posted = new CountDownLatch(1);
            JobHandle<String> upload = jobs.onMainThread("upload in slices", () -> {
                posted.await();
                boolean before = Jobs.isCancelled();
                self.get().cancel();
                return before + ", " + Jobs.isCancelled() + ", " + Jobs.currentJobName();
            });
            self.set(upload);
            posted.countDown();
            jobs.runMainThreadJobs(LONG.toNanos());
            assertEquals("false, true, upload in slices", join(upload));

            JobGroup level = jobs.newGroup("level");
            AtomicReference<String> seen = new AtomicReference<>();
            join(level.submit(Priority.NORMAL, "loader", () -> jobs.onMainThread("upload", () -> {   // in the group
                level.cancel();
                try {
                    Jobs.checkCancelled();
                    seen.set("not stopped");
                } catch (JobCancelledException stopped) {
                    seen.set(stopped.getMessage());
                }
                return null;
            })));
            while (seen.get() == null) {
                jobs.runMainThreadJobs(LONG.toNanos());
            }
            assertEquals("job 'upload' was cancelled", seen.get());
        }
    }

    /**
     * A main-thread job waiting on a counter (an upload that joins its decode) is cancelled: by its handle,
     * by its group's cancel (a level unloaded), by {@code shutdownNow()}. {@code JobHandle.cancel()} says a
     * wait the job is parked in throws {@link JobCancelledException}; on the main thread the wait went on
     * until its counter was done, which here is never: the game loop hung in {@code runMainThreadJobs}.
     */
    @Test
    void aMainThreadJobWaitingOnACounterIsCancellable() throws Exception {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            Counter never = new Counter("decode that never ends");
            never.add(1);
            AtomicReference<Throwable> seen = new AtomicReference<>();
            AtomicReference<JobHandle<Object>> self = new AtomicReference<>();
            CountDownLatch waiting = new CountDownLatch(1);
            JobHandle<Object> upload = jobs.onMainThread("upload", () -> {
                waiting.countDown();
                try {
                    never.await();
                } catch (Throwable t) {
                    seen.set(t);
                    throw t;
                }
                return null;
            });
            self.set(upload);
            Thread canceller = Thread.ofPlatform().start(() -> {
                try {
                    waiting.await();
                    Thread.sleep(20);                          // most likely parked in the wait by now
                    self.get().cancel();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            jobs.runMainThreadJobs(Long.MAX_VALUE);           // hung here before
            canceller.join();
            assertInstanceOf(JobCancelledException.class, seen.get());
            assertEquals("main-thread job 'upload' was cancelled while waiting on " + never, seen.get().getMessage());
            assertTrue(upload.isDone());

            JobGroup level = jobs.newGroup("level");
            CountDownLatch groupWaiting = new CountDownLatch(1);
            AtomicReference<JobHandle<Object>> inGroup = new AtomicReference<>();
            // Started before the join below: that join, on the main thread, may run the upload itself (queued by
            // the loader before the loader ends), and then only the unloader's cancel ends it. Started after
            // the join, it hung the test now and then.
            Thread unloader = Thread.ofPlatform().start(() -> {
                try {
                    groupWaiting.await();
                    Thread.sleep(20);
                    level.cancel();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            inGroup.set(join(level.submit(Priority.NORMAL, "loader", () -> jobs.onMainThread("upload", () -> {
                groupWaiting.countDown();
                never.await(Duration.ofDays(1));               // a timed wait is cancellable too
                return null;
            }))));
            while (!inGroup.get().isDone()) {
                jobs.runMainThreadJobs(Long.MAX_VALUE);
            }
            unloader.join();
            assertThrows(JobCancelledException.class, () -> inGroup.get().join());
        }
    }

    /**
     * The thread that ran main-thread jobs ended (a render thread restarted after losing its device) and
     * a new one binds: it was refused ("main-thread jobs of 'weft' already run on render-1", a dead
     * thread), so every main-thread job, and each job joining one, waited until close().
     */
    @Test
    void aNewThreadTakesOverTheMainThreadJobsOnceTheBoundOneEnded() throws Exception {
        try (JobSystem jobs = system(2)) {
            Thread first = new Thread(() -> {
                jobs.bindMainThread();
                jobs.runMainThreadJobs(1_000);
            }, "render-1");
            first.start();
            first.join();
            JobHandle<Integer> upload = jobs.submit(() -> jobs.onMainThread("upload", () -> 5).join());
            AtomicReference<Object> second = new AtomicReference<>();
            Thread next = new Thread(() -> {
                try {
                    jobs.bindMainThread();                      // refused on the old code
                    second.set(upload.join());                  // runs the upload while it waits
                } catch (Throwable t) {
                    second.set(t);
                }
            }, "render-2");
            next.start();
            next.join();
            assertEquals(5, second.get(), String.valueOf(second.get()));
            AtomicReference<Object> third = new AtomicReference<>();
            Thread another = new Thread(() -> {                  // runMainThreadJobs binds as well
                try {
                    JobHandle<Integer> h = jobs.onMainThread("upload", () -> 6);
                    jobs.runMainThreadJobs(LONG.toNanos());
                    third.set(h.join());
                } catch (Throwable t) {
                    third.set(t);
                }
            }, "render-3");
            another.start();
            another.join();
            assertEquals(6, third.get(), String.valueOf(third.get()));
        }
    }

    @Test
    void mainThreadJobsRunOnTheMainThreadAndAFiberWaitsForThem() {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            Thread main = Thread.currentThread();
            JobHandle<String> pipeline = jobs.submit(() -> {
                byte[] decoded = {1, 2, 3};                                 // "decode on a worker"
                JobHandle<Thread> upload = jobs.onMainThread("upload", () -> Thread.currentThread());
                Thread uploader = upload.join();                            // parks this fiber
                return (uploader == main) + "/" + decoded.length + "/" + Jobs.inFiber();   // "continue"
            });
            // The game loop: drain main-thread jobs each "frame" until the pipeline is done.
            while (!pipeline.isDone()) {
                jobs.runMainThreadJobs(1_000_000);
                Thread.onSpinWait();
            }
            assertEquals("true/3/true", join(pipeline));
        }
    }

    @Test
    void theMainThreadWaitingOnWorkThatNeedsTheMainThreadDoesNotDeadlock() {
        try (JobSystem jobs = system(1)) {
            jobs.bindMainThread();
            // The worker job needs a main-thread upload; the main thread blocks on the worker job.
            JobHandle<Integer> h = jobs.submit(() -> jobs.onMainThread(() -> 41).join() + 1);
            assertEquals(42, join(h), "the main thread ran the upload while it waited");
            JobHandle<Integer> direct = jobs.onMainThread(() -> 5);
            assertEquals(5, join(direct), "joining a main-thread job on the main thread runs it");
        }
    }

    /**
     * A program that never ran main-thread jobs (a headless server, a test of game code) closes while a job
     * waits on one: close() hung forever, silently, since only the main thread runs them and there was none.
     * With no main thread bound, close cancels them (as it would at termination: nobody will run them), so
     * the waiting job ends with the cancellation, and close returns.
     */
    @Test
    void closeWithNoMainThreadBoundCancelsTheMainThreadJobsAJobWaitsFor() throws Exception {
        JobSystem jobs = system(2);
        JobHandle<Integer> load = jobs.submit(Priority.NORMAL, "load rock",
                () -> jobs.onMainThread("upload rock", () -> 41).join() + 1);
        eventually("the upload is queued for the main thread", () -> jobs.stats().waits() > 0);
        Thread closer = Thread.ofPlatform().name("closer").start(jobs::close);
        closer.join(LONG.toMillis());
        boolean closed = !closer.isAlive();
        if (!closed) {
            jobs.shutdownNow();                  // lets the stuck close() end, so the test fails instead of hanging
            closer.join(LONG.toMillis());
        }
        assertTrue(closed, "close() hung waiting for a main-thread job nobody could run");
        JobFailedException f = assertThrows(JobFailedException.class, () -> join(load));
        assertInstanceOf(java.util.concurrent.CancellationException.class, f.getCause(), "the upload was cancelled: " + f);
    }

    /**
     * A level load queues uploads for the main thread while the main thread waits on its frame. The wait
     * runs main-thread jobs (it must: the frame may need one), but it ran every queued one before it looked
     * at its counter again, so 300 one-millisecond uploads made one 824 ms frame, whatever budget the loop
     * gave runMainThreadJobs (a probe of the README's game loop). Here the frame needs only the first job:
     * the wait must return after it, and leave the rest to the budgeted call.
     */
    @Test
    void aMainThreadWaitReturnsOnceItsCounterIsDoneNotAfterEveryQueuedJob() {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            Counter frame = new Counter("frame");
            frame.add(1);
            AtomicInteger ran = new AtomicInteger();
            jobs.onMainThread("the frame's GL query", () -> {
                ran.incrementAndGet();
                frame.decrement();
                return null;
            });
            for (int i = 0; i < 50; i++) {
                jobs.onMainThread("level upload " + i, () -> ran.incrementAndGet());
            }
            frame.await();
            assertEquals(1, ran.get(), "main-thread jobs run inside the frame's wait, after it was done");
            int rest = 0;
            while (rest < 50) {
                rest += jobs.runMainThreadJobs(Long.MAX_VALUE);
            }
            assertEquals(51, ran.get());
        }
    }

    @Test
    void mainThreadBudgetIsRespectedAndTheMailboxWakesOnlyASleepingOwner() {
        try (JobSystem jobs = system(2)) {
            jobs.bindMainThread();
            for (int i = 0; i < 100; i++) {
                jobs.onMainThread(() -> {
                    TestSupport.sleepMillis(1);
                    return null;
                });
            }
            int ran = jobs.runMainThreadJobs(5_000_000);                   // 5 ms budget, 1 ms jobs
            assertTrue(ran >= 1 && ran < 100, "ran " + ran + " of 100 within a 5 ms budget");
            int total = ran;
            while (total < 100) {
                total += jobs.runMainThreadJobs(Long.MAX_VALUE);
            }
            assertEquals(100, total);
        }
    }

    /**
     * An I/O thread posts uploads with {@code onMainThread} while the game closes. A post that read the run
     * state before termination but queued its job after the main thread's last look at the mailbox was
     * neither run nor cancelled: a loader joining it hung for ever (the long soak lost one such job in 300
     * replays of one lifetime). Every post now either is refused or ends, run or cancelled. Several posting
     * threads on two cores, so that one is preempted inside a post now and then. Each poster stops after
     * {@code maxPosts}: on a loaded machine the main thread can be off its core for many milliseconds
     * before it calls close, and the posts queued meanwhile (unbounded before, over a second of main-thread
     * work per round) are all run by close. Rounds where close comes that late test nothing; the others
     * start closing within microseconds, while every poster still posts.
     */
    @Test
    void everyMainThreadJobPostedByOtherThreadsWhileTheMainThreadClosesEitherRunsOrIsCancelled() throws Exception {
        int rounds = TestSupport.FULL ? 5_000 : 500;
        int posters = 4;
        int maxPosts = 10_000;
        for (int round = 0; round < rounds; round++) {
            JobSystem jobs = system(1);
            jobs.bindMainThread();
            List<List<JobHandle<Integer>>> accepted = new ArrayList<>();
            List<Thread> threads = new ArrayList<>();
            CountDownLatch allPosting = new CountDownLatch(posters);
            for (int p = 0; p < posters; p++) {
                List<JobHandle<Integer>> mine = new ArrayList<>();   // written by its poster, read after join
                accepted.add(mine);
                threads.add(Thread.ofPlatform().name("io-" + p).start(() -> {
                    allPosting.countDown();
                    try {
                        for (int i = 0; i < maxPosts; i++) {
                            mine.add(jobs.onMainThread("upload", () -> 1));
                        }
                    } catch (RejectedExecutionException closed) {
                        // the job system no longer takes main-thread jobs
                    }
                }));
            }
            allPosting.await();
            jobs.close();                                  // on the main thread: runs what is queued meanwhile
            for (Thread t : threads) {
                t.join(LONG.toMillis());
                assertFalse(t.isAlive(), "round " + round + ": " + t.getName() + " still posts after close()");
            }
            for (List<JobHandle<Integer>> mine : accepted) {
                for (JobHandle<Integer> h : mine) {
                    assertTrue(h.isDone(), "round " + round + ": main-thread job " + h + ", accepted while the"
                            + " main thread closed, was neither run nor cancelled");
                }
            }
        }
    }
}
