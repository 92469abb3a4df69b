package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.Priority;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Background work runs at a lower OS priority, and a worker always gets its own priority back. */
@Timeout(120)
class ThreadNiceTest {

    @Test
    void ioThreadsAreLoweredAndWorkersAreRestoredAfterDecoding() throws Exception {
        Assumptions.assumeTrue(ThreadNice.supported(), "thread priorities cannot be restored here");
        Set<Integer> ioNice = ConcurrentHashMap.newKeySet();
        AssetSource recording = new Fixture.ForwardingSource(AssetSource.classpath()) {
            @Override
            public byte[] read(String path) throws IOException {
                ioNice.add(ThreadNice.currentNice());
                return inner.read(path);
            }
        };
        int baseline = ThreadNice.currentNice();
        Assumptions.assumeTrue(baseline < IoPool.DEFAULT_NICE, "this JVM already runs at nice " + baseline);
        try (JobSystem jobs = Fixture.jobs()) {
            try (AssetManager assets = AssetManager.builder(jobs).source(recording).build()) {
                LevelLoad load = new LevelLoader(assets).load("tiny");
                Fixture.awaitLoad(load);
                assertTrue(load.failures().isEmpty(), load.failures().toString());
                load.unload();
            }
            assertEquals(Set.of(IoPool.DEFAULT_NICE), ioNice, "I/O threads run at the background priority");
            for (JobHandle<Integer> h : niceOfEveryWorker(jobs)) {
                assertEquals(baseline, h.join(), "worker priorities restored after decoding");
            }
            try (ThreadNice.Restore r = ThreadNice.lowerWhile(15)) {
                assertEquals(15, ThreadNice.currentNice());
            }
            assertEquals(baseline, ThreadNice.currentNice());
        }
    }

    /** Many jobs that report their carrier's nice value: with two workers, both are sampled. */
    private static List<JobHandle<Integer>> niceOfEveryWorker(JobSystem jobs) {
        List<JobHandle<Integer>> hs = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            hs.add(jobs.submit(Priority.NORMAL, "nice probe", ThreadNice::currentNice));
        }
        return hs;
    }
}
