package dev.weft.bench.profiler;

import dev.weft.Counter;
import dev.weft.JobSystem;
import dev.weft.Priority;
import dev.weft.RangeJob;
import dev.weft.bench.RangeBody;

/**
 * Weft: each stage is a {@link Counter}. A stage without dependencies is an async
 * {@code jobs.parallelFor(FRAME, ..., counter)}; one with dependencies is a FRAME job on the same
 * counter that awaits the dependencies' counters (parking its fiber, not a worker) and then starts the
 * async parallel-for on that counter. The loop's ranges add to the counter before the job's own unit
 * is removed, so the counter cannot reach zero between the two.
 */
final class WeftFrameScheduler implements FrameScheduler {
    private final JobSystem jobs;

    WeftFrameScheduler(int workers) {
        jobs = JobSystem.builder().workers(workers).name("frame").build();
    }

    @Override
    public String name() {
        return "weft";
    }

    @Override
    public Stage parallelFor(String name, int count, int grain, RangeBody body, Stage... after) {
        Counter done = new Counter(name);
        RangeJob loop = (start, end, worker) -> body.run(start, end);
        if (after.length == 0) {
            jobs.parallelFor(Priority.FRAME, 0, count, grain, loop, done);
        } else {
            Counter[] deps = new Counter[after.length];
            for (int i = 0; i < after.length; i++) {
                deps[i] = ((WeftStage) after[i]).done;
            }
            jobs.run(Priority.FRAME, name, () -> {
                for (Counter d : deps) {
                    d.await();
                }
                jobs.parallelFor(Priority.FRAME, 0, count, grain, loop, done);
            }, done);
        }
        return new WeftStage(done);
    }

    @Override
    public void close() {
        jobs.close();
    }

    private record WeftStage(Counter done) implements Stage {
        @Override
        public void await() {
            done.await();
        }
    }
}
