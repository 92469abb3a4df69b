package dev.weft.internal;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.junit.jupiter.api.Test;

/**
 * Stress of {@link InjectionQueue} with three producers and two competing consumers, one polling and one
 * draining batches of up to 32 (the worker's path): every element is delivered exactly once, and each
 * consumer sees every producer's elements in that producer's order. Two consumers at once are only safe
 * because of the consumer turn: the queue underneath is single-consumer.
 */
class InjectionQueueStressTest {
    private static final boolean FULL = "full".equals(System.getProperty("weft.stress"));
    private static final int PER_PRODUCER = FULL ? 5_000_000 : 500_000;
    private static final int PRODUCERS = 3;
    private static final long TIMEOUT_SECONDS = 60;

    @Test
    void everyElementDeliveredExactlyOnceInProducerOrder() throws Exception {
        InjectionQueue<Integer> queue = new InjectionQueue<>();
        int total = PRODUCERS * PER_PRODUCER;
        AtomicReferenceArray<String> takenBy = new AtomicReferenceArray<>(total);
        AtomicInteger taken = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < PRODUCERS; p++) {
            int producer = p;
            threads.add(new Thread(() -> {
                for (int i = 0; i < PER_PRODUCER; i++) {
                    queue.offer(producer * PER_PRODUCER + i);
                }
            }, "producer-" + p));
        }
        for (String consumer : new String[] {"poller", "drainer"}) {
            threads.add(new Thread(() -> {
                int[] lastSeq = new int[PRODUCERS];
                java.util.Arrays.fill(lastSeq, -1);
                java.util.function.Consumer<Integer> sink = e -> {
                    int producer = e / PER_PRODUCER;
                    int seq = e % PER_PRODUCER;
                    if (seq <= lastSeq[producer]) {
                        failure.compareAndSet(null, new AssertionError(consumer + " took producer " + producer
                                + "'s #" + seq + " after #" + lastSeq[producer]));
                    }
                    lastSeq[producer] = seq;
                    String prev = takenBy.getAndSet(e, consumer);
                    if (prev != null) {
                        failure.compareAndSet(null, new AssertionError(e + " delivered twice: to " + prev
                                + " and " + consumer));
                    }
                    taken.incrementAndGet();
                };
                while (taken.get() < total && failure.get() == null) {
                    if (consumer.equals("poller")) {
                        Integer e = queue.poll();
                        if (e != null) {
                            sink.accept(e);
                        }
                    } else {
                        queue.drain(sink, 32);
                    }
                }
            }, consumer));
        }
        for (Thread t : threads) {
            t.setUncaughtExceptionHandler((th, ex) -> failure.compareAndSet(null, ex));
            t.start();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            if (t.isAlive()) {
                fail(t.getName() + " still running after " + TIMEOUT_SECONDS + " s; delivered " + taken.get()
                        + " of " + total);
            }
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
        for (int e = 0; e < total; e++) {
            if (takenBy.get(e) == null) {
                fail("element " + e + " was never delivered");
            }
        }
        if (!queue.isEmpty()) {
            fail("queue not empty at the end: " + queue.size());
        }
    }
}
