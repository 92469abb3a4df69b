package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An outside submission whose offer must link a new chunk of the injection queue while the heap is
 * exhausted (a child JVM, -Xmx32m): the offer throws OutOfMemoryError after the job's counter was counted.
 * The submitter got the Error, but the unit stayed on the counter with the job in no queue, so the
 * counter never reached zero once everything else had run, and its waiter timed out. Now the unit is
 * taken back before the Error reaches the submitter. The same for a batch from outside. A job its
 * prerequisites release on a thread that is no worker fails as one that cannot start, so the decrement
 * does not throw and the job's counter completes (the release used to cancel and report it unguarded:
 * the report's own Error escaped into the decrement, with the job's counter still up, 1 run in 4).
 *
 * <p>How the Error is made to come from the chunk: 4,000 jobs run first, so that their nodes come home to
 * the submitting thread (OutsideNodes) and later submissions allocate none; then the one worker is held by
 * a job, 1,000 jobs are queued, the heap is filled to the last bytes, and jobs are submitted until one
 * throws. Only the offer that links the queue's second chunk allocates.
 */
@Timeout(60)
class InjectionOutOfMemoryTest {
    static final String CHILD = """
            import dev.weft.*;
            import java.time.Duration;
            import java.util.concurrent.locks.LockSupport;

            public class OomInjection {
            """ + OutOfMemoryTest.FILL_HEAP + """
                static volatile Object hog;
                static volatile boolean holding, release;

                public static void main(String[] args) throws Exception {
                    // A logger that fails for the released job: the release used to report its Error there,
                    // unguarded, so whatever the handler threw escaped into the decrement (deterministic here;
                    // with the default handler, its own OutOfMemoryError did so 1 run in 4).
                    JobSystem jobs = JobSystem.builder().workers(1).name("inject").onUncaughtFailure((name, t) -> {
                        if ("released".equals(name)) {
                            throw new IllegalStateException("the logger failed");
                        }
                        System.err.println(name + ": " + t);
                    }).build();
                    // Warm-up: 4,000 jobs run and their nodes come home to this thread (OutsideNodes), so the
                    // submissions below take recycled nodes: with the heap full, the one allocation left on
                    // their path is the queue's next chunk.
                    Counter warmUp = new Counter("warm-up");
                    Job nothing = () -> { };
                    Job[] three = {nothing, nothing, nothing};
                    for (int i = 0; i < 1000; i++) {
                        jobs.run(Priority.NORMAL, "warm-up", nothing, warmUp);
                        jobs.runAll(Priority.NORMAL, warmUp, three);   // loads and compiles the batch path too
                    }
                    for (int i = 0; i < 100; i++) {               // the release by prerequisites, from here
                        Counter warmGate = new Counter("warm gate");
                        warmGate.add(1);
                        jobs.after(warmGate).run(Priority.NORMAL, "warm-up", nothing, warmUp);
                        warmGate.decrement();
                    }
                    warmUp.await(Duration.ofSeconds(10));
                    jobs.run(Priority.NORMAL, "holder", () -> {
                        holding = true;
                        while (!release) {
                            Thread.onSpinWait();       // holds the one worker: nothing is taken from the queue
                        }
                    }, null);
                    while (!holding) {
                        LockSupport.parkNanos(1_000_000L);
                    }
                    Counter queued = new Counter("queued");
                    int submitted = 0;
                    for (int i = 0; i < 1000; i++) {
                        jobs.run(Priority.NORMAL, "queued", nothing, queued);
                        submitted++;
                    }
                    Counter batch = new Counter("batch");     // made before the heap is full
                    Counter gate = new Counter("gate");
                    gate.add(1);
                    Counter released = new Counter("released");
                    jobs.after(gate).run(Priority.NORMAL, "released", nothing, released);
                    Object[] refills = new Object[64];        // made before the heap is full
                    hog = fillHeap();
                    Throwable thrown = null;
                    for (int i = 0; i < 60_000 && thrown == null; i++) {
                        if (i % 1000 == 999) {
                            // Still no Error: a collection made room (1 run in 8 on a loaded machine, the
                            // chunk was linked). Fill that room too, before the next chunk's offer.
                            refills[i / 1000] = fillHeap();
                        }
                        try {
                            jobs.run(Priority.NORMAL, "queued", nothing, queued);
                            submitted++;
                        } catch (Throwable t) {
                            thrown = t;
                        }
                    }
                    long valueAtError = queued.value();    // nothing has run: the worker is held
                    // A batch from outside, the queue still at its chunk's end and the heap still full.
                    Throwable batchThrown = null;
                    try {
                        jobs.runAll(Priority.NORMAL, batch, three);
                    } catch (Throwable t) {
                        batchThrown = t;
                    }
                    long batchValue = batch.value();
                    // A job whose prerequisite this thread completes: released here, injected here.
                    Throwable releaseThrown = null;
                    try {
                        gate.decrement();
                    } catch (Throwable t) {
                        releaseThrown = t;
                    }
                    long releasedValue = released.value();
                    hog = null;
                    refills = null;
                    System.gc();
                    System.out.println("RESULT thrown=" + thrown);
                    System.out.println("RESULT batchThrown=" + batchThrown);
                    System.out.println("RESULT batchValue=" + batchValue);
                    System.out.println("RESULT releaseThrown=" + releaseThrown);
                    System.out.println("RESULT releasedValue=" + releasedValue);
                    System.out.println("RESULT submitted=" + submitted);
                    System.out.println("RESULT valueAtError=" + valueAtError);
                    release = true;
                    boolean reached = queued.await(Duration.ofSeconds(10));
                    System.out.println("RESULT reached=" + reached);
                    System.out.println("RESULT valueAfter=" + queued.value());
                    // The released job was queued (a collection made room for the chunk) and runs now, or it
                    // could not be and failed: either way its counter ends.
                    boolean releasedEnded;
                    try {
                        releasedEnded = released.await(Duration.ofSeconds(10));
                    } catch (JobFailedException failedToStart) {
                        releasedEnded = released.value() == 0;
                    }
                    System.out.println("RESULT releasedEnded=" + releasedEnded);
                    System.out.println("RESULT batchEnded=" + batch.await(Duration.ofSeconds(10)));
                    System.out.flush();
                    Runtime.getRuntime().halt(0);
                }
            }
            """;

