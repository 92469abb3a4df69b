package dev.weft.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * A child process (the tools rerun themselves in a JVM with Weft's flags) that ends with this JVM. A
 * child does not get its parent's SIGTERM: without this, {@code kill} on the parent leaves a benchmark
 * running under pid 1, taking the CPU of the next run. A shutdown hook ends it: SIGTERM, then SIGKILL
 * if it is still there after {@link #GRACE_SECONDS}. Close it once the child has ended (or to end it).
 */
public final class ChildProcess implements AutoCloseable {
    /** How long a child gets to exit on SIGTERM (its own shutdown hooks, e.g. its own children) before SIGKILL. */
    static final long GRACE_SECONDS = 3;

    private final Process process;
    private final Thread hook;

    private ChildProcess(Process process, Thread hook) {
        this.process = process;
        this.hook = hook;
    }

    /** Starts {@code builder}'s process, to be ended by this JVM's shutdown if it is still running then. */
    public static ChildProcess start(ProcessBuilder builder) throws IOException {
        Process p = builder.start();
        Thread hook = new Thread(() -> stop(p), "stop-child-" + p.pid());
        try {
            Runtime.getRuntime().addShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // this JVM is already on its way out (a SIGTERM raced the start): no hook will run, so end it now
            p.destroyForcibly();
            throw shuttingDown;
        }
        return new ChildProcess(p, hook);
    }

    public Process process() {
        return process;
    }

    /** Waits for the child to exit; returns its exit code. */
    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    /** Ends the child if it is still running (e.g. the wait for it was interrupted) and drops the hook. */
    @Override
    public void close() {
        stop(process);
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // the hook is running or has run: nothing to remove
        }
    }

    private static void stop(Process p) {
        if (!p.isAlive()) {
            return;
        }
        p.destroy();
        try {
            if (p.waitFor(GRACE_SECONDS, TimeUnit.SECONDS)) {
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        p.destroyForcibly();
    }
}
