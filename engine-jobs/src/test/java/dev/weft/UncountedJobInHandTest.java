package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fiber loop caught an Error of Weft's own code (the heap exhausted) with a job in hand that had not
 * started: a {@code jobs.run(task)} with no counter, not a handle. HeapExhaustion.fiberLoopThrew took any
 * NEW node with no counter for a pooled node already recycled and did nothing: the job never ran and
 * nobody heard of it, not even its name (only "fiber ... went on"). Such an Error cannot be provoked at
 * that exact point from outside (the steps before a job's admit allocate only with the heap exhausted),
 * so the handler is called here as the loop calls it, from a job on the fiber, with an unstarted node
 * and the Error the loop would have caught. The carrier loop's handler already failed such a job
 * (HeapExhaustion.startFailed), which reports it by name: checked as well, through the same node kind.
 */
@Timeout(60)
class UncountedJobInHandTest {

    private static PooledJob unstarted(String name, AtomicBoolean ran) {
        PooledJob n = new PooledJob();
        n.job = () -> ran.set(true);
        n.priority = Priority.NORMAL.ordinal();
        n.name = name;
        return n;
    }

    @Test
    void anUncountedJobTheFiberLoopCouldNotStartIsFailedAndReportedByName() throws Exception {
        ConcurrentLinkedQueue<String> uncaught = new ConcurrentLinkedQueue<>();
        try (JobSystem jobs = JobSystem.builder().workers(1).name("in-hand")
                .onUncaughtFailure((job, t) -> uncaught.add(job + ": " + t)).build()) {
            AtomicBoolean ran = new AtomicBoolean();
            PooledJob orphan = unstarted("orphan", ran);
            OutOfMemoryError error = new OutOfMemoryError("Java heap space (simulated: before the job's admit)");
            jobs.submit(() -> {
                HeapExhaustion.fiberLoopThrew(Fiber.current(), orphan, error);
                return null;
            }).join();
            List<String> reports = List.copyOf(uncaught);
            assertTrue(reports.stream().anyMatch(r -> r.startsWith("orphan: java.lang.OutOfMemoryError")),
                    "the job's failure was reported under its name: " + reports);
            assertTrue(orphan.isRecycled(), "it completed (failed, then recycled), as a job that cannot start does");
            assertFalse(ran.get(), "its body did not run");

            // A pooled node already recycled (its work cleared): completed before, nothing to report.
            uncaught.clear();
            PooledJob recycled = new PooledJob();
            recycled.priority = Priority.NORMAL.ordinal();
            jobs.submit(() -> {
                HeapExhaustion.fiberLoopThrew(Fiber.current(), recycled, error);
                return null;
            }).join();
            assertEquals(JobNode.NEW, recycled.state(), "a recycled node is left alone");
            assertTrue(uncaught.stream().noneMatch(r -> r.startsWith("job:")), "no report for it: " + uncaught);
            assertEquals(7, jobs.submit(() -> 7).join(), "the worker goes on");
        }
    }
}
