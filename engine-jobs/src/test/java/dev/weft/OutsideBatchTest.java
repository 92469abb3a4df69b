package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A batch submitted from a thread that is no worker ({@code runAll}, {@code runAndWait}) is admitted whole
 * or refused whole. It used to be admitted one job at a time, so a {@code close()} racing the call, or a
 * counter without room for all of it, refused it after part of it ran: a level loader's batch of 50 jobs
 * half run, and {@code runAndWait} throwing "refused" after some of its jobs had run, where its Javadoc
 * says nothing then ran.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class OutsideBatchTest {
    private static final int BATCH = 50;
    private static final int ROUNDS = Integer.getInteger("weft.test.outsideBatchRounds", 60);

    @Test
    void aCounterWithoutRoomForTheBatchRefusesAllOfIt() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            Counter nearlyFull = new Counter("nearly full");
            nearlyFull.add(Integer.MAX_VALUE - 2);
            AtomicInteger ran = new AtomicInteger();
            Job[] five = batch(5, ran);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> jobs.runAll(Priority.NORMAL, nearlyFull, five));
            assertTrue(e.getMessage().contains("nearly full"), e.getMessage());
            Counter after = new Counter("after");
            jobs.runAll(Priority.NORMAL, after, batch(1, new AtomicInteger()));
            after.await(Duration.ofSeconds(10));
            assertEquals(0, ran.get(), "part of a refused batch ran");
            assertEquals(Integer.MAX_VALUE - 2, nearlyFull.value(), "a refused batch left units on the counter");
        }
    }

    @Test
    void aCloseRacingRunAllFromAnotherThreadRefusesWholeBatchesOnly() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            List<AtomicInteger> batches = new ArrayList<>();
            AtomicInteger refused = new AtomicInteger();
            JobSystem jobs = TestSupport.system(2);
            Thread submitter = new Thread(() -> {
                for (;;) {
                    AtomicInteger ran = new AtomicInteger();
                    synchronized (batches) {
                        batches.add(ran);
                    }
                    try {
                        jobs.runAll(Priority.NORMAL, null, batch(BATCH, ran));
                    } catch (RejectedExecutionException e) {
                        refused.incrementAndGet();
                        return;
                    }
                }
            }, "level-loader");
            submitter.start();
            Thread.sleep(round % 3);
            jobs.close();
            submitter.join(10_000);
            assertTrue(jobs.awaitTermination(Duration.ofSeconds(10)));
            assertEquals(1, refused.get(), "round " + round + ": the submitter was not refused once");
            synchronized (batches) {
                for (int i = 0; i < batches.size(); i++) {
                    int n = batches.get(i).get();
                    if (n != 0 && n != BATCH) {
                        fail("round " + round + ": batch " + i + " of " + batches.size() + " ran " + n + " of "
                                + BATCH + " jobs: a batch must run whole or be refused whole");
                    }
                }
                assertEquals(0, batches.get(batches.size() - 1).get(), "the refused batch ran");
            }
        }
    }

    @Test
    void aCloseRacingRunAndWaitFromAnotherThreadRunsAllOrNothing() throws Exception {
        for (int round = 0; round < ROUNDS; round++) {
            AtomicInteger refused = new AtomicInteger();
            List<String> partial = new ArrayList<>();
            JobSystem jobs = TestSupport.system(2);
            Thread submitter = new Thread(() -> {
                for (int call = 0; ; call++) {
                    AtomicInteger ran = new AtomicInteger();
                    try {
                        jobs.runAndWait(batch(BATCH, ran));
                        if (ran.get() != BATCH) {
                            partial.add("call " + call + " returned after " + ran.get() + " of " + BATCH);
                        }
                    } catch (RejectedExecutionException e) {
                        refused.incrementAndGet();
                        sleepQuietly(20);    // let any job of the refused call that was queued run
                        if (ran.get() != 0) {
                            partial.add("call " + call + " was refused after " + ran.get() + " of " + BATCH
                                    + " jobs ran (its Javadoc: nothing then ran)");
                        }
                        return;
                    }
                }
            }, "outside-forker");
            submitter.start();
            Thread.sleep(round % 3);
            jobs.close();
            submitter.join(10_000);
            assertTrue(jobs.awaitTermination(Duration.ofSeconds(10)));
            assertEquals(1, refused.get(), "round " + round + ": the caller was not refused once");
            assertEquals(List.of(), partial, "round " + round);
        }
    }

    private static Job[] batch(int size, AtomicInteger ran) {
        Job[] jobs = new Job[size];
        for (int i = 0; i < size; i++) {
            jobs[i] = ran::incrementAndGet;
        }
        return jobs;
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
