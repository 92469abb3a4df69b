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

    /**
     * The main thread of one system waits on another system's counter and helps it: the jobs it runs there
     * must not go on the other system's main track, which that system's own main thread writes (one writer
     * per track). A probe saw them recorded there: two threads wrote one ring, and with assertions on the
     * other main thread's runMainThreadJobs threw "trace track of main written on B-main".
     */
    @Test
    void anotherSystemsMainThreadHelpingHereRecordsNothingOnThisSystemsMainTrack() throws Exception {
        try (JobSystem a = TestSupport.system(1); JobSystem b = TestSupport.system(1)) {
            a.bindMainThread();                               // this thread owns a's mailbox
            java.util.concurrent.CountDownLatch bound = new java.util.concurrent.CountDownLatch(1);
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            AtomicReference<Throwable> bMainFailed = new AtomicReference<>();
            Thread bMain = new Thread(() -> {
                try {
                    b.bindMainThread();
                    bound.countDown();
                    while (!stop.get()) {
                        b.onMainThread("b main job", () -> 1);
                        b.runMainThreadJobs(1_000_000L);
                    }
                } catch (Throwable t) {
                    bMainFailed.set(t);
                }
            }, "B-main");
            bMain.start();
            bound.await();
            JobTrace trace = b.startTrace(10_000);
            long helpedBefore = b.stats().jobsRunByWaiters();
            for (int round = 0; round < 200 || b.stats().jobsRunByWaiters() == helpedBefore; round++) {
                Counter frame = new Counter("b frame");
                for (int i = 0; i < 20; i++) {
                    b.run(Priority.FRAME, "b frame job", () -> { }, frame);
                }
                frame.await();                                // this thread helps b
            }
            stop.set(true);
            bMain.join();
            trace.stop();
            assertEquals(null, bMainFailed.get(), "b's main thread failed");
            int mainTrack = b.workerCount();
            List<String> wrongTrack = trace.events().stream()
                    .filter(e -> e.track() == mainTrack && e.label().equals("b frame job"))
                    .map(e -> e.kind() + " " + e.label()).toList();
            assertEquals(List.of(), wrongTrack.stream().limit(4).toList(),
                    "jobs helped by a's main thread were recorded on b's main track");
        }
    }
}
