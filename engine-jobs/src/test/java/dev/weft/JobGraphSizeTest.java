package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A big {@link JobGraph} builds in time linear in its nodes and edges. The builder scanned every node per
 * name added and every successor per edge added, so N nodes took O(N^2): a chain of 40,000 nodes took
 * 7.5 s to add and one of 100,000 did not finish in 2 minutes; it now takes well under a second. The
 * bound below is 60 s for work the fixed builder does in well under one (and the old one in minutes), so a
 * slow or busy machine does not fail it.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class JobGraphSizeTest {
    private static final int NODES = 200_000;

    @Test
    void aChainAndAFanOfTwoHundredThousandNodesBuildAndRun() {
        JobGraph chain = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            JobGraph.Builder b = JobGraph.builder("chain");
            JobGraph.Node prev = null;
            for (int i = 0; i < NODES; i++) {
                JobGraph.Node n = b.job("n" + i, Priority.NORMAL, () -> { });
                if (prev != null) {
                    prev.precedes(n);
                    prev.precedes(n);                // a repeated edge is still one edge
                }
                prev = n;
            }
            return b.build();
        }, "building a chain of " + NODES + " nodes took more than a minute: quadratic in the nodes?");
        assertEquals(NODES, chain.nodes().size());

        AtomicLong ran = new AtomicLong();
        JobGraph fan = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
            JobGraph.Builder b = JobGraph.builder("fan");
            JobGraph.Node source = b.job("source", Priority.NORMAL, ran::incrementAndGet);
            JobGraph.Node sink = b.job("sink", Priority.NORMAL, ran::incrementAndGet);
            for (int i = 0; i < NODES; i++) {
                JobGraph.Node n = b.job("n" + i, Priority.NORMAL, ran::incrementAndGet);
                source.precedes(n).precedes(sink);
            }
            assertThrows(IllegalArgumentException.class, () -> b.job("n7", Priority.NORMAL, () -> { }),
                    "a repeated name is still refused");
            return b.build();
        }, "building a fan of " + NODES + " nodes took more than a minute: quadratic in the edges?");
        try (JobSystem jobs = TestSupport.system(2)) {
            Counter done = new Counter("fan");
            fan.run(jobs, done);
            TestSupport.await(done);
        }
        assertEquals(NODES + 2, ran.get(), "every node of the fan ran once");
    }
}
