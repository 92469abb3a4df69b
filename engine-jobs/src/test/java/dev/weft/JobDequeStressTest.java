package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Seeded stress of {@link JobDeque} with one owner (random push/pop bursts from the smallest ring, so it
 * grows while thieves read it; with {@code twoDeques}, every other burst onto a second deque) and 1 to 3
 * thieves, over <b>recycled nodes</b> as Weft's: a taken node goes back to the owner's pool and is pushed
 * again with a new value, often at the same index it left (the owner's pops) or into the other deque.
 * Every value is taken exactly once, and each thief takes a deque's values in push order. This is the
 * multi-thief check that jcstress cannot schedule on a two-core machine. It fails within seconds with a
 * pop that takes without its CAS. A stale thief meeting its node again in the other deque at the same
 * index is too rare to hit here; {@code JobDequeTest} stages it.
 */
class JobDequeStressTest {
    private static final boolean FULL = "full".equals(System.getProperty("weft.stress"));
    private static final int VALUES = FULL ? 10_000_000 : 1_000_000;
    private static final int POOL = 64;
    private static final long TIMEOUT_SECONDS = 60;

    @ParameterizedTest(name = "{0} thieves")
    @ValueSource(ints = {1, 2, 3})
    void everyValueTakenExactlyOnceInPushOrderWithRecycledNodes(int thieves) throws Exception {
        run(thieves, false);
    }

    @ParameterizedTest(name = "{0} thieves, two deques")
    @ValueSource(ints = {1, 2})
    void nodesMovingBetweenTwoDequesAreTakenOnceEach(int thieves) throws Exception {
        run(thieves, true);
    }

    private static void run(int thieves, boolean twoDeques) throws Exception {
        long seed = Long.getLong("weft.seed", System.nanoTime());
        JobDeque[] deques = twoDeques ? new JobDeque[] {new JobDeque(2, null), new JobDeque(2, null)}
                : new JobDeque[] {new JobDeque(2, null)};
        AtomicIntegerArray takenBy = new AtomicIntegerArray(VALUES + 1);   // taker id per value, 0 = nobody
        ConcurrentLinkedQueue<TestNode> cameHome = new ConcurrentLinkedQueue<>();
        AtomicBoolean ownerDone = new AtomicBoolean();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> threads = new ArrayList<>();

        threads.add(new Thread(() -> {
            SplittableRandom rnd = new SplittableRandom(seed);
            ArrayDeque<TestNode> pool = new ArrayDeque<>();
            for (int i = 0; i < POOL; i++) {
                pool.push(new TestNode(0));
            }
            int next = 1;
            while (next <= VALUES) {
                JobDeque d = deques[rnd.nextInt(deques.length)];
                int burst = 1 + rnd.nextInt(8);
                for (int i = 0; i < burst && next <= VALUES; i++) {
                    TestNode n = pool.poll();
                    while (n == null) {                        // every node is out: take back what came home
                        TestNode home;
                        while ((home = cameHome.poll()) != null) {
                            pool.push(home);
                        }
                        n = pool.poll();
                        Thread.onSpinWait();
                    }
                    n.value = next++;
                    d.push(n);
                }
                int pops = rnd.nextInt(burst + 1);
                for (int i = 0; i < pops; i++) {
                    TestNode n = (TestNode) d.pop();
                    if (n != null) {
                        take(takenBy, n.value, 1, failure);
                        pool.push(n);                          // LIFO: pushed again next, at the same index
                    }
                }
            }
            for (JobDeque d : deques) {
                TestNode n;
                while ((n = (TestNode) d.pop()) != null) {
                    take(takenBy, n.value, 1, failure);
                }
            }
            ownerDone.set(true);
        }, "deque-owner"));
        for (int t = 0; t < thieves; t++) {
            int id = 2 + t;
            threads.add(new Thread(() -> {
                int[] last = new int[deques.length];
                SplittableRandom rnd = new SplittableRandom(seed + id);
                for (;;) {
                    boolean done = ownerDone.get();             // read before the steal: empty after done = finished
                    int k = rnd.nextInt(deques.length);
                    TestNode n = (TestNode) deques[k].steal();
                    if (n == null) {
                        if (done && allEmpty(deques)) {
                            return;
                        }
                        Thread.onSpinWait();
                        continue;
                    }
                    int v = n.value;                            // read before the node goes home
                    if (v <= last[k]) {
                        failure.compareAndSet(null, new AssertionError("thief " + id + " took " + v
                                + " after " + last[k] + " from deque " + k + ": steals must follow push order"));
                    }
                    last[k] = v;
                    take(takenBy, v, id, failure);
                    cameHome.add(n);
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
        for (int v = 1; v <= VALUES; v++) {
            if (takenBy.get(v) == 0) {
                fail("seed " + seed + ": value " + v + " was lost (never taken)");
            }
        }
        for (JobDeque d : deques) {
            assertEquals(0, d.size(), "deque not empty at the end");
        }
    }

    private static boolean allEmpty(JobDeque[] deques) {
        for (JobDeque d : deques) {
            if (!d.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    private static void take(AtomicIntegerArray takenBy, int v, int by, AtomicReference<Throwable> failure) {
        if (v < 1 || v >= takenBy.length()) {
            failure.compareAndSet(null, new AssertionError("taker " + by + " got " + v + ", never pushed"));
            return;
        }
        int prev = takenBy.getAndSet(v, by);
        if (prev != 0) {
            failure.compareAndSet(null, new AssertionError("value " + v + " taken twice: by " + prev
                    + " and by " + by));
        }
    }
}
