package dev.weft.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The per-thread settings a job can change with {@link Thread}'s public setters and that would otherwise
 * outlive it on a pooled fiber: the thread's name, context class loader and uncaught-exception handler.
 * Weft takes a fiber's own settings when it makes the fiber and puts them back after every job that
 * changed them, so a mod's class loader set in one job is not used for service lookups in the next.
 *
 * <p>Cost per job: {@link #heldBy} is three plain loads of the thread's own fields and three reference
 * compares; the setters run only when a job changed something. The loads are plain (the fields are
 * volatile in {@code Thread}, read here through VarHandles in plain mode) because the only writes they
 * must see are the job's own, made earlier on the same thread: program order is enough. A write by
 * another thread (a profiler renaming the fiber) may be missed or undone; that is not a job's setting.
 *
 * <p>Immutable. Reaches into {@code java.lang} like {@link FiberSupport}, so it needs the same flag
 * ({@link FiberSupport#check()} fails first with the flag to add).
 */
public final class ThreadSettings {
    private static final VarHandle NAME;               // Thread.name (volatile String), read plain
    private static final VarHandle CONTEXT_LOADER;     // Thread.contextClassLoader (volatile), read plain
    private static final VarHandle HANDLER;            // Thread.uncaughtExceptionHandler (volatile), read plain

    static {
        VarHandle name = null;
        VarHandle loader = null;
        VarHandle handler = null;
        try {
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup());
            name = lookup.findVarHandle(Thread.class, "name", String.class);
            loader = lookup.findVarHandle(Thread.class, "contextClassLoader", ClassLoader.class);
            handler = lookup.findVarHandle(Thread.class, "uncaughtExceptionHandler",
                    Thread.UncaughtExceptionHandler.class);
        } catch (ReflectiveOperationException | RuntimeException e) {
            FiberSupport.check();              // the missing flag, named; else the JDK changed these fields
            throw new IllegalStateException("cannot read java.lang.Thread's name, context class loader and "
                    + "uncaught-exception handler fields (Runtime.version() = " + Runtime.version() + ")", e);
        }
        NAME = name;
        CONTEXT_LOADER = loader;
        HANDLER = handler;
    }

    private final String name;
    private final ClassLoader contextLoader;
    private final Thread.UncaughtExceptionHandler handler;   // null: none set (the thread group answers)

    private ThreadSettings(String name, ClassLoader contextLoader, Thread.UncaughtExceptionHandler handler) {
        this.name = name;
        this.contextLoader = contextLoader;
        this.handler = handler;
    }

    /**
     * {@code t}'s settings now. Plain reads: call it on {@code t} itself, or on a thread not started yet
     * whose fields the caller wrote (its start publishes them).
     */
    public static ThreadSettings of(Thread t) {
        return new ThreadSettings((String) NAME.get(t), (ClassLoader) CONTEXT_LOADER.get(t),
                (Thread.UncaughtExceptionHandler) HANDLER.get(t));
    }

    /** Whether {@code t} (the current thread) still has these settings: three plain loads, no allocation. */
    public boolean heldBy(Thread t) {
        return NAME.get(t) == name && CONTEXT_LOADER.get(t) == contextLoader && HANDLER.get(t) == handler;
    }

    /** Puts these settings back on {@code t} (the current thread) if a job changed any. */
    public void restoreIfChanged(Thread t) {
        if (!heldBy(t)) {
            restore(t);
        }
    }

    /**
     * Before a job runs nested on {@code t} (the current thread), whose own settings are these: the
     * enclosing job's settings if it changed them (they are returned, and these are put on {@code t}, so
     * the nested job starts as it would on a fiber of its own), else null. Allocates only in that case.
     */
    public ThreadSettings detach(Thread t) {
        if (heldBy(t)) {
            return null;
        }
        ThreadSettings enclosing = of(t);
        restore(t);
        return enclosing;
    }

    /** After the nested job: the enclosing job's settings ({@link #detach}'s answer) back on {@code t}. */
    public void reattach(Thread t, ThreadSettings enclosing) {
        (enclosing != null ? enclosing : this).restoreIfChanged(t);
    }

    /** Cold: a job changed a setting. Only the public setters, so the JDK's own bookkeeping stays right. */
    private void restore(Thread t) {
        if (NAME.get(t) != name) {
            t.setName(name);
        }
        if (CONTEXT_LOADER.get(t) != contextLoader) {
            t.setContextClassLoader(contextLoader);
        }
        if (HANDLER.get(t) != handler) {
            t.setUncaughtExceptionHandler(handler);
        }
    }

    @Override
    public String toString() {
        return "ThreadSettings[name=" + name + ", contextClassLoader=" + contextLoader + ", uncaughtExceptionHandler="
                + handler + "]";
    }
}
