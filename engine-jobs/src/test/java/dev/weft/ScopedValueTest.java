package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * ScopedValue bindings and Weft jobs: a binding made inside a job is seen by what it calls, wherever the
 * job resumes, and by nothing else (not the next job on its pooled fiber, not a job it runs inline).
 * Bindings of the submitting thread are not captured at submit (documented on {@link Jobs}).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ScopedValueTest {
    private static final ScopedValue<String> LEVEL = ScopedValue.newInstance();

    private static String levelOrNone() {
        return LEVEL.isBound() ? LEVEL.get() : "<unbound>";
    }

    /** Two workers, many parks: the binding survives every resume, on whichever worker it happens. */
    @Test
    void aBindingMadeInAJobIsSeenByItsCalleesAfterEveryParkAndResume() {
        try (JobSystem jobs = TestSupport.workersOnly(2)) {
            List<JobHandle<List<String>>> handles = new ArrayList<>();
            for (int j = 0; j < 8; j++) {
                String mine = "level-" + j;
                handles.add(jobs.submit(() -> ScopedValue.where(LEVEL, mine).call(() -> {
                    List<String> seen = new ArrayList<>();
                    for (int i = 0; i < 50; i++) {
                        Counter c = new Counter("step");
                        jobs.run(Priority.NORMAL, "step", () -> Thread.sleep(0, 1000), c);
                        c.await();                                 // parks; may resume on the other worker
                        seen.add(levelOrNone());
                    }
                    return seen;
                })));
            }
            for (int j = 0; j < handles.size(); j++) {
                for (String s : TestSupport.join(handles.get(j))) {
                    assertEquals("level-" + j, s, "job " + j + " lost or swapped its binding after a resume");
                }
            }
        }
    }

    /** One worker, so the pooled fiber is reused: the second job must not see the first one's binding. */
    @Test
    void theNextJobOnAPooledFiberSeesNoneOfThePreviousJobsBindings() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            AtomicInteger leaks = new AtomicInteger();
            for (int i = 0; i < 200; i++) {
                String mine = "job-" + i;
                JobHandle<String> binder = jobs.submit(() -> ScopedValue.where(LEVEL, mine).call(() -> {
                    Counter c = new Counter();
                    jobs.run(Priority.NORMAL, "nested", () -> {}, c);
                    c.await();
                    return levelOrNone();
                }));
                JobHandle<String> next = jobs.submit(ScopedValueTest::levelOrNone);
                assertEquals(mine, TestSupport.join(binder));
                if (!"<unbound>".equals(TestSupport.join(next))) {
                    leaks.incrementAndGet();
                }
            }
            assertEquals(0, leaks.get(), "jobs saw a binding of an earlier job");
        }
    }

    /**
     * A child joined while still in this worker's deque runs inline, on the parent's fiber and stack.
     * It is a job of its own: it must see no binding of the parent (a stolen child would not either),
     * and the parent's binding is back when the join returns.
     */
    @Test
    void aJobRunInlineByAJoinSeesNoneOfTheJoinersBindings() {
        try (JobSystem jobs = TestSupport.workersOnly(1)) {
            String[] seen = TestSupport.join(jobs.submit(() -> ScopedValue.where(LEVEL, "parent").call(() -> {
                JobHandle<String> child = jobs.submit(ScopedValueTest::levelOrNone);
                String inChild = child.join();                 // one worker: still at the bottom, runs inline
                return new String[] {inChild, levelOrNone()};
            })));
            assertEquals("<unbound>", seen[0], "the inline child saw the parent's binding");
            assertEquals("parent", seen[1], "the parent lost its binding after running a child inline");
        }
    }

    /** Not captured at submit: a job sees none of the submitting thread's bindings (as ThreadLocals). */
    @Test
    void bindingsOfTheSubmittingThreadAreNotCaptured() throws Exception {
        try (JobSystem jobs = TestSupport.workersOnly(2)) {
            String inJob = ScopedValue.where(LEVEL, "main thread").call(
                    () -> TestSupport.join(jobs.submit(ScopedValueTest::levelOrNone)));
            assertEquals("<unbound>", inJob);
            String inNestedSubmit = TestSupport.join(jobs.submit(() -> ScopedValue.where(LEVEL, "outer job")
                    .call(() -> {
                        JobHandle<String> h = jobs.submit(ScopedValueTest::levelOrNone);
                        Counter wait = new Counter();
                        jobs.run(Priority.NORMAL, "let it be stolen", () -> {}, wait);
                        wait.await();
                        return h.join();
                    })));
            assertEquals("<unbound>", inNestedSubmit);
            assertFalse(LEVEL.isBound());
        }
    }

    /**
     * A waiting outside thread runs queued jobs on its own stack (WaitingHelp): they must not see the
     * waiter's bindings, and the waiter's are back after each. No workers are free (both spin until the
     * test thread has waited), so the jobs the wait depends on run on the test thread.
     */
    @Test
    void aJobAWaitingThreadRunsForItSeesNoneOfTheWaitersBindings() throws Exception {
        try (JobSystem jobs = TestSupport.system(1)) {
            java.util.concurrent.atomic.AtomicBoolean release = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.atomic.AtomicBoolean holding = new java.util.concurrent.atomic.AtomicBoolean();
            Counter busy = new Counter("busy");
            jobs.run(Priority.NORMAL, "hold the worker", () -> {
                holding.set(true);
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            }, busy);
            TestSupport.eventually("the worker is held", holding::get);   // else it would take the FRAME jobs first
            Counter frame = new Counter("frame");
            List<String> seenByJobs = java.util.Collections.synchronizedList(new ArrayList<>());
            List<Thread> ranOn = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int i = 0; i < 4; i++) {
                jobs.run(Priority.FRAME, "frame job", () -> { ranOn.add(Thread.currentThread()); seenByJobs.add(levelOrNone()); }, frame);
            }
            String afterWait = ScopedValue.where(LEVEL, "main").call(() -> {
                frame.await();                                   // the test thread runs the FRAME jobs
                return levelOrNone();
            });
            release.set(true);
            TestSupport.await(busy);
            assertTrue(ranOn.contains(Thread.currentThread()), "the waiting thread ran none of the jobs: " + ranOn);
            assertEquals(List.of("<unbound>", "<unbound>", "<unbound>", "<unbound>"), seenByJobs);
            assertEquals("main", afterWait, "the waiter lost its binding after helping");
        }
    }
}
