package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The main thread's own spans in a trace: on its track, around the main-thread jobs run inside them. */
@Timeout(60)
class TraceSpanTest {
    @Test
    void aSpanIsASliceOnTheMainTrackAroundTheMainThreadJobsRunInIt() throws Exception {
        try (JobSystem jobs = TestSupport.system(2)) {
            jobs.bindMainThread();
            jobs.beginTraceSpan("before the trace");      // nothing records: ignored
            jobs.endTraceSpan();
            JobTrace trace = jobs.startTrace(1000);
            JobHandle<Integer> upload = jobs.onMainThread("upload", () -> 7);
            jobs.beginTraceSpan("draw frame");
            assertEquals(1, jobs.runMainThreadJobs(1_000_000_000L));
            jobs.endTraceSpan();
            assertEquals(7, upload.join());
            trace.stop();

            int mainTrack = jobs.workerCount();
            List<String> main = trace.events().stream().filter(e -> e.track() == mainTrack)
                    .map(e -> e.kind() + " " + e.label()).toList();
            assertEquals(List.of("begin draw frame", "begin upload", "end upload", "end "), main);
            StringWriter json = new StringWriter();
            trace.writeChromeTrace(json);
            assertTrue(json.toString().contains("{\"name\":\"draw frame\",\"cat\":\"job\",\"ph\":\"B\""), json.toString());
        }
    }

    @Test
    void aSpanFromAnotherThreadIsRefusedNamingTheMainThreadRule() throws Exception {
        try (JobSystem jobs = TestSupport.system(1)) {
            jobs.bindMainThread();
            jobs.startTrace(100);
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread other = new Thread(() -> {
                try {
                    jobs.beginTraceSpan("draw");
                } catch (Throwable t) {
                    thrown.set(t);
                }
            }, "not-main");
            other.start();
            other.join();
            assertTrue(thrown.get() instanceof IllegalStateException, String.valueOf(thrown.get()));
            assertTrue(thrown.get().getMessage().contains("not-main") && thrown.get().getMessage().contains("bindMainThread"),
                    thrown.get().getMessage());
            JobFailedException inJob = assertThrows(JobFailedException.class,
                    () -> jobs.submit(() -> { jobs.endTraceSpan(); return 0; }).join());
            assertTrue(inJob.getCause() instanceof IllegalStateException, String.valueOf(inJob.getCause()));
        }
    }
}
