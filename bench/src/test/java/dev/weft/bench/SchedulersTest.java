package dev.weft.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * Every adapter does what the workloads assume (counts, results, coverage), at one and two workers.
 * The timeout only turns a hang into a failure with a stack trace; nothing here measures speed.
 */
class SchedulersTest {
    private static final Duration HANG = Duration.ofMinutes(2);
    static final java.util.List<String> SYSTEMS = Schedulers.SYSTEMS;

    @ParameterizedTest
    @FieldSource("SYSTEMS")
    void runAllRunsEveryJobBeforeReturning(String system) {
        for (int workers = 1; workers <= 2; workers++) {
            try (SchedulerUnderTest s = Schedulers.create(system, workers)) {
                AtomicInteger ran = new AtomicInteger();
                assertTimeoutPreemptively(HANG, () -> s.runAll(ran::incrementAndGet, 5_000));
                assertEquals(5_000, ran.get(), system + " workers=" + workers);
                assertTimeoutPreemptively(HANG, () -> s.runAllFromJob(ran::incrementAndGet, 5_000));
                assertEquals(10_000, ran.get(), system + " workers=" + workers + ", from a job");
                assertEquals(system, s.name());
            }
        }
    }

    /** Every way of keeping the count (EmptyJobs' {@code counting}) waits for the last job, and no longer. */
    @ParameterizedTest
    @FieldSource("SYSTEMS")
    void runAllCountedRunsEveryJobBeforeReturning(String system) {
        for (int workers = 1; workers <= 2; workers++) {
            try (SchedulerUnderTest s = Schedulers.create(system, workers)) {
                AtomicInteger ran = new AtomicInteger();
                Runnable job = () -> {
                    for (int i = 0; i < 200; i++) {
                        Thread.onSpinWait();        // long enough that a wait ending early sees it unfinished
                    }
                    ran.incrementAndGet();
                };
                int expected = 0;
                for (boolean fromJob : new boolean[] {false, true}) {
                    for (boolean countOnce : new boolean[] {false, true}) {
                        assertTimeoutPreemptively(HANG, () -> s.runAllCounted(job, 3_000, fromJob, countOnce));
                        expected += 3_000;
                        assertEquals(expected, ran.get(), system + " workers=" + workers + " fromJob=" + fromJob
                                + " countOnce=" + countOnce);
                    }
                }
            }
        }
    }

    @ParameterizedTest
    @FieldSource("SYSTEMS")
    void fibIsRight(String system) {
        try (SchedulerUnderTest s = Schedulers.create(system, 2)) {
            assertEquals(610, assertTimeoutPreemptively(HANG, () -> s.fib(15)));
            assertEquals(0, s.fib(0));
            assertEquals(1, s.fib(1));
        }
    }

    @ParameterizedTest
    @FieldSource("SYSTEMS")
    void pingPongFinishes(String system) {
        for (int workers = 1; workers <= 2; workers++) {
            if (workers == 1 && system.equals("forkjoin")) {
                continue;   // parking blocks a fork-join worker: the two sides need two workers
            }
            try (SchedulerUnderTest s = Schedulers.create(system, workers)) {
                assertTimeoutPreemptively(HANG, () -> s.pingPong(500));
            }
        }
    }

    @ParameterizedTest
    @FieldSource("SYSTEMS")
    void parallelForCoversEveryIndexOnceInRangesOfAtMostTheGrain(String system) {
        int n = 100_003;
        int grain = 1024;
        try (SchedulerUnderTest s = Schedulers.create(system, 2)) {
            AtomicIntegerArray hits = new AtomicIntegerArray(n);
            AtomicInteger longRanges = new AtomicInteger();
            assertTimeoutPreemptively(HANG, () -> s.parallelFor(0, n, grain, (start, end) -> {
                if (end - start > grain || end <= start) {
                    longRanges.incrementAndGet();
                }
                for (int i = start; i < end; i++) {
                    hits.incrementAndGet(i);
                }
            }));
            for (int i = 0; i < n; i++) {
                assertEquals(1, hits.get(i), "index " + i);
            }
            assertEquals(0, longRanges.get(), "every range is non-empty and at most the grain (Weft's rule)");
        }
    }

    @ParameterizedTest
    @FieldSource("SYSTEMS")
    void submitOneIsDoneAfterAwait(String system) {
        try (SchedulerUnderTest s = Schedulers.create(system, 2)) {
            for (int i = 0; i < 100; i++) {
                AtomicInteger ran = new AtomicInteger();
                SchedulerUnderTest.Pending p = s.submitOne(ran::incrementAndGet);
                assertTimeoutPreemptively(HANG, p::await);
                assertTrue(p.isDone());
                assertEquals(1, ran.get());
            }
        }
    }

    @ParameterizedTest
    @FieldSource("SYSTEMS")
    void benchmarkBodiesRunOnce(String system) throws Exception {
        ParallelFor pf = new ParallelFor();
        pf.system = system;
        pf.workers = 2;
        pf.setUp();
        try {
            double expected = 0;
            for (int i = 0; i < ParallelFor.N; i++) {
                expected += Math.sqrt(i);
            }
            assertEquals(expected, pf.sumOfSqrt(), expected * 1e-9, "distinct partial[start / GRAIN] slots");
        } finally {
            pf.tearDown();
        }
        for (String style : new String[] {"counter", "handle"}) {
            Fib fib = new Fib();
            fib.system = system;
            fib.style = style;
            fib.setUp();                      // checks fib(22) itself
            fib.tearDown();
        }
    }

    @org.junit.jupiter.api.Test
    void aBadIdleStrategyPropertyNamesItselfAndWhatToPass() {
        for (String bad : new String[] {"200", "200,x", "spins,yields", "200,0,1"}) {
            System.setProperty(WeftScheduler.IDLE_PROPERTY, bad);
            try {
                IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(
                        IllegalArgumentException.class, () -> new WeftScheduler(1).close(), bad);
                assertTrue(e.getMessage().contains("-Dweft.bench.idle wants spins,yields")
                        && e.getMessage().contains("'" + bad + "'"), e.getMessage());
            } finally {
                System.clearProperty(WeftScheduler.IDLE_PROPERTY);
            }
        }
    }
}
