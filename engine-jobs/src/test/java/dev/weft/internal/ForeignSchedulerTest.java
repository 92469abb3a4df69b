package dev.weft.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@link FiberSupport#foreignScheduler()}: where the virtual threads a job starts run. On JDK 25 it is the
 * JDK's own virtual-thread scheduler; Weft's fallback pool (for a JDK where that cannot be reached) runs
 * a virtual thread through sleeps and wakes on daemon carriers of its own name.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ForeignSchedulerTest {
    @Test
    void foreignVirtualThreadsRunOnTheJdksOwnScheduler() throws Exception {
        Executor foreign = FiberSupport.foreignScheduler();
        assertSame(foreign, FiberSupport.foreignScheduler());
        Thread plain = Thread.ofVirtual().unstarted(() -> { });   // made on a platform thread: the JDK's default
        assertSame(FiberSupport.schedulerOf(plain), foreign);
    }

    @Test
    void theFallbackPoolRunsAVirtualThreadThroughItsWakes() throws Exception {
        ForkJoinPool pool = FiberSupport.ownForeignPool();
        assertTrue(pool.getAsyncMode(), "FIFO, like the JDK's scheduler");
        AtomicReference<String> before = new AtomicReference<>();
        AtomicReference<String> after = new AtomicReference<>();
        AtomicReference<Boolean> daemon = new AtomicReference<>();
        Thread t = FiberSupport.virtualThreadBuilder(pool).unstarted(() -> {
            Thread carrier = FiberSupport.currentCarrier();
            before.set(carrier.getName());
            daemon.set(carrier.isDaemon());
            try {
                Thread.sleep(5);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            after.set(FiberSupport.currentCarrier().getName());
        });
        t.start();
        assertTrue(t.join(Duration.ofSeconds(10)), "never finished: " + t);
        assertTrue(before.get().startsWith("weft-foreign-virtual-threads-"), before.get());
        assertTrue(after.get().startsWith("weft-foreign-virtual-threads-"), after.get());
        assertEquals(Boolean.TRUE, daemon.get());
        assertInstanceOf(ForkJoinPool.class, pool);
    }
}
