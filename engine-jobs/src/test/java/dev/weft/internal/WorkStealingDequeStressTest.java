package dev.weft.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded stress of {@link WorkStealingDeque} with one owner (random push/pop bursts, starting from the
 * smallest ring, 4 slots, so it grows while thieves read it) and 1 to 3 thieves: every pushed element is
 * taken exactly once, and each thief takes elements in push order (top only moves forward, and a slot
 * is refilled only after the older element below it was pushed). This is the multi-thief check that
 * jcstress cannot schedule on a two-core machine.
 */
class WorkStealingDequeStressTest {
    private static final boolean FULL = "full".equals(System.getProperty("weft.stress"));
    private static final int ELEMENTS = FULL ? 10_000_000 : 1_000_000;
    private static final long TIMEOUT_SECONDS = 60;

    @ParameterizedTest(name = "{0} thieves")
    @ValueSource(ints = {1, 2, 3})
    void everyElementTakenExactlyOnceAndThievesTakeInPushOrder(int thieves) throws Exception {
        long seed = Long.getLong("weft.seed", System.nanoTime());
        WorkStealingDeque<Integer> deque = new WorkStealingDeque<>(2);
        AtomicIntegerArray takenBy = new AtomicIntegerArray(ELEMENTS + 1);   // taker id per element, 0 = nobody
        AtomicBoolean ownerDone = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();

        Thread owner = new Thread(() -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            int next = 1;
            while (next <= ELEMENTS) {
                int burst = 1 + rnd.nextInt(8);                // push a few, then pop some: grow and shrink
                for (int i = 0; i < burst && next <= ELEMENTS; i++) {
                    deque.push(next++);
                }
                int pops = rnd.nextInt(burst + 1);
                for (int i = 0; i < pops; i++) {
                    Integer e = deque.pop();
                    if (e != null) {
                        take(takenBy, e, 1, failure);
                    }
                }
            }
            Integer e;
            while ((e = deque.pop()) != null) {
                take(takenBy, e, 1, failure);
            }
            ownerDone.set(true);
        }, "deque-owner");
        threads.add(owner);
        for (int t = 0; t < thieves; t++) {
            int id = 2 + t;
            threads.add(new Thread(() -> {
                int last = 0;
                for (;;) {
                    boolean done = ownerDone.get();             // read before the steal: empty after done = finished
                    Integer e = deque.steal();
                    if (e == null) {
                        if (done && deque.isEmpty()) {
                            return;
                        }
                        Thread.onSpinWait();
                        continue;
                    }
                    if (e <= last) {
                        failure.compareAndSet(null, new AssertionError("thief " + id + " took " + e
                                + " after " + last + ": steals must follow push order"));
                    }
                    last = e;
                    take(takenBy, e, id, failure);
                }
            }, "deque-thief-" + t));
        }
        for (Thread t : threads) {
            t.setUncaughtExceptionHandler((th, ex) -> failure.compareAndSet(null, ex));
            t.start();
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_SECONDS));
            if (t.isAlive()) {
                fail("seed " + seed + ": " + t.getName() + " still running after " + TIMEOUT_SECONDS + " s");
            }
        }
        if (failure.get() != null) {
            throw new AssertionError("seed " + seed + " (rerun with -Dweft.seed=" + seed + ")", failure.get());
        }
        for (int e = 1; e <= ELEMENTS; e++) {
            if (takenBy.get(e) == 0) {
                fail("seed " + seed + ": element " + e + " was lost (never taken)");
            }
        }
        assertEquals(0, deque.size(), "deque not empty at the end");
    }

    private static void take(AtomicIntegerArray takenBy, int e, int by, AtomicReference<Throwable> failure) {
        if (e < 1 || e >= takenBy.length()) {
            failure.compareAndSet(null, new AssertionError("taker " + by + " got " + e + ", never pushed"));
            return;
        }
        int prev = takenBy.getAndSet(e, by);
        if (prev != 0) {
            failure.compareAndSet(null, new AssertionError("element " + e + " taken twice: by " + prev
                    + " and by " + by));
        }
    }
}
