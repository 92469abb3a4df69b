package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real OutOfMemoryError in Weft's own code around a job run nested (Fiber.runNested: a handle joined by
 * the job that submitted it, run inline on the joiner's fiber), in a child JVM with a 32 MB heap and one
 * worker. Every path runs three times first with memory to spare (class and call-site resolution). The
 * outer job renamed its thread, so hiding its settings from the nested job allocates (a
 * ThreadSettings) after the nested job was admitted (RUNNING); the outer job fills the heap first, so
 * that allocation throws. finishRun was not in a finally: the nested job stayed RUNNING for ever, its
 * handle never completed, and whoever joined it later waited until its timeout.
 */
@Timeout(120)
class NestedJobOutOfMemoryTest {

    static final String CHILD = """
            import dev.weft.*;
            import java.time.Duration;
            import java.util.concurrent.TimeoutException;

            public class NestedOom {
            """ + OutOfMemoryTest.FILL_HEAP + """
                static volatile Object hog;
                static volatile JobHandle<Integer> lastInner;

                /** The outer job: renames its thread, submits inner, (fills the heap,) joins inner: it runs nested here. */
                static JobHandle<Integer> outer(JobSystem jobs, boolean full) throws Exception {
                    return jobs.submit(() -> {
                        Thread.currentThread().setName("renamed by the outer job");
                        JobHandle<Integer> inner = jobs.submit(() -> 42);   // the bottom of our own deque
                        lastInner = inner;
                        if (full) {
                            hog = fillHeap();
                        }
                        try {
                            inner.join();                  // runs inner here, nested: detaching our settings allocates
                        } catch (Throwable t) {
                            // the Error of the nested run's bookkeeping
                        } finally {
                            hog = null;
                        }
                        return inner;
                    }).join(Duration.ofSeconds(30));
                }

                public static void main(String[] args) throws Exception {
                    JobSystem jobs = JobSystem.builder().workers(1).name("nested").build();
                    for (int i = 0; i < 3; i++) {
                        outer(jobs, false);            // every path once while memory is plentiful (class and call-site resolution)
                    }
                    try {
                        outer(jobs, true);
                        System.out.println("RESULT outerJob=completed");
                    } catch (JobFailedException e) {
                        System.out.println("RESULT outerJob=failed " + e.getCause());   // the Error reached it: fine
                    }
                    JobHandle<Integer> inner = lastInner;
                    System.gc();
                    String innerResult;
                    try {
                        innerResult = "value " + inner.join(Duration.ofSeconds(5));
                    } catch (JobFailedException e) {
                        innerResult = "failed " + e.getCause().getClass().getName();
                    } catch (TimeoutException e) {
                        innerResult = "timeout";
                    }
                    System.out.println("RESULT inner=" + innerResult);
                    System.out.println("RESULT after=" + jobs.submit(() -> 7).join(Duration.ofSeconds(10)));
                    Thread closer = new Thread(jobs::close, "closer");
                    closer.setDaemon(true);
                    closer.start();
                    closer.join(10_000);
                    System.out.println("RESULT closed=" + !closer.isAlive());
                    System.out.flush();
                    Runtime.getRuntime().halt(0);
                }
            }
            """;

    @Test
    void aNestedJobWhoseBookkeepingRunsOutOfMemoryStillCompletesItsHandle(@TempDir Path dir) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, "NestedOom", CHILD, 60, "-Xmx32m", "-XX:+UseSerialGC",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        Map<String, String> results = r.results();
        assertEquals("failed java.lang.OutOfMemoryError", results.get("inner"),
                "the nested job completed, failed with the Error (its handle was not left running for ever): " + out);
        assertEquals("7", results.get("after"), "the worker goes on: " + out);
        assertEquals("true", results.get("closed"), "close() returned: " + out);
    }
}
