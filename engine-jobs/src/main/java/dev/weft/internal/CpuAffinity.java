package dev.weft.internal;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

/**
 * Pins the calling OS thread to one CPU through libc's {@code sched_setaffinity} (Linux), via the Foreign
 * Function API — no native library to ship. Naughty Dog, FiberTaskingLib and marl lock workers to cores;
 * here it is optional ({@code JobSystemBuilder.pinWorkersToCores}). Anywhere else, or when the call fails,
 * {@link #pinCurrentThread} reports why and the worker simply runs unpinned.
 */
public final class CpuAffinity {
    private static final int MASK_BYTES = 128;          // cpu_set_t: 1024 CPUs
    private static final MethodHandle SET;              // int sched_setaffinity(pid_t, size_t, const cpu_set_t*)
    private static final MethodHandle GET;              // int sched_getaffinity(pid_t, size_t, cpu_set_t*)
    private static final String UNAVAILABLE;

    static {
        MethodHandle set = null;
        MethodHandle get = null;
        String why = null;
        if (!System.getProperty("os.name", "").toLowerCase().contains("linux")) {
            why = "sched_setaffinity exists only on Linux (os.name = " + System.getProperty("os.name") + ")";
        } else {
            try {
                Linker linker = Linker.nativeLinker();
                FunctionDescriptor fd = FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT,
                        ValueLayout.JAVA_LONG, ValueLayout.ADDRESS);
                set = bindLibc(linker, "sched_setaffinity", fd);
                get = bindLibc(linker, "sched_getaffinity", fd);
            } catch (RuntimeException | LinkageError e) {
                why = "libc's sched_setaffinity could not be bound: " + e;
            }
        }
        SET = set;
        GET = get;
        UNAVAILABLE = why;
    }

    private CpuAffinity() {}

    // Binding libc is what this class is for, so javac's "restricted method" lint is expected here; the
    // JVM still checks --enable-native-access when the handle is made (README: the flags Weft needs).
    @SuppressWarnings("restricted")
    private static MethodHandle bindLibc(Linker linker, String function, FunctionDescriptor fd) {
        return linker.downcallHandle(linker.defaultLookup().find(function).orElseThrow(), fd);
    }

    /** Pins the calling thread to {@code cpu}; empty on success, else the reason it could not. */
    public static Optional<String> pinCurrentThread(int cpu) {
        if (UNAVAILABLE != null) {
            return Optional.of(UNAVAILABLE);
        }
        if (cpu < 0 || cpu >= MASK_BYTES * 8) {
            return Optional.of("cpu " + cpu + " is outside the affinity mask");
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES);
            mask.set(ValueLayout.JAVA_BYTE, cpu / 8, (byte) (1 << (cpu % 8)));
            int rc = (int) SET.invokeExact(0, (long) MASK_BYTES, mask);
            return rc == 0 ? Optional.empty() : Optional.of("sched_setaffinity(cpu " + cpu + ") returned " + rc);
        } catch (Throwable t) {
            return Optional.of("sched_setaffinity failed: " + t);
        }
    }

    /** The CPUs the calling OS thread may run on (a carrier's, when called on a fiber), or -1s on failure. */
    public static int[] allowedCpusOfCurrentThread() {
        if (UNAVAILABLE != null) {
            return new int[] {-1};
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(MASK_BYTES);
            int rc = (int) GET.invokeExact(0, (long) MASK_BYTES, mask);
            if (rc != 0) {
                return new int[] {-1};
            }
            return java.util.stream.IntStream.range(0, MASK_BYTES * 8)
                    .filter(c -> (mask.get(ValueLayout.JAVA_BYTE, c / 8) & (1 << (c % 8))) != 0).toArray();
        } catch (Throwable t) {
            return new int[] {-1};
        }
    }
}
