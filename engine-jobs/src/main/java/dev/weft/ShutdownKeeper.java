package dev.weft;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps the JVM alive from a shutdown until termination, as the JDK's pools do. Workers are daemon
 * threads, so that a game that never closes its job system still exits; but then {@code jobs.shutdown()}
 * followed by the end of {@code main} (the JDK's {@code pool.shutdown(); return;} idiom) ended the JVM
 * with submitted jobs unrun: a save-game job queued before the shutdown never wrote its file, although
 * shutdown promises to run everything submitted.
 *
 * <p>One non-daemon platform thread for the whole JVM, alive only while some job system is between its
 * first shutdown call and its termination (the set {@link #DRAINING}, which {@link Scheduler#markTerminated}
 * leaves). A thread per shutdown was the first version: a Lincheck test that calls shutdownNow per
 * invocation left thousands of them parked in Lincheck's thread-start hook, and slowed the rest of the
 * suite fourfold.
 *
 * <p>It never cancels main-thread jobs while the main thread lives: those are the main thread's own
 * {@code awaitTermination} to run or cancel (a keeper that cancelled them at termination raced the main
 * thread, still running its loop, and SoakTest found a main-thread job left neither run nor cancelled).
 * If the main thread is not bound, or has ended (its {@code main} returned), the keeper cancels queued
 * main-thread jobs rather than waiting for them, since nobody will run them, so a job waiting on one cannot
 * keep the JVM up for ever ({@link TerminationWait#awaitKeepingJvmUp}). A job that never ends after
 * {@code shutdown()} does keep it up, as with the JDK; {@code shutdownNow()} cancels waits and interrupts
 * running jobs.
 *
 * <p>No lost keeper: a system is added to the set (volatile write) before the CAS that starts a keeper;
 * a keeper that finds the set empty clears {@link #KEEPER_RUNNING} (volatile write) and then reads the set
 * again. Either the adder's CAS sees the flag cleared and starts a keeper, or the keeper's second read sees
 * the system and carries on.
 */
final class ShutdownKeeper {
    private static final Set<Scheduler> DRAINING = ConcurrentHashMap.newKeySet();
    private static final AtomicBoolean KEEPER_RUNNING = new AtomicBoolean();
    private static final Duration POLL = Duration.ofMillis(10);

    private ShutdownKeeper() {
    }

    /** The first shutdown call of {@code s} (the one that moved it out of RUNNING); any thread. */
    static void shuttingDown(Scheduler s) {
        if (!s.keepsJvmUpWhileShuttingDown) {
            return;
        }
        DRAINING.add(s);
        if (s.isTerminated()) {
            DRAINING.remove(s);             // terminated before we added it: markTerminated's remove came first
            return;
        }
        if (KEEPER_RUNNING.compareAndSet(false, true)) {
            Thread.ofPlatform()
                    .name("weft-shutdown-keeper")
                    .daemon(false)          // explicit: a builder inherits a virtual caller's daemon status
                    .start(ShutdownKeeper::keepAliveWhileDraining);
        }
    }

    /** {@code s} terminated: nothing of it is left to wait for. */
    static void terminated(Scheduler s) {
        DRAINING.remove(s);
    }

    private static void keepAliveWhileDraining() {
        try {
            for (;;) {
                for (Scheduler s : DRAINING) {
                    if (s.termination.awaitKeepingJvmUp(POLL)) {
                        DRAINING.remove(s);
                    }
                }
                if (DRAINING.isEmpty()) {
                    KEEPER_RUNNING.set(false);
                    if (DRAINING.isEmpty() || !KEEPER_RUNNING.compareAndSet(false, true)) {
                        return;             // empty, or a newer keeper took over
                    }
                }
            }
        } catch (InterruptedException e) {
            KEEPER_RUNNING.set(false);      // someone wants the JVM down: let this thread end
        }
    }
}