    @Test
    void anOutsideSubmissionThatCannotLinkAChunkGetsTheErrorAndLeavesItsCounterConsistent(@TempDir Path dir)
            throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, "OomInjection", CHILD, 50, "-Xmx32m", "-XX:+UseSerialGC",
                "--add-opens", "java.base/java.lang=ALL-UNNAMED");
        String out = r.output();
        assertEquals(0, r.exitCode(), out);
        Map<String, String> results = r.results();
        assertTrue(results.getOrDefault("thrown", "").startsWith("java.lang.OutOfMemoryError"),
                "the submitter got the OutOfMemoryError: " + out);
        // The holder's offer and 1,023 more fill the first chunk of 1,024; the next offer links a new one. The
        // nodes are recycled, so that offer's chunk is mostly the only allocation and the Error comes from it
        // (submitted=1023; 1 run in 10 a node was not home yet and the Error came a few submissions earlier,
        // before the job was counted). (The JVM's preallocated OutOfMemoryErrors with stack traces are used up
        // by the heap filler, so no stack shows it.)
        assertEquals(results.get("submitted"), results.get("valueAtError"),
                "the counter holds the submissions that succeeded, not the one that failed: " + out);
        // A batch from outside gets the Error too, with none of it counted; or, if a collection made room
        // meanwhile, it was queued whole.
        boolean batchRefused = results.getOrDefault("batchThrown", "").startsWith("java.lang.OutOfMemoryError");
        assertEquals(batchRefused ? "0" : "3", results.get("batchValue"), "a batch is counted only if queued: " + out);
        assertEquals("true", results.get("batchEnded"), out);
        assertEquals("null", results.get("releaseThrown"), "a decrement that releases a job does not throw: " + out);
        // Prerequisites.Release catches what the release throws and fails the job (HeapExhaustion.notQueued).
        assertEquals("true", results.get("releasedEnded"), "the released job ran or failed, its counter ended: " + out);
        assertEquals("true", results.get("reached"), "the waiter saw every queued job end: " + out);
        assertEquals("0", results.get("valueAfter"), out);
    }
}
