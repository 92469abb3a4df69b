package dev.weft.bench.streaming;

import dev.weft.JobSystem;
import dev.weft.Jobs;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * Finds the two engine calls this benchmark switches that are newer than the cap:
 * {@code Jobs.checkpoint()} and {@code JobSystem.Builder.waitersHelp(boolean)}. They are looked up by
 * reflection so the benchmark builds against an engine that lacks them; a variant that asks for a
 * missing one still runs, and the report names what was missing ({@link Variant#missing()}).
 * A {@code static final} method handle is a constant to the JIT, so {@link #checkpoint()} costs what the
 * direct call costs.
 */
final class WeftMechanisms {
    private static final MethodHandle CHECKPOINT = find(Jobs.class, "checkpoint", MethodType.methodType(void.class), true);
    private static final MethodHandle WAITERS_HELP = find(JobSystem.Builder.class, "waitersHelp",
            MethodType.methodType(JobSystem.Builder.class, boolean.class), false);

    private WeftMechanisms() {
    }

    static boolean hasCheckpoint() {
        return CHECKPOINT != null;
    }

    static boolean hasWaitersHelp() {
        return WAITERS_HELP != null;
    }

    /** {@code Jobs.checkpoint()} as the decode loop's checkpoint. */
    static AssetDecode.Checkpoint checkpoint() {
        if (CHECKPOINT == null) {
            throw new IllegalStateException("this engine build has no Jobs.checkpoint(); check hasCheckpoint() first");
        }
        return WeftMechanisms::callCheckpoint;
    }

    private static void callCheckpoint() {
        try {
            CHECKPOINT.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("Jobs.checkpoint() threw a checked exception", t);
        }
    }

    /** Calls {@code builder.waitersHelp(on)}. */
    static void waitersHelp(JobSystem.Builder builder, boolean on) {
        if (WAITERS_HELP == null) {
            throw new IllegalStateException("this engine build has no JobSystem.Builder.waitersHelp(boolean); check hasWaitersHelp() first");
        }
        try {
            JobSystem.Builder same = (JobSystem.Builder) WAITERS_HELP.invokeExact(builder, on);
            assert same == builder;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("waitersHelp threw a checked exception", t);
        }
    }

    private static MethodHandle find(Class<?> owner, String name, MethodType type, boolean isStatic) {
        try {
            MethodHandles.Lookup lookup = MethodHandles.publicLookup();
            return isStatic ? lookup.findStatic(owner, name, type) : lookup.findVirtual(owner, name, type);
        } catch (NoSuchMethodException | IllegalAccessException absent) {
            return null;
        }
    }
}
