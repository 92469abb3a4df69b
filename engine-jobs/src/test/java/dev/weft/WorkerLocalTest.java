package dev.weft;

import static dev.weft.TestSupport.await;
import static dev.weft.TestSupport.join;
import static dev.weft.TestSupport.system;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A value per worker thread: kept from job to job, never shared by two jobs running at once. */
@Timeout(120)
class WorkerLocalTest {

    /** A scratch object that notices being used by two jobs at once. */
    static final class Scratch {
        final AtomicBoolean inUse = new AtomicBoolean();
    }

    @ParameterizedTest(name = "workers={0}")
    @ValueSource(ints = {1, 2, 4})
    void oneValuePerWorkerKeptAcrossJobsAndNeverUsedByTwoJobsAtOnce(int workers) {
        AtomicInteger made = new AtomicInteger();
        WorkerLocal<Scratch> local = WorkerLocal.withInitial(() -> {
            made.incrementAndGet();
            return new Scratch();
        });
        ThreadLocal<Object> plain = ThreadLocal.withInitial(Object::new);
        Set<Object> plainValues = Collections.newSetFromMap(new ConcurrentHashMap<>());
        AtomicInteger overlaps = new AtomicInteger();
        Set<Scratch> seen = Collections.newSetFromMap(Collections.synchronizedMap(new IdentityHashMap<>()));
        int n = TestSupport.FULL ? 200_000 : 20_000;
        int slots;
        try (JobSystem jobs = system(workers)) {
            slots = jobs.workerSlots();                   // the waiting main thread may run jobs: its own slot
            Counter done = new Counter("all");
            for (int i = 0; i < n; i++) {
                int id = i;
                jobs.run(() -> {
                    Scratch s = local.get();
                    if (!s.inUse.compareAndSet(false, true)) {
                        overlaps.incrementAndGet();
                        return;
                    }
                    assertSame(s, local.get(), "same job, same worker: same value");
                    for (int k = 0; k < (id & 63); k++) {
                        Thread.onSpinWait();          // widen the window another job could use it in
                    }
                    s.inUse.set(false);
                    seen.add(s);
                    if (id % 1000 == 0) {
                        plainValues.add(plain.get());
                    }
                }, done);
            }
            await(done);
        }
        assertEquals(0, overlaps.get(), "two jobs used one worker's value at once");
        assertTrue(seen.size() <= slots, n + " jobs on " + workers + " workers (" + slots + " slots) saw "
                + seen.size() + " values");
        assertEquals(seen.size(), made.get(), "made once per worker, not per job");
        assertTrue(plainValues.size() > workers,
                "the contrast: a ThreadLocal gives each job a fresh value (" + plainValues.size() + " seen)");
    }

    @Test
    void outsideAJobItIsAValuePerThread() throws Exception {
        WorkerLocal<Object> local = WorkerLocal.withInitial(Object::new);
        Object mine = local.get();
        assertSame(mine, local.get());
        Object[] other = new Object[1];
        Thread t = new Thread(() -> other[0] = local.get());
        t.start();
        t.join();
        assertNotSame(mine, other[0]);
        try (JobSystem jobs = system(1)) {
            assertNotSame(mine, join(jobs.submit(local::get)), "a job gets its worker's, not the submitter's");
        }
    }

    /**
     * A supplier that parks may resume on another worker: the value goes to the worker the job is on
     * when it returns, so the next get() there finds it (stored on the old worker, it would be made again).
     */
    @Test
    void aSupplierThatWaitsStoresItsValueOnTheWorkerItResumedOn() {
        try (JobSystem jobs = system(2)) {
            for (int round = 0; round < 200; round++) {
                Counter gate = new Counter("gate");
                gate.add(1);
                AtomicInteger made = new AtomicInteger();
                WorkerLocal<Object> local = WorkerLocal.withInitial(() -> {
                    if (made.incrementAndGet() == 1) {
                        gate.await();                // parks inside the supplier: the fiber may move
                    }
                    return new Object();
                });
                JobHandle<Boolean> sameTwice = jobs.submit(() -> local.get() == local.get());
                TestSupport.eventually("the supplier parked", () -> jobs.stats().fibersParked() == 1);
                gate.decrement();
                assertTrue(join(sameTwice), "round " + round + ": a second get() right after the first made a new value");
                assertEquals(1, made.get(), "round " + round);
            }
        }
    }

    @Test
    void misuseSaysWhatWasWrong() {
        assertThrows(NullPointerException.class, () -> WorkerLocal.withInitial(null));
        WorkerLocal<Object> broken = WorkerLocal.withInitial(() -> null);
        var e = assertThrows(NullPointerException.class, broken::get);
        assertTrue(e.getMessage().contains("initial supplier returned null"), e.getMessage());
        try (JobSystem jobs = system(1)) {
            JobHandle<Object> h = jobs.submit(broken::get);
            var f = assertThrows(JobFailedException.class, h::join);
            assertTrue(f.getCause().getMessage().contains("initial supplier returned null"));
        }
    }
}
