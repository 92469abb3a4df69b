package dev.weft;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Per-priority worker shares ({@link JobSystemBuilder#maxWorkers}): the one owner of the count of
 * workers running jobs of each capped priority, and of the rule for taking a slot.
 *
 * <p><b>What is counted.</b> A worker <i>runs priority p</i> while the fiber mounted on it has a job of
 * priority p anywhere on its stack (a top-level job, or one run nested by inline help or a join), and
 * from the moment its picker took a job of p (or a ready fiber whose stack holds p) until that fiber is
 * mounted. A parked fiber is nobody's: its worker gives its slots back when the fiber unmounts, and the
 * worker that resumes it takes them again first. A fiber whose stack mixes priorities (a FRAME job
 * running a BACKGROUND dependency inline, or the reverse) holds a slot of every capped priority on its
 * stack, whatever its queue priority ({@link Fiber#readyPriority}, the highest on the stack) is.
 *
 * <p><b>Where.</b> The slots a worker holds are one bitmask on the worker ({@link Worker#capHeld}),
 * written only by that worker, so no fiber's fields are read after it unmounted (it may already run
 * elsewhere). The shared state is one {@link AtomicInteger} per capped priority (null for the others):
 * a slot is a CAS from v to v + 1 taken only while v &lt; the cap (regular), or an unconditional
 * increment (overflow, below); giving it back is a decrement. Both are full fences on x86; a worker
 * takes a slot only at a job boundary (a start, a resume, a nested start at depth 0), never per
 * instruction of a job.
 *
 * <p><b>Work-conserving.</b> A worker whose whole scan found no work but capped work at its cap takes
 * that work anyway, as an <i>overflow</i> slot ({@link Worker#capOverflow}): a cap never leaves a worker
 * idle while only capped work is queued. Overflow is not preemption: a FRAME job that arrives while
 * every worker runs BACKGROUND work waits for one of those jobs to end or park (cooperative checkpoints,
 * a later item, will make it shorter). A regular slot is refused while the count, overflow slots
 * included, is at the cap, so at most {@code cap} workers ever run p by regular slots.
 */
final class PriorityCaps {
    /** Bit p set: priority p is capped. Uncapped priorities cost one test of this final field. */
    final int cappedMask;
    private final int[] limit;
    private final AtomicInteger[] running;     // workers running a capped priority; null if uncapped

    /** {@code caps[p]} is the cap of priority p, or 0 for none. */
    PriorityCaps(int[] caps) {
        int mask = 0;
        limit = new int[Priority.COUNT];
        running = new AtomicInteger[Priority.COUNT];
        for (int p = 0; p < Priority.COUNT; p++) {
            limit[p] = caps[p];
            if (caps[p] > 0) {
                mask |= 1 << p;
                running[p] = new AtomicInteger();
            }
        }
        cappedMask = mask;
    }

    boolean isCapped(int p) {
        return (cappedMask & (1 << p)) != 0;
    }

    /** Capped priority p has a free regular slot right now (a volatile read; a hint for the scan). */
    boolean hasRoom(int p) {
        return running[p].get() < limit[p];
    }

    /**
     * Worker {@code w} takes a slot of capped priority {@code p} for the work in its hand, unless it
     * already holds one; {@code overflow}: if the cap is reached, over it (the worker found nothing
     * else to do), marked in {@link Worker#capOverflow}.
     * False if refused. Owner thread of {@code w} only.
     */
    boolean take(Worker w, int p, boolean overflow) {
        int bit = 1 << p;
        if ((w.capHeld & bit) != 0) {
            return true;
        }
        AtomicInteger r = running[p];
        int v;
        do {
            v = r.get();
            if (v >= limit[p]) {
                if (!overflow) {
                    return false;
                }
                r.getAndIncrement();           // at the cap, and nothing else to do: over it
                w.capOverflow |= bit;
                break;
            }
        } while (!r.compareAndSet(v, v + 1));
        w.capHeld |= bit;
        return true;
    }

    /** Takes every slot in {@code mask} (a ready fiber's stack), all or none. */
    boolean takeAll(Worker w, int mask, boolean overflow) {
        int taken = 0;
        for (int m = mask & ~w.capHeld; m != 0; m &= m - 1) {
            int p = Integer.numberOfTrailingZeros(m);
            if (!take(w, p, overflow)) {
                releaseAll(w, taken);
                return false;
            }
            taken |= 1 << p;
        }
        return true;
    }

    /** Worker {@code w} gives back its slot of priority {@code p} (if it holds one). */
    void release(Worker w, int p) {
        int bit = 1 << p;
        if ((w.capHeld & bit) != 0) {
            w.capHeld &= ~bit;
            w.capOverflow &= ~bit;
            running[p].getAndDecrement();
        }
    }

    void releaseAll(Worker w, int mask) {
        for (int m = mask & w.capHeld; m != 0; m &= m - 1) {
            release(w, Integer.numberOfTrailingZeros(m));
        }
    }

    /** For tests and reports: workers running capped priority {@code p} now (0 if uncapped). */
    int running(int p) {
        AtomicInteger r = running[p];
        return r == null ? 0 : r.get();
    }

    int limit(int p) {
        return limit[p];
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("caps[");
        for (int p = 0; p < Priority.COUNT; p++) {
            if (isCapped(p)) {
                b.append(Priority.VALUES[p]).append(' ').append(running(p)).append('/').append(limit[p]).append(' ');
            }
        }
        return b.append(']').toString();
    }

    /**
     * The per-priority caps for {@code workerCount} workers from what the builder asked ({@code requested},
     * 0: not set): BACKGROUND defaults to {@code workerCount - 1} with 2 or more workers; a cap of every
     * worker is no cap (0). Throws if one exceeds the count.
     */
    static int[] resolve(int[] requested, int workerCount, boolean deterministic) {
        int[] caps = new int[Priority.COUNT];
        for (Priority p : Priority.VALUES) {
            int n = requested[p.ordinal()];
            if (n > workerCount) {
                throw new IllegalArgumentException("maxWorkers(" + p + ", " + n + ") exceeds the "
                        + workerCount + " worker" + (workerCount == 1 ? "" : "s") + " of this job system"
                        + (deterministic ? " (deterministic mode has one)" : "")
                        + "; pass at most " + workerCount + " (that many means no cap), or raise workers(...)");
            }
            caps[p.ordinal()] = n == 0 && p == Priority.BACKGROUND && workerCount >= 2 ? workerCount - 1
                    : n < workerCount ? n : 0;   // a cap of every worker is no cap
        }
        return caps;
    }
}
