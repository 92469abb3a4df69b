package dev.weft.bench.profiler;

import dev.weft.bench.RangeBody;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The JDK's default virtual threads: each stage is a coordinator virtual thread that joins the threads
 * of the stages it depends on, starts one virtual thread per range of at most {@code grain} entities and
 * joins them. The frame thread joins the last coordinator.
 */
final class VirtualThreadFrameScheduler implements FrameScheduler {

    @Override
    public String name() {
        return "vthreads";
    }

    @Override
    public Stage parallelFor(String name, int count, int grain, RangeBody body, Stage... after) {
        VtStage stage = new VtStage();
        Stage[] deps = after.clone();
        stage.thread = Thread.ofVirtual().name(name).start(() -> {
            try {
                for (Stage d : deps) {
                    d.await();
                }
                int g = Math.max(1, grain);
                int chunks = (int) (((long) count + g - 1) / g);    // every range <= grain
                Thread[] workers = new Thread[chunks];
                for (int c = 0; c < chunks; c++) {
                    int s = (int) ((long) count * c / chunks);
                    int e = (int) ((long) count * (c + 1) / chunks);
                    workers[c] = Thread.startVirtualThread(() -> {
                        try {
                            body.run(s, e);
                        } catch (Throwable t) {
                            stage.failure.compareAndSet(null, t);
                        }
                    });
                }
                for (Thread t : workers) {
                    t.join();
                }
            } catch (Throwable t) {
                stage.failure.compareAndSet(null, t);
            }
        });
        return stage;
    }

    @Override
    public void close() {
    }

    private static final class VtStage implements Stage {
        volatile Thread thread;                                           // written once before parallelFor returns
        final AtomicReference<Throwable> failure = new AtomicReference<>(); // first failure of the stage or a dependency

        @Override
        public void await() {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for a stage", e);
            }
            Throwable t = failure.get();
            if (t != null) {
                throw new IllegalStateException("stage failed", t);
            }
        }
    }
}
