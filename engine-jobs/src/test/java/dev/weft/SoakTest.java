package dev.weft;

import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A bounded soak: many job-system lifetimes, each a random job graph with every feature at once, ended
 * by a random kind of shutdown at a random point, then audited.
 *
 * <p>Each lifetime: top-level jobs submitted by the test thread (which is the main thread) in windowed
 * random order, each waiting on up to three earlier ones (counter or handle, timed or not), some spawning
 * children (single, handles, a {@code runAll} batch, a {@code parallelFor}, fire-and-forget orphans),
 * some calling onto the main thread (joined or not), some cancelling other handles, some polling for
 * cancellation, some failing (unchecked, checked, Error); three groups, one of which may be cancelled;
 * FRAME/NORMAL/BACKGROUND mixed; some lifetimes park idle workers at once (no spin) to stress wake-ups.
 * Endings: drain then close, shutdown midway, close from another thread while submitting, shutdownNow
 * midway / from another thread / from inside a job / after the drain.
 *
 * <p>Audited after termination, per lifetime:
 * <ul>
 *   <li>every submitted job ran exactly once or was cancelled: per-job run counts are 0 or 1; jobs
 *       started on workers = {@code stats().jobsRun()}, on the main thread = {@code mainThreadJobsRun()},
 *       submitted − started = {@code jobsCancelled()} (parallelFor pieces, whose number depends on the
 *       schedule, are bounded by the elements left uncovered); every name in shutdownNow's list is a job
 *       that never ran; every handle is done and its state matches what its body did;</li>
 *   <li>every waiter woke: no timed wait inside a job and no wait of the test thread timed out, and each
 *       waiter saw exactly its dependency's outcome (failure or not);</li>
 *   <li>every counter ended at zero; failures of jobs nobody waits for reached the uncaught handler;</li>
 *   <li>nothing is left: {@code fibersAlive() == 0}, no fiber parked, no "&lt;name&gt;-worker-N" thread alive.</li>
 * </ul>
 * Sizes: CI {@value #CI_LIFETIMES} lifetimes per worker count (1, 2, 4); -Dweft.stress=full
 * {@value #FULL_LIFETIMES}, with larger graphs.
 *
 * <p>One lifetime's run is {@link SoakLifetime}, its audit {@link SoakAudit}, the state they share
 * {@link SoakModel}.
 */
@Timeout(1800)
class SoakTest {
    static final int CI_LIFETIMES = 250;
    static final int FULL_LIFETIMES = 1000;
    private static final int LIFETIMES = TestSupport.FULL ? FULL_LIFETIMES : CI_LIFETIMES;
    /** Totals over the whole run, printed at the end (the lead reports them). */
    private static final Map<Integer, SoakModel.Totals> TOTALS = new java.util.concurrent.ConcurrentSkipListMap<>();

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void manyLifetimesOfRandomGraphsAccountForEveryJob(int workers) {
        SoakModel.Totals totals = new SoakModel.Totals();
        long t0 = System.nanoTime();
        // -Dweft.soak.only=W:L[:R] replays lifetime L of W workers (R times): the seed depends on both.
        String only = System.getProperty("weft.soak.only");
        int from = 0, to = LIFETIMES, repeat = 1;
        if (only != null) {
            String[] p = only.split(":");
            if (Integer.parseInt(p[0]) != workers) {
                return;
            }
            from = Integer.parseInt(p[1]);
            to = from + 1;
            repeat = p.length > 2 ? Integer.parseInt(p[2]) : 1;
        }
        for (int k = 0; k < (to - from) * repeat; k++) {
            int life = from + k % (to - from);
            long seed = 0x50A4_0000L + workers * 1_000_003L + life;
            SoakModel.Ending ending = SoakModel.Ending.values()[life % SoakModel.Ending.values().length];
            try {
                new SoakLifetime(workers, life, seed, ending).run(totals);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("lifetime " + life + " (workers=" + workers + ", seed=0x"
                        + Long.toHexString(seed) + ", ending=" + ending + ") failed: " + e.getMessage(), e);
            }
        }
        System.out.printf("soak, %d workers, %.1f s: %s%n", workers, (System.nanoTime() - t0) / 1e9, totals);
        TOTALS.put(workers, totals);
    }

    @AfterAll
    static void printTotals() {
        SoakModel.Totals all = new SoakModel.Totals();
        TOTALS.values().forEach(all::add);
        System.out.println("soak totals (" + (TestSupport.FULL ? "full" : "ci") + "): " + all);
    }
}
