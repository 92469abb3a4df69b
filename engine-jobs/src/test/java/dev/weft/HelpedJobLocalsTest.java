package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.WaitingHelpTest.Occupied;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ThreadLocal map a waiting thread's helped jobs run on is kept from one helped job to the next when the
 * job left it as it found it (HelpedJobLocals): what a helped job sees must not change for it. Every job here
 * runs on the test thread (the workers are held by spinners), many rounds in a row.
 */
@Timeout(value = 120, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HelpedJobLocalsTest {
    private static final int ROUNDS = 200;
    private static final ThreadLocal<String> LOCAL = new ThreadLocal<>();
    private static final ThreadLocal<String> SET_AND_REMOVED = new ThreadLocal<>();
    private static final InheritableThreadLocal<String> INHERITABLE = new InheritableThreadLocal<>();

    /**
     * A helped job sees none of the waiting thread's ThreadLocals and none an earlier helped job set, kept
     * or removed; the waiting thread has its own back after each wait, and each job is worker number
     * workerCount() (the seat's entry in the map it runs on). Rounds of six jobs, each after the last has
     * ended: a job that reads a ThreadLocal adds an entry (its initial value), so its map is not kept, and
     * only a job that touched none (or removed what it set) leaves a map for the next.
     */
    @Test
    void aHelpedJobSeesNoThreadLocalButItsOwnRoundAfterRound() throws Exception {
        JobSystem jobs = JobSystem.builder().name("helped-locals").workers(2).build();
        Thread me = Thread.currentThread();
        List<String> seen = new ArrayList<>();              // appended by jobs run on this thread only
        LOCAL.set("the waiter's");
        INHERITABLE.set("the waiter's inheritable");
        try (jobs; Occupied busy = new Occupied(jobs, 2)) {
            for (int round = 0; round < ROUNDS; round++) {
                int r = round;
                Counter c = new Counter("round " + round);
                jobs.run(Priority.FRAME, "job " + round % 6, () -> {
                    if (Thread.currentThread() != me) {
                        throw new AssertionError("a held worker ran a FRAME job");
                    }
                    switch (r % 6) {
                        case 0 -> LOCAL.set("job of round " + r);            // its map is not kept
                        case 2 -> INHERITABLE.set("job of round " + r);      // an inheritable map is made
                        case 4 -> {                                          // its map is kept
                            SET_AND_REMOVED.set("job of round " + r);
                            SET_AND_REMOVED.remove();
                        }
                        default -> {                                         // after 0, 2 and 4: reads
                            String saw = LOCAL.get() + "/" + SET_AND_REMOVED.get() + "/" + INHERITABLE.get()
                                    + "/" + Jobs.workerIndex();
                            if (!saw.equals("null/null/null/" + jobs.workerCount())) {
                                seen.add("round " + r + ": " + saw);
                            }
                        }
                    }
                }, c);
                c.await();
                c.throwIfFailed();
                assertEquals("the waiter's", LOCAL.get(), "the waiting thread's own value, after round " + round);
                assertEquals("the waiter's inheritable", INHERITABLE.get(), "after round " + round);
            }
        } finally {
            LOCAL.remove();
            INHERITABLE.remove();
        }
        assertEquals(List.of(), seen, "helped jobs saw values that were not theirs (local/removed/inheritable/index)");
    }

    /**
     * On a bound main thread, a helped job's wait runs main-thread jobs on a kept map as on a new one: the
     * map says this thread owns the mailbox, also when the map kept was made before the thread was bound.
     */
    @Test
    void aHelpedJobOnAKeptMapStillRunsMainThreadJobsWhileItWaits() throws Exception {
        JobSystem jobs = JobSystem.builder().name("helped-main").workers(1).build();
        Thread me = Thread.currentThread();
        try (jobs; Occupied busy = new Occupied(jobs, 1)) {
            Counter unbound = new Counter("before binding");
            jobs.run(Priority.FRAME, "touches nothing", () -> { }, unbound);   // leaves a map to keep
            unbound.await();
            jobs.bindMainThread();
            for (int round = 0; round < ROUNDS; round++) {
                int r = round;
                Counter c = new Counter("round " + round);
                jobs.run(Priority.FRAME, "asks main", () -> {
                    assertTrue(Thread.currentThread() == me, "a held worker ran a FRAME job");
                    // Runs here, inside this wait, if the map says this thread owns the mailbox.
                    int v = jobs.onMainThread(() -> r).join(Duration.ofSeconds(10));
                    assertEquals(r, v);
                }, c);
                c.await();
                c.throwIfFailed();
            }
        }
    }
}
