package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Misuse found by programs on the public API, and the message each now gets. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MisuseMessagesTest {

    /** It used to be accepted here and fail at build(), with the workers started before it still running. */
    @Test
    void aWorkerStackTooLargeForAnyThreadIsRefusedByTheSetter() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> JobSystem.builder().workerStackBytes(Long.MAX_VALUE));
        assertTrue(e.getMessage().contains("1 GiB") && e.getMessage().contains(Long.toString(Long.MAX_VALUE)),
                e.getMessage());
        try (JobSystem jobs = JobSystem.builder().workers(2).workerStackBytes(1L << 30).build()) {
            assertEquals(3, TestSupport.join(jobs.submit(() -> 1 + 2)), "the largest accepted stack works");
        }
    }

    /**
     * A job decrements its own counter as well (the counter goes to zero early), then ends: the worker's
     * decrement is refused and goes to the failure handler. It used to be reported under the counter's
     * name as if that were a job ("job 'frame' failed"); it now says it is a job counted by that counter.
     */
    @Test
    void aRefusedDecrementAtAJobsEndNamesTheCounterAsTheCounter() {
        List<String> names = new CopyOnWriteArrayList<>();
        List<Throwable> failures = new CopyOnWriteArrayList<>();
        try (JobSystem jobs = JobSystem.builder().workers(1).onUncaughtFailure((name, t) -> {
            names.add(name);
            failures.add(t);
        }).build()) {
            Counter frame = new Counter("frame");
            Counter outer = new Counter("outer");
            jobs.run(Priority.NORMAL, "outer", () -> {
                jobs.run(Priority.NORMAL, "decrements for itself", frame::decrement, frame);
                frame.await();
            }, outer);
            outer.await();
            TestSupport.eventually("the refusal reported", () -> !names.isEmpty());
        }
        assertEquals(List.of("a job counted by counter 'frame'"), names);
        assertTrue(failures.get(0) instanceof IllegalStateException
                && failures.get(0).getMessage().contains("below zero"), String.valueOf(failures.get(0)));
    }

    /** It used to say "runMainThreadJobs was called from virtual thread ..." to a job that called bindMainThread. */
    @Test
    void bindMainThreadFromAJobNamesTheCallThatWasMade() {
        try (JobSystem jobs = JobSystem.builder().workers(1).build()) {
            JobFailedException e = assertThrows(JobFailedException.class,
                    () -> TestSupport.join(jobs.submit(() -> {
                        jobs.bindMainThread();
                        return 1;
                    })));
            String m = e.getCause().getMessage();
            assertTrue(m.contains("bindMainThread") && m.contains("platform thread"), m);
        }
    }
}
