package dev.weft.bench;

import java.util.concurrent.CountDownLatch;

/**
 * The JDK's default virtual-thread scheduler (a shared fork-join pool with one carrier per available
 * processor, unless {@code -Djdk.virtualThreadScheduler.parallelism} says otherwise): one virtual
 * thread per job, started with {@link Thread#startVirtualThread(Runnable)}.
 *
 * <ul>
 *   <li>{@link #runAll}: a {@link CountDownLatch} is the completion count.</li>
 *   <li>{@link #fib}: every node starts a virtual thread per child and {@link Thread#join()}s both.</li>
 *   <li>{@link #pingPong}: two virtual threads using {@link ParkingPingPong}; parking unmounts a
 *       virtual thread, so this is the JDK's own wait/resume.</li>
 *   <li>{@link #parallelFor}: one virtual thread per range of at most {@code grain} indices (evenly sized), one latch.</li>
 * </ul>
 * There is nothing to close: the default scheduler belongs to the JDK.
 */
final class VirtualThreadScheduler implements SchedulerUnderTest {

    @Override
    public String name() {
        return "vthreads";
    }

    @Override
    public void runAll(Runnable job, int count) {
        CountDownLatch done = new CountDownLatch(count);
        Runnable counted = () -> {
            try {
                job.run();
            } finally {
                done.countDown();
            }
        };
        for (int i = 0; i < count; i++) {
            Thread.startVirtualThread(counted);
        }
        awaitUninterruptibly(done);
    }

    @Override
    public void runAllFromJob(Runnable job, int count) {
        join(Thread.startVirtualThread(() -> runAll(job, count)));
    }

    @Override
    public int fib(int n) {
        int[] result = new int[1];
        join(Thread.startVirtualThread(() -> result[0] = fibNode(n)));
        return result[0];
    }

    @Override
    public int fibHandles(int n) {
        int[] result = new int[1];
        join(Thread.startVirtualThread(() -> result[0] = fibHandleNode(n)));
        return result[0];
    }

    private static int fibHandleNode(int n) {
        if (n < 2) {
            return n;
        }
        int[] r = new int[1];
        Thread a = Thread.startVirtualThread(() -> r[0] = fibHandleNode(n - 1));
        int b = fibHandleNode(n - 2);
        join(a);
        return r[0] + b;
    }

    private static int fibNode(int n) {
        if (n < 2) {
            return n;
        }
        int[] r = new int[2];
        Thread a = Thread.startVirtualThread(() -> r[0] = fibNode(n - 1));
        Thread b = Thread.startVirtualThread(() -> r[1] = fibNode(n - 2));
        join(a);
        join(b);
        return r[0] + r[1];                     // join() orders the children's writes before this read
    }

    @Override
    public void pingPong(int rounds) {
        ParkingPingPong token = new ParkingPingPong(rounds);
        Thread a = Thread.startVirtualThread(token::sideA);
        Thread b = Thread.startVirtualThread(token::sideB);
        join(a);
        join(b);
    }

    @Override
    public void parallelFor(int start, int end, int grain, RangeBody body) {
        int length = end - start;
        if (length <= 0) {
            return;
        }
        int g = Math.max(1, grain);
        int chunks = (int) (((long) length + g - 1) / g);          // every chunk <= grain
        CountDownLatch done = new CountDownLatch(chunks);
        for (int c = 0; c < chunks; c++) {
            int s = start + (int) ((long) length * c / chunks);
            int e = start + (int) ((long) length * (c + 1) / chunks);
            Thread.startVirtualThread(() -> {
                try {
                    body.run(s, e);
                } finally {
                    done.countDown();
                }
            });
        }
        awaitUninterruptibly(done);
    }

    @Override
    public Pending submitOne(Runnable job) {
        Thread thread = Thread.startVirtualThread(job);
        return new Pending() {
            @Override
            public boolean isDone() {
                return !thread.isAlive();
            }

            @Override
            public void await() {
                join(thread);
            }
        };
    }

    @Override
    public void close() {
    }

    static void join(Thread thread) {
        boolean interrupted = false;
        while (true) {
            try {
                thread.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
