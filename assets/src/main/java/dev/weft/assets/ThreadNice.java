package dev.weft.assets;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Linux thread priorities (nice values) for background work, through libc's {@code setpriority} and
 * {@code gettid} (the FFM API; Java's own thread priorities are ignored on Linux).
 *
 * <p>Why: Weft cannot preempt a job, and the OS cannot tell a worker decoding a 2048² PNG from one
 * running frame work. On a machine whose cores are all busy (other processes, or the I/O and GC threads
 * of this one), the decode competes with the frame worker as an equal. Lowering the OS priority of the
 * decoding thread while it decodes, and of the I/O threads for good, lets frame work win those
 * contests. Linux gives each thread its own nice value, so this touches only the current carrier.
 *
 * <p>Raising a thread's priority back needs {@code CAP_SYS_NICE} (or an {@code RLIMIT_NICE} allowance):
 * at class initialisation a throwaway thread tries a lower-and-restore round trip, and
 * {@link #lowerWhile} does nothing if that failed, so a worker is never left at a low priority. On other
 * systems, or without native access, everything here is a no-op.
 */
final class ThreadNice {
    private static final int PRIO_PROCESS = 0;
    private static final MethodHandle SETPRIORITY;   // int setpriority(int which, id_t who, int prio)
    private static final MethodHandle GETPRIORITY;   // int getpriority(int which, id_t who)
    private static final MethodHandle GETTID;        // pid_t gettid(void)

    static {
        MethodHandle[] h = System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux") ? link() : null;
        SETPRIORITY = h == null ? null : h[0];
        GETPRIORITY = h == null ? null : h[1];
        GETTID = h == null ? null : h[2];
    }

    /** {setpriority, getpriority, gettid} from libc, or null without them or without native access. */
    @SuppressWarnings("restricted")
    private static MethodHandle[] link() {
        try {
            Linker linker = Linker.nativeLinker();
            SymbolLookup libc = linker.defaultLookup();
            Optional<MemorySegment> s = libc.find("setpriority");
            Optional<MemorySegment> g = libc.find("getpriority");
            Optional<MemorySegment> t = libc.find("gettid");
            if (s.isEmpty() || g.isEmpty() || t.isEmpty()) {
                return null;
            }
            return new MethodHandle[] {
                linker.downcallHandle(s.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT)),
                linker.downcallHandle(g.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_INT, ValueLayout.JAVA_INT)),
                linker.downcallHandle(t.get(), FunctionDescriptor.of(ValueLayout.JAVA_INT)),
            };
        } catch (RuntimeException | LinkageError e) {
            return null;                                   // no native access: stay a no-op
        }
    }

    /**
     * Whether a lower-then-restore round trip worked, probed once on a throwaway thread. A holder class
     * of its own: the probe thread calls into ThreadNice, which must be initialised by then, or it
     * would wait for our class initialisation while we wait for it.
     */
    private static final class Restorable {
        static final boolean OK = GETTID != null && probe();

        private static boolean probe() {
            Probe p = new Probe();
            Thread t = new Thread(p, "weft-nice-probe");
            t.setDaemon(true);
            t.start();
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return p.ok.get();
        }
    }

    private static final class Probe implements Runnable {
        final AtomicBoolean ok = new AtomicBoolean();

        @Override
        public void run() {
            int tid = tid();
            int old = get(tid);
            ok.set(set(tid, Math.min(19, old + 5)) && set(tid, old) && get(tid) == old);
        }
    }

    private ThreadNice() {}

    /** Restores what {@link #lowerWhile} changed. */
    interface Restore extends AutoCloseable {
        @Override
        void close();
    }

    private static final Restore NOTHING = () -> { };

    /**
     * Lowers the calling OS thread (a fiber's carrier) to {@code nice} until the returned handle is
     * closed, if it runs at a higher priority now and can be restored. Use in try-with-resources around
     * work that never waits.
     */
    static Restore lowerWhile(int nice) {
        if (nice <= 0 || !Restorable.OK) {
            return NOTHING;
        }
        int tid = tid();
        int old = get(tid);
        if (old >= nice || !set(tid, nice)) {
            return NOTHING;
        }
        return () -> set(tid, old);                        // by tid: the carrier we lowered, wherever we run now
    }

    /** Lowers the calling platform thread to {@code nice} for good (a thread of our own, like an I/O thread). */
    static void lowerForever(int nice) {
        if (GETTID != null && nice > 0 && !Thread.currentThread().isVirtual()) {
            int tid = tid();
            if (get(tid) < nice) {
                set(tid, nice);
            }
        }
    }

    /** The calling OS thread's nice value, or 0 where priorities are not available. */
    static int currentNice() {
        return GETTID == null ? 0 : get(tid());
    }

    /** True if {@link #lowerWhile} really changes priorities here. */
    static boolean supported() {
        return Restorable.OK;
    }

    private static int tid() {
        try {
            return (int) GETTID.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException("gettid failed", t);
        }
    }

    private static int get(int tid) {
        try {
            return (int) GETPRIORITY.invokeExact(PRIO_PROCESS, tid);
        } catch (Throwable t) {
            throw new IllegalStateException("getpriority failed", t);
        }
    }

    private static boolean set(int tid, int nice) {
        try {
            return (int) SETPRIORITY.invokeExact(PRIO_PROCESS, tid, nice) == 0;
        } catch (Throwable t) {
            throw new IllegalStateException("setpriority failed", t);
        }
    }
}
