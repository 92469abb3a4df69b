package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.Priority;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** I/O that parks fibers: reads run on the I/O threads, waiting jobs free their workers, faults apply per path. */
@Timeout(120)
class IoPoolTest {
    private static final Map<String, byte[]> FILES = Fixture.files("a/x.bin", "hello", "a/y.bin", "world");

    /**
     * One worker, eight jobs waiting for reads that cannot finish until a ninth job, submitted once a read
     * is under way, opens a gate. If a waiting reader held the worker, the gate job could never run and the
     * read fails saying so; parked, the worker is free and everything finishes. (No clock involved.)
     */
    @Test
    void waitingForAReadParksTheFiberNotTheWorker() throws Exception {
        java.util.concurrent.CountDownLatch entered = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch gate = new java.util.concurrent.CountDownLatch(1);
        Fixture.RecordingSource source = new Fixture.RecordingSource(AssetSource.inMemory(FILES)) {
            @Override
            public byte[] read(String path) throws java.io.IOException {
                entered.countDown();
                // Spin, as a read in native code holds its thread (a j.u.c wait would unmount a fiber).
                long deadline = System.nanoTime() + Fixture.TIMEOUT.toNanos();
                while (gate.getCount() > 0) {
                    if (System.nanoTime() > deadline) {
                        throw new java.io.IOException("the gate job never ran: a waiting reader held the only worker");
                    }
                    Thread.onSpinWait();
                }
                return super.read(path);
            }
        };
        try (JobSystem jobs = JobSystem.builder().name("io-test").workers(1).build();
             IoPool io = new IoPool(source, FaultPlan.NONE, 2)) {
            List<JobHandle<byte[]>> reads = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                String path = i % 2 == 0 ? "a/x.bin" : "a/y.bin";
                reads.add(jobs.submit(Priority.BACKGROUND, "reader " + i, () -> io.read(path).await()));
            }
            assertTrue(entered.await(Fixture.TIMEOUT.toMillis(), java.util.concurrent.TimeUnit.MILLISECONDS));
            jobs.submit(Priority.BACKGROUND, "gate", () -> {
                gate.countDown();
                return null;
            });
            for (int i = 0; i < 8; i++) {
                assertArrayEquals(FILES.get(i % 2 == 0 ? "a/x.bin" : "a/y.bin"), reads.get(i).join());
            }
            assertTrue(jobs.stats().waits() >= 8, "every reader parked: " + jobs.stats());
            source.assertOnlyIoThreads();
            assertEquals(8, io.reads());
            Fixture.assertNoFiberParked(jobs);
        }
    }

    @Test
    void faultsApplyPerPath() throws Exception {
        FaultPlan faults = FaultPlan.builder()
                .failRead("a/x.*", "bad block")
                .truncate("*/y.bin", 2)
                .build();
        try (IoPool io = new IoPool(AssetSource.inMemory(FILES), faults, 1)) {
            IOException e = assertThrows(IOException.class, () -> io.read("a/x.bin").await());
            assertEquals("injected read failure for mem:a/x.bin: bad block", e.getMessage());
            assertArrayEquals(Fixture.ascii("wo"), io.read("a/y.bin").await());
            assertThrows(NoSuchFileException.class, () -> io.read("a/z.bin").await());
            assertArrayEquals(new long[] {5, -1}, io.sizes(List.of("a/x.bin", "nope")).await());
        }
        assertEquals(0, FaultPlan.NONE.latencyNanos("anything"));
        FaultPlan cpu = FaultPlan.builder().cpu("collision:*", Duration.ofMillis(50)).build();
        assertEquals(50_000_000L, cpu.cpuNanos(AssetId.collision("a/m.obj")));
        assertEquals(0, cpu.cpuNanos(AssetId.mesh("a/m.obj")));
    }

    @Test
    void closingFailsRequestsStillWaitingForTheirLatency() {
        IoPool io = new IoPool(AssetSource.inMemory(FILES), FaultPlan.builder().latency("*", Duration.ofSeconds(30)).build(), 1);
        IoPool.Pending<byte[]> p = io.read("a/x.bin");
        io.close();
        IOException e = assertThrows(IOException.class, p::await);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IOException.class, () -> io.read("a/x.bin").await(), "a closed pool refuses with an error, not a hang");
    }

    @Test
    void directorySourceReadsFilesAndStaysInsideItsRoot(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("lvl"));
        Files.write(dir.resolve("lvl/f.txt"), Fixture.ascii("abc"));
        AssetSource source = AssetSource.directory(dir);
        try (IoPool io = new IoPool(source, FaultPlan.NONE, 1)) {
            assertArrayEquals(Fixture.ascii("abc"), io.read("lvl/f.txt").await());
            assertArrayEquals(new long[] {3, -1}, io.sizes(List.of("lvl/f.txt", "lvl/none.txt")).await());
            assertThrows(NoSuchFileException.class, () -> io.read("../outside.txt").await());
        }
    }

    /**
     * Reads are served in the order they were requested, not the order their jobs awaited them: the
     * single I/O thread is held by a gate read while jobs await c, b, a (requested a, b, c).
     */
    @Test
    void readsAreServedInRequestOrderWhateverOrderTheyAreAwaited() throws Exception {
        GatedSource source = new GatedSource();
        try (JobSystem jobs = JobSystem.builder().name("io-order").workers(1).build();
             IoPool io = new IoPool(source, FaultPlan.NONE, 1)) {
            IoPool.Pending<byte[]> gate = io.read("gate");
            List<IoPool.Pending<byte[]>> requested = List.of(io.read("a/x.bin"), io.read("a/y.bin"), io.read("a/z.bin"));
            JobHandle<byte[]> holder = jobs.submit(Priority.BACKGROUND, "gate", gate::await);
            source.gateEntered.await();
            List<JobHandle<byte[]>> waiters = new ArrayList<>();
            for (int i = 2; i >= 0; i--) {
                IoPool.Pending<byte[]> p = requested.get(i);
                waiters.add(jobs.submit(Priority.BACKGROUND, "await " + i, p::await));
                int queued = 3 - i;                 // one at a time, so the awaits reach the queue as c, b, a
                Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> io.queuedCalls() >= queued);
            }
            source.gate.countDown();
            holder.join(Fixture.TIMEOUT);
            for (JobHandle<byte[]> w : waiters) {
                w.join(Fixture.TIMEOUT);
            }
            assertEquals(List.of("a/x.bin", "a/y.bin", "a/z.bin"), source.order);
        }
    }

    /** A fiber parked on a read still queued when the pool closes gets an IOException, not a hang. */
    @Test
    void closingFailsAFiberWaitingForAQueuedRead() throws Exception {
        GatedSource source = new GatedSource();
        try (JobSystem jobs = JobSystem.builder().name("io-close").workers(1).build()) {
            IoPool io = new IoPool(source, FaultPlan.NONE, 1);
            jobs.submit(Priority.BACKGROUND, "gate", () -> io.read("gate").await());
            source.gateEntered.await();
            JobHandle<String> waiter = jobs.submit(Priority.BACKGROUND, "waiter", () -> {
                try {
                    io.read("a/x.bin").await();
                    return "read";
                } catch (IOException e) {
                    return e.getMessage();
                }
            });
            Fixture.waitUpTo(Fixture.TIMEOUT).until(() -> io.queuedCalls() >= 1);
            io.close();                             // interrupts the gate read; the queued one never ran
            String outcome = waiter.join(Fixture.TIMEOUT);
            assertTrue(outcome.contains("closed before it ran"), outcome);
        }
    }

    /** In-memory files plus "gate", whose read blocks until {@link #gate} opens; records the order of the rest. */
    private static final class GatedSource extends Fixture.RecordingSource {
        final CountDownLatch gate = new CountDownLatch(1);
        final CountDownLatch gateEntered = new CountDownLatch(1);
        final List<String> order = Collections.synchronizedList(new ArrayList<>());

        GatedSource() {
            super(AssetSource.inMemory(Fixture.files("a/x.bin", "x", "a/y.bin", "y", "a/z.bin", "z")));
        }

        @Override
        public byte[] read(String path) throws IOException {
            if (path.equals("gate")) {
                gateEntered.countDown();
                try {
                    gate.await();
                } catch (InterruptedException e) {
                    throw new IOException("gate interrupted", e);
                }
                return new byte[0];
            }
            order.add(path);
            return super.read(path);
        }
    }
}
