package dev.weft.internal;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.invoke.VarHandle;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The one place that reaches into the JDK's virtual-thread internals. JDK 25 has no public API for a
 * virtual thread with a custom scheduler; the package-private constructor
 * {@code java.lang.ThreadBuilders$VirtualThreadBuilder(Executor)} makes one, and a virtual thread's
 * current carrier is its private {@code carrierThread} field. Both need {@code java.lang} opened to the
 * module Weft was loaded in: {@code --add-opens java.base/java.lang=dev.weft} on the module path,
 * {@code --add-opens java.base/java.lang=ALL-UNNAMED} on the class path.
 *
 * <p>{@link #check()} fails fast, with the exact flag to add, when the JVM was started without it.
 *
 * <p>{@link #foreignScheduler()} is where the virtual threads that are not Weft's run: the JDK's own
 * virtual-thread scheduler, or a pool of Weft's if that cannot be reached.
 */
public final class FiberSupport {
    /**
     * The JVM flag Weft needs, exactly as it must be written on the command line: {@code java.lang}
     * opened to the module this class is in ({@code dev.weft} on the module path, the class path's
     * unnamed module otherwise).
     */
    public static final String REQUIRED_FLAG = "--add-opens java.base/java.lang="
            + (FiberSupport.class.getModule().isNamed() ? FiberSupport.class.getModule().getName() : "ALL-UNNAMED");

    private static final MethodHandle NEW_BUILDER;     // (Executor) -> Thread.Builder.OfVirtual
    private static final VarHandle CARRIER;            // VirtualThread.carrierThread (volatile Thread)
    private static final VarHandle SCHEDULER;          // VirtualThread.scheduler (final Executor)
    private static final VarHandle THREAD_LOCALS;      // Thread.threadLocals
    private static final VarHandle INHERITABLE_THREAD_LOCALS;
    private static final VarHandle LOCALS_MAP_SIZE;    // ThreadLocal.ThreadLocalMap.size (int): its entries
    private static final VarHandle SCOPED_VALUE_BINDINGS;   // Thread.scopedValueBindings (Object)
    private static final MethodHandle SET_SCOPED_VALUE_CACHE; // static Thread.setScopedValueCache(Object[])
    private static final Object EMPTY_BINDINGS;        // ScopedValue.Snapshot.EMPTY_SNAPSHOT
    // Thread.NEW_THREAD_BINDINGS: "nothing ever bound on this thread"; ScopedValue reads it as empty.
    private static final Object NO_BINDINGS = Thread.class;
    private static final Throwable FAILURE;            // why the above could not be bound, or null
    // The JDK's default virtual-thread scheduler (VirtualThread.defaultScheduler()), or null if this JDK has
    // no such method: then foreign virtual threads run on OwnForeignPool.POOL.
    private static final Executor JDK_SCHEDULER = jdkScheduler();

    static {
        MethodHandle newBuilder = null;
        VarHandle carrier = null;
        VarHandle scheduler = null;
        VarHandle locals = null;
        VarHandle inheritable = null;
        VarHandle mapSize = null;
        VarHandle bindings = null;
        MethodHandle setCache = null;
        Object emptyBindings = null;
        Throwable failure = null;
        try {
            Class<?> builder = Class.forName("java.lang.ThreadBuilders$VirtualThreadBuilder");
            Class<?> virtualThread = Class.forName("java.lang.VirtualThread");
            Class<?> localsMap = Class.forName("java.lang.ThreadLocal$ThreadLocalMap");
            MethodHandles.Lookup lookup = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup());
            newBuilder = MethodHandles.privateLookupIn(builder, MethodHandles.lookup())
                    .findConstructor(builder, MethodType.methodType(void.class, Executor.class))
                    .asType(MethodType.methodType(Thread.Builder.OfVirtual.class, Executor.class));
            MethodHandles.Lookup virtualThreadLookup = MethodHandles.privateLookupIn(virtualThread,
                    MethodHandles.lookup());
            carrier = virtualThreadLookup.findVarHandle(virtualThread, "carrierThread", Thread.class);
            scheduler = virtualThreadLookup.findVarHandle(virtualThread, "scheduler", Executor.class);
            locals = lookup.findVarHandle(Thread.class, "threadLocals", localsMap);
            inheritable = lookup.findVarHandle(Thread.class, "inheritableThreadLocals", localsMap);
            mapSize = MethodHandles.privateLookupIn(localsMap, MethodHandles.lookup())
                    .findVarHandle(localsMap, "size", int.class);
            bindings = lookup.findVarHandle(Thread.class, "scopedValueBindings", Object.class);
            setCache = lookup.findStatic(Thread.class, "setScopedValueCache",
                    MethodType.methodType(void.class, Object[].class));
            Class<?> snapshot = Class.forName("java.lang.ScopedValue$Snapshot");
            emptyBindings = MethodHandles.privateLookupIn(snapshot, MethodHandles.lookup())
                    .findStaticVarHandle(snapshot, "EMPTY_SNAPSHOT", snapshot).get();
        } catch (ReflectiveOperationException | RuntimeException e) {
            failure = e;   // IllegalAccessException / InaccessibleObjectException without the flag
        }
        NEW_BUILDER = newBuilder;
        CARRIER = carrier;
        SCHEDULER = scheduler;
        THREAD_LOCALS = locals;
        INHERITABLE_THREAD_LOCALS = inheritable;
        LOCALS_MAP_SIZE = mapSize;
        SCOPED_VALUE_BINDINGS = bindings;
        SET_SCOPED_VALUE_CACHE = setCache;
        EMPTY_BINDINGS = emptyBindings;
        FAILURE = failure;
    }

    private FiberSupport() {}

    /** Throws {@link IllegalStateException} naming the missing JVM flag if fibers cannot be made. */
    public static void check() {
        if (FAILURE != null) {
            throw new IllegalStateException(
                    "Weft needs the JVM flag `" + REQUIRED_FLAG + "` to run jobs on fibers with its own "
                            + "scheduler (Runtime.version() = " + Runtime.version() + "). Add it to the java "
                            + "command line, to Maven Surefire's <argLine>, or (class path only) as "
                            + "`Add-Opens: java.base/java.lang` in an executable jar's manifest.", FAILURE);
        }
    }

    /** A builder of virtual threads whose continuations are handed to {@code scheduler}. */
    public static Thread.Builder.OfVirtual virtualThreadBuilder(Executor scheduler) {
        check();
        try {
            return (Thread.Builder.OfVirtual) NEW_BUILDER.invokeExact(scheduler);
        } catch (Throwable t) {
            throw new IllegalStateException("could not create a virtual-thread builder", t);
        }
    }

    /**
     * Where the continuation of a virtual thread that is not one of Weft's fibers is run. Such a thread
     * was started inside a job: the JDK gave it the job's fiber as its scheduler (a virtual thread made
     * without a scheduler takes its parent virtual thread's), so its every wake is handed to the fiber,
     * which forwards it here. The JDK's default virtual-thread scheduler (the JVM's shared carrier pool,
     * where such a thread would have run had it been started outside a job) when this JDK lets us reach
     * it; otherwise one shared pool of daemon carriers, {@code weft-foreign-virtual-threads-N}, made on
     * first use. Neither is ever shut down, so such a thread runs on after every job system has closed.
     *
     * @return the executor for foreign virtual threads' continuations, the same one every time
     */
    public static Executor foreignScheduler() {
        Executor jdk = JDK_SCHEDULER;
        return jdk != null ? jdk : OwnForeignPool.POOL;
    }

    /** Weft's own pool for foreign virtual threads (tests: it is used only when the JDK's is out of reach). */
    static ForkJoinPool ownForeignPool() {
        return OwnForeignPool.POOL;
    }

    private static Executor jdkScheduler() {
        try {
            Class<?> virtualThread = Class.forName("java.lang.VirtualThread");
            MethodHandle defaultScheduler = MethodHandles.privateLookupIn(virtualThread, MethodHandles.lookup())
                    .findStatic(virtualThread, "defaultScheduler", MethodType.methodType(Executor.class));
            return (Executor) defaultScheduler.invokeExact();
        } catch (Throwable t) {
            return null;                       // without the flag (check() says so) or on another JDK
        }
    }

    /**
     * The fallback carrier pool, made on first use (class initialization): FIFO ("async mode") like the
     * JDK's virtual-thread scheduler, one carrier per CPU, daemon threads, never shut down.
     */
    private static final class OwnForeignPool {
        static final ForkJoinPool POOL = newPool();

        private static ForkJoinPool newPool() {
            AtomicInteger made = new AtomicInteger();
            ForkJoinPool.ForkJoinWorkerThreadFactory factory = pool -> {
                ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(pool);
                t.setName("weft-foreign-virtual-threads-" + made.incrementAndGet());
                t.setDaemon(true);
                return t;
            };
            return new ForkJoinPool(Runtime.getRuntime().availableProcessors(), factory, null, true);
        }
    }

    /** Whether virtual thread {@code vt} is mounted on a carrier right now (JDK field, acquire load). */
    public static boolean isMounted(Thread vt) {
        return CARRIER.getAcquire(vt) != null;
    }

    /**
     * The scheduler of virtual thread {@code vt} (the executor its continuation is handed to): for a Weft
     * fiber, the fiber itself; a virtual thread started inside a job inherits it. A final field: a plain load.
     */
    public static Executor schedulerOf(Thread vt) {
        return (Executor) SCHEDULER.get(vt);
    }

    /** The platform thread the current thread runs on: its carrier if virtual, else itself. */
    public static Thread currentCarrier() {
        Thread t = Thread.currentThread();
        if (!t.isVirtual()) {
            return t;
        }
        return (Thread) CARRIER.getAcquire(t);
    }

    /**
     * Forgets every ThreadLocal and InheritableThreadLocal value of {@code t}, so the next job on a
     * reused fiber starts with none. Only the thread itself may call this (plain field writes).
     */
    public static void clearThreadLocals(Thread t) {
        if (THREAD_LOCALS.get(t) != null) {
            THREAD_LOCALS.set(t, null);
        }
        if (INHERITABLE_THREAD_LOCALS.get(t) != null) {
            INHERITABLE_THREAD_LOCALS.set(t, null);
        }
    }

    /** Takes away {@code t}'s ThreadLocal maps (returned, to restore later) so a nested job sees none. */
    public static Object detachThreadLocals(Thread t) {
        Object locals = THREAD_LOCALS.get(t);
        Object inheritable = INHERITABLE_THREAD_LOCALS.get(t);
        if (locals == null && inheritable == null) {
            return null;                       // the common case allocates nothing, compiled or not
        }
        Object[] saved = {locals, inheritable};
        THREAD_LOCALS.set(t, null);
        INHERITABLE_THREAD_LOCALS.set(t, null);
        return saved;
    }

    /** {@code t}'s ThreadLocal map, or null (plain read: call it on {@code t} itself). */
    public static Object threadLocals(Thread t) {
        return THREAD_LOCALS.get(t);
    }

    /** {@code t}'s InheritableThreadLocal map, or null (plain read: call it on {@code t} itself). */
    public static Object inheritableThreadLocals(Thread t) {
        return INHERITABLE_THREAD_LOCALS.get(t);
    }

    /**
     * Gives {@code t} (the current thread) these maps, as {@link #threadLocals} and
     * {@link #inheritableThreadLocals} read them; null for none. Plain writes: the thread's own fields.
     */
    public static void setThreadLocals(Thread t, Object locals, Object inheritable) {
        THREAD_LOCALS.set(t, locals);
        INHERITABLE_THREAD_LOCALS.set(t, inheritable);
    }

    /**
     * How many entries a map {@link #threadLocals} returned holds (stale ones included until the map
     * expunges them); 0 for null. Plain read: a map of the current thread.
     */
    public static int threadLocalCount(Object map) {
        return map == null ? 0 : (int) LOCALS_MAP_SIZE.get(map);
    }

    /** Puts back the maps {@link #detachThreadLocals} took, dropping what the nested job set. */
    public static void restoreThreadLocals(Thread t, Object saved) {
        if (saved == null) {
            clearThreadLocals(t);
            return;
        }
        Object[] maps = (Object[]) saved;
        THREAD_LOCALS.set(t, maps[0]);
        INHERITABLE_THREAD_LOCALS.set(t, maps[1]);
    }

    /**
     * Hides the current thread's ScopedValue bindings from a job about to run nested on its stack (inline
     * help, a waiting thread's help, a main-thread job): the job sees none, as it would on a fiber of its
     * own. Returns what to give {@link #restoreScopedValues}. Only the current thread may call this: the
     * bindings field and the JDK's per-thread ScopedValue cache are both the current thread's, and the
     * cache must be dropped with every switch or {@code ScopedValue.get} would answer from it.
     */
    public static Object detachScopedValues() {
        Thread me = Thread.currentThread();
        Object bound = SCOPED_VALUE_BINDINGS.get(me);
        if (bound == NO_BINDINGS || bound == EMPTY_BINDINGS) {
            return bound;                      // nothing bound (the common case): nothing to hide, no cache flush
        }
        SCOPED_VALUE_BINDINGS.set(me, NO_BINDINGS);
        dropScopedValueCache();
        return bound;
    }

    /** Puts back the bindings {@link #detachScopedValues} hid; what the nested job bound is gone by now. */
    public static void restoreScopedValues(Object saved) {
        Thread me = Thread.currentThread();
        if (saved == NO_BINDINGS || saved == EMPTY_BINDINGS) {
            return;                            // nothing was hidden; a binding the job made was undone by its own scope
        }
        SCOPED_VALUE_BINDINGS.set(me, saved);
        dropScopedValueCache();
    }

    private static void dropScopedValueCache() {
        try {
            SET_SCOPED_VALUE_CACHE.invokeExact((Object[]) null);
        } catch (Throwable t) {
            throw new IllegalStateException("cannot reset the JDK's ScopedValue cache", t);
        }
    }
}
