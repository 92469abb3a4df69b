package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A job counted by a counter it also waits for ({@code jobs.after(frame).run(..., frame)}: "run this at
 * the end of the frame, and count it in the frame"). Its counter goes up at the call, so the counter can
 * reach zero only once the job ended, and the job starts only once the counter is at zero: it never ran,
 * and every wait on the counter hung, silently (a probe: 2 of 2 forms hung; {@code findWaitCycles()}
 * found nothing, close() returned with the job never run). It is refused at the call now, with nothing
 * added to the counter.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OwnCounterPrerequisiteTest {

    @Test
    void aJobCountedByItsOwnPrerequisiteCounterIsRefusedAtTheCall() throws Exception {
        try (JobSystem jobs = JobSystem.builder().workers(2).build()) {
            Counter frame = new Counter("frame");
            jobs.run(Priority.NORMAL, "simulate", () -> Thread.sleep(5), frame);
            Counter other = new Counter("other");

            IllegalArgumentException run = assertThrows(IllegalArgumentException.class,
                    () -> jobs.after(other).and(frame).run(Priority.FRAME, "present", () -> { }, frame));
            assertTrue(run.getMessage().contains("'frame'") && run.getMessage().contains("'present'")
                    && run.getMessage().contains("another counter"), run.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> jobs.after(frame).submit(Priority.NORMAL, "h", () -> 1, frame));
            assertThrows(IllegalArgumentException.class,
                    () -> jobs.after(frame).parallelFor(Priority.FRAME, 0, 100, 10, (s, e, w) -> { }, frame));
            assertThrows(IllegalArgumentException.class,                  // the empty range too
                    () -> jobs.after(frame).parallelFor(Priority.FRAME, 0, 0, 10, (s, e, w) -> { }, frame));
            JobGroup level = jobs.newGroup("level");
            assertThrows(IllegalArgumentException.class,
                    () -> level.after(frame).run(Priority.NORMAL, "g", () -> { }, frame));

            // Nothing was added by the refused calls: the counter drains with the one real job.
            assertTrue(frame.await(Duration.ofSeconds(10)), "frame stuck at " + frame.value());
            assertEquals(0, frame.value());

            // Counting by another counter still works, and a handle prerequisite counted by the same
            // counter as the dependent is fine (the handle completes on its own).
            Counter end = new Counter("end");
            JobHandle<Integer> h = jobs.submit(Priority.NORMAL, "h", () -> 2, end);
            jobs.after(frame).and(h).run(Priority.NORMAL, "after both", () -> { }, end);
            assertTrue(end.await(Duration.ofSeconds(10)), "end stuck at " + end.value());
        }
    }
}
