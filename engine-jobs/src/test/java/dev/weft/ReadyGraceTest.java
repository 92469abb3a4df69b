package dev.weft;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The ready-fiber grace (WorkPicker#stealReady, SYNCHRONIZATION.md §5): a thief leaves a lone ready fiber
 * to its awake owner for a while, and takes it once that while is over. Neither test depends on timing:
 * the first sets the grace to an hour, so any steal of a ready fiber is a broken grace; the second keeps
 * the owner busy until the fiber has run, so it passes only if another worker took it.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReadyGraceTest {
    private static final long AN_HOUR_NANOS = TimeUnit.HOURS.toNanos(1);

    private static JobSystem system(long graceNanos) {
        JobSystemBuilder b = JobSystem.builder().name("grace").workers(2).waitersHelp(false);
        b.readyGraceNanos = graceNanos;
        return b.build();
    }

    /**
     * Two jobs hand a token back and forth. Each hand-off readies the other job's fiber on the waker's
     * worker, which parks the waker next and runs the fiber itself: with the grace, the other worker
     * never takes it, so the only steals are of the two jobs at the start.
     */
    @Test
    void aLoneReadyFiberIsLeftToItsAwakeOwner() throws Exception {
        int rounds = 2_000;
        try (JobSystem jobs = system(AN_HOUR_NANOS)) {
            Counter aMayGo = new Counter("ping");
            Counter bMayGo = new Counter("pong");
            bMayGo.add(1);
            Counter done = new Counter("pingPong");
            jobs.run(passTheToken(rounds, aMayGo, bMayGo), done);
            jobs.run(passTheToken(rounds, bMayGo, aMayGo), done);
            TestSupport.await(done);
            JobSystemStats stats = jobs.stats();
            assertTrue(stats.waits() >= rounds, "the hand-offs did not wait: " + stats);
            assertTrue(stats.steals() <= 2, "ready fibers were stolen from their awake owner "
                    + "(at most the two jobs may be): " + stats);
        }
    }

    /** One side of the hand-off: wait for my turn, re-arm it, then give the other side its turn. */
    private static Job passTheToken(int rounds, Counter myTurn, Counter theirTurn) {
        return () -> {
            for (int r = 0; r < rounds; r++) {
                myTurn.await();
                myTurn.add(1);                 // re-arm before releasing the other side: it decrements it next
                theirTurn.decrement();
            }
        };
    }

    /**
     * A long job readies a waiting fiber and keeps its worker busy until that fiber has run: the idle
     * worker must take the fiber after the grace (with no grace end, the long job would spin to its
     * deadline and the test fail).
     */
    @Test
    void aReadyFiberLeftBehindALongJobIsTakenByAnIdleWorker() throws Exception {
        try (JobSystem jobs = system(WorkPicker.DEFAULT_READY_GRACE_NANOS)) {
            for (int round = 0; round < 20; round++) {
                Counter gate = new Counter("gate");
                gate.add(1);
                AtomicBoolean waiterRan = new AtomicBoolean();
                AtomicBoolean ranWhileLongJobSpun = new AtomicBoolean();
                Counter done = new Counter("round " + round);
                jobs.run(() -> {
                    gate.await();
                    waiterRan.set(true);
                }, done);
                jobs.run(() -> {
                    while (jobs.stats().fibersParked() == 0) {   // the waiter parked on the gate
                        Thread.onSpinWait();
                    }
                    gate.decrement();                          // readies the waiter on this worker
                    long deadline = System.nanoTime() + TestSupport.LONG.toNanos() / 3;
                    while (!waiterRan.get() && System.nanoTime() < deadline) {
                        Thread.onSpinWait();                   // never unmounts: only a thief can run it
                    }
                    ranWhileLongJobSpun.set(waiterRan.get());
                }, done);
                TestSupport.await(done);
                assertTrue(ranWhileLongJobSpun.get(), "round " + round + ": the readied fiber waited "
                        + "behind the long job while a worker was idle");
            }
        }
    }
}
