package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A trace keeps each track's newest events: one left running and stopped after a hitch holds the moments
 * before it. It kept the first ones and dropped the rest (its Javadoc said the opposite; a probe found
 * that a trace of 600 frames kept frame 0 and nothing of frame 599).
 */
class TraceRingTest {

    @Test
    void aFullTraceKeepsTheNewestEventsOfEachTrack() {
        try (JobSystem jobs = TestSupport.system(1)) {
            JobTrace trace = jobs.startTrace(100);
            for (int i = 0; i < 1_000; i++) {
                TestSupport.join(jobs.submit(Priority.NORMAL, "job " + i, () -> 1));
            }
            trace.stop();
            List<JobTrace.Event> worker0 = trace.events().stream().filter(e -> e.track() == 0).toList();
            assertEquals(100, worker0.size(), "the track keeps exactly its capacity");
            assertTrue(worker0.stream().anyMatch(e -> e.label().equals("job 999")), "the newest job is kept");
            assertFalse(worker0.stream().anyMatch(e -> e.label().equals("job 0")), "the oldest is not");
            long total = trace.events().size() + trace.droppedEvents();
            assertTrue(trace.droppedEvents() >= 1_900, "dropped " + trace.droppedEvents() + " of " + total);
        }
    }

    /** Read while recording: an event the writer overwrites during the copy is skipped, never read torn. */
    @Test
    void readingWhileRecordingGivesWholeEventsInTimeOrder() {
        try (JobSystem jobs = TestSupport.system(2)) {
            JobTrace trace = jobs.startTrace(64);
            Counter done = new Counter("stream");
            for (int i = 0; i < 200_000; i++) {
                jobs.run(Priority.NORMAL, "j", () -> { }, done);
            }
            for (int read = 0; read < 300 && done.value() > 0; read++) {
                List<JobTrace.Event> events = trace.events();
                for (int k = 1; k < events.size(); k++) {
                    JobTrace.Event a = events.get(k - 1);
                    JobTrace.Event b = events.get(k);
                    if (a.track() == b.track()) {
                        assertTrue(a.timeNanos() <= b.timeNanos(), "torn or out of order: " + a + " then " + b);
                    }
                }
            }
            TestSupport.await(done);
            trace.stop();
        }
    }
}
