package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ConcurrentHashMap;

/**
 * jcstress only: a job submitted after counters ({@link Prerequisites#submit}) with its package-private
 * {@code Prerequisites.Release} in reach, so that a test can race the real {@code Release.register},
 * {@code Release.drop} (through {@link PendingJobs#forget}, the take-then-drop that a handle's
 * {@code cancel()} and {@code shutdownNow}'s {@code cancelAll} run) and {@code Release.run} (through the
 * counter's last decrement), then read each continuation node's state and whether it still holds its action.
 *
 * <p>A job needs a scheduler (accept checks its run state and adds it to {@link PendingJobs}; a release that
 * wins queues it): one job system per JVM, one worker, never closed (its threads are daemons). Each test
 * takes its own job out of the set by the end, so the set does not grow across the millions of states.
 * The bridge builds what {@link Prerequisites#submit} builds (a handle, a Release of the handle) without
 * registering it, so that a test can run {@code register} itself; the fields it reads (the Release's nodes
 * and remaining count, a node's action, the pending set) are private and read by reflection: no test hook
 * in the main code.
 */
public final class PendingDrops {
    private PendingDrops() {}

    private static final JobSystem SYSTEM = JobSystem.builder().name("jcstress-drop").workers(1).build();
    private static final Scheduler SCHEDULER = SYSTEM.schedulerForTests();
    private static final VarHandle NODES;
    private static final VarHandle REMAINING;
    private static final VarHandle ON_FIRE;
    private static final VarHandle JOBS;
    private static final VarHandle NODE = MethodHandles.arrayElementVarHandle(WaitNode[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            MethodHandles.Lookup release = MethodHandles.privateLookupIn(Prerequisites.Release.class, l);
            NODES = release.findVarHandle(Prerequisites.Release.class, "nodes", WaitNode[].class);
            REMAINING = release.findVarHandle(Prerequisites.Release.class, "remaining", int.class);
            ON_FIRE = MethodHandles.privateLookupIn(WaitNode.class, l)
                    .findVarHandle(WaitNode.class, "onFire", Runnable.class);
            JOBS = MethodHandles.privateLookupIn(PendingJobs.class, l)
                    .findVarHandle(PendingJobs.class, "jobs", ConcurrentHashMap.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A handle and its release, as {@code Prerequisites.submit} makes them. */
    public static final class Pending {
        final JobHandle<Integer> handle;
        final Prerequisites.Release release;

        Pending(JobHandle<Integer> handle, Prerequisites.Release release) {
            this.handle = handle;
            this.release = release;
        }
    }

    /** {@code after(counters).submit(...)} up to, not including, {@code release.register}. */
    public static Pending unregistered(Counter... counters) {
        Prerequisites p = Prerequisites.ofCounters(SCHEDULER, null, counters);
        JobHandle<Integer> h = new JobHandle<>(SCHEDULER, "jcstress", Priority.NORMAL, () -> 42, null, null);
        return new Pending(h, new Prerequisites.Release(p, h));
    }

    /** {@code after(counters).submit(...)}: accepted into the pending set, one node on each counter. */
    public static Pending submitted(Counter... counters) {
        Pending p = unregistered(counters);
        register(p);
        return p;
    }

    /** The registrar: {@code Release.register} (accept, then one node per counter, then the re-read). */
    public static void register(Pending p) {
        p.release.register("submit");
    }

    /** The handle's {@code cancel()}: completes it as cancelled, then takes it and drops its release. */
    public static boolean cancel(Pending p) {
        return p.handle.cancel();
    }

    /** The taker's step of {@code cancelAll} (and of a handle's cancel): take the job; if taken, drop. */
    public static void takeAndDrop(Pending p) {
        SCHEDULER.pendingJobs.forget(p.handle);
    }

    /** Whether the job is still in the pending set (nobody took it). */
    public static boolean isPending(Pending p) {
        return ((ConcurrentHashMap<?, ?>) JOBS.get(SCHEDULER.pendingJobs)).containsKey(p.handle);
    }

    /** Node {@code i}'s state (WaitNode.WAITING 0, FIRED 1, CANCELLED 2, ABANDONED 3), or -1 if none. */
    public static int nodeState(Pending p, int i) {
        WaitNode n = node(p, i);
        return n == null ? -1 : n.state();
    }

    /** Whether node {@code i} still holds its action (the Release, the job, its closure): 1, else 0. */
    public static int holdsAction(Pending p, int i) {
        WaitNode n = node(p, i);
        return n != null && ON_FIRE.get(n) != null ? 1 : 0;
    }

    /** The Release's count of prerequisites whose continuation has not run. */
    public static int remaining(Pending p) {
        return (int) REMAINING.getVolatile(p.release);
    }

    private static WaitNode node(Pending p, int i) {
        return (WaitNode) NODE.getVolatile((WaitNode[]) NODES.get(p.release), i);
    }
}
