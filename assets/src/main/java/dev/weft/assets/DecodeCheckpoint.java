package dev.weft.assets;

import dev.weft.Jobs;

/**
 * {@link Jobs#checkpoint()} for the decoders ({@link ObjParser}'s parse loop, {@link BvhBuilder}'s build),
 * aware of the decode lane's nice value. The lane lowers the carrier thread while a decode runs
 * ({@link ThreadNice}); a checkpoint may yield the fiber, and the carrier then runs the more urgent job
 * (a FRAME job) — which must not run at nice 10 — and the decode may resume on another carrier, which
 * should be lowered instead. So around the checkpoint the carrier's priority is restored, and lowered
 * again on whichever carrier the fiber resumes: four system calls, only when the checkpoint is about to
 * yield ({@link Jobs#shouldYield()}); otherwise one volatile load, about every 0.5 ms of decoding. Outside the lane (a decode called directly, a test) it is just
 * {@code Jobs.checkpoint()}: a no-op outside a job.
 *
 * <p>Threading: the holder is a {@link ThreadLocal} of the decoding fiber (a virtual thread), so it
 * follows the fiber across carriers; only that fiber reads or writes it.
 */
final class DecodeCheckpoint {
    private static final ThreadLocal<Lowered> CURRENT = new ThreadLocal<>();

    private static final class Lowered implements ThreadNice.Restore {
        final int nice;
        ThreadNice.Restore restore;

        Lowered(int nice) {
            this.nice = nice;
            this.restore = ThreadNice.lowerWhile(nice);
        }

        @Override
        public void close() {
            CURRENT.remove();
            restore.close();
        }
    }

    private DecodeCheckpoint() {}

    /** {@link ThreadNice#lowerWhile} that {@link #checkpoint()} can hand over between carriers. */
    static ThreadNice.Restore lowerWhile(int nice) {
        Lowered l = new Lowered(nice);
        CURRENT.set(l);
        return l;
    }

    /** Yields to more urgent work if any is waiting, with the carrier at its own priority meanwhile. */
    static void checkpoint() {
        Lowered l = CURRENT.get();
        if (l == null) {
            Jobs.checkpoint();
            return;
        }
        if (!Jobs.shouldYield()) {
            return;                                // the common case: one volatile load, no system call
        }
        l.restore.close();                         // by tid: the carrier lowered so far
        try {
            Jobs.checkpoint();
        } finally {
            l.restore = ThreadNice.lowerWhile(l.nice);   // the carrier we resumed on
        }
    }
}
