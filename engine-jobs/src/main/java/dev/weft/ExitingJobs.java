package dev.weft;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link JobSystem#close()} called by a shutdown hook while a job is inside {@code System.exit}: the job
 * waits for the hooks to finish, and the hook's {@code close()} waited for every job, that one included,
 * so the JVM never exited (a "Quit" button whose job calls {@code System.exit(0)}, in a game whose hook
 * closes the job system). During the JVM's shutdown, {@code close()} asks here, between its waits,
 * whether the only jobs left are ones inside {@code System.exit}; then it stops waiting for them (they
 * never return: the JVM halts once the hooks end) and says so on stderr. Everything else still runs to its
 * end first. Off the job path: only {@code close()} calls it, and only while the JVM shuts down does it
 * read the fibers' stacks.
 */
final class ExitingJobs {
    private ExitingJobs() {
    }

    /**
     * True if the JVM is shutting down and every job still running on {@code s}'s fibers is inside
     * {@code System.exit} (or {@code Runtime.exit}), with nothing queued: then it prints which, and
     * {@code close()} returns. A racy snapshot (the watchdog reads fibers the same way); a wrong "no" only
     * means one more wait.
     */
    static boolean onlyTheyAreLeft(Scheduler s) {
        if (!jvmShuttingDown()) {
            return false;
        }
        List<String> exiting = new ArrayList<>();
        for (Fiber f : s.fibers.all()) {
            JobNode job = f.currentJob;
            if (job == null) {
                continue;                          // idle, or between jobs
            }
            if (!insideExit(f.thread.getStackTrace())) {
                return false;                      // a job that will end: close() waits for it
            }
            exiting.add("'" + job.name() + "'");
        }
        if (exiting.isEmpty() || s.picker.hasVisibleWork()) {
            return false;
        }
        System.err.println("weft: close() of '" + s.name() + "' in a shutdown hook returns without waiting for job "
                + String.join(", ", exiting) + ": it called System.exit, which waits for this hook. Every other job"
                + " ended.");
        return true;
    }

    /** The JDK refuses a new shutdown hook once shutdown has begun: the only public way to ask. */
    private static boolean jvmShuttingDown() {
        Thread probe = new Thread(() -> { });
        try {
            Runtime.getRuntime().addShutdownHook(probe);
        } catch (IllegalStateException shutdownInProgress) {
            return true;
        }
        Runtime.getRuntime().removeShutdownHook(probe);
        return false;
    }

    private static boolean insideExit(StackTraceElement[] stack) {
        for (StackTraceElement e : stack) {
            String c = e.getClassName();
            if (e.getMethodName().equals("exit") && (c.equals("java.lang.Shutdown") || c.equals("java.lang.Runtime"))) {
                return true;
            }
        }
        return false;
    }
}
