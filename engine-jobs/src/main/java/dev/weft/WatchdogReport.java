package dev.weft;

import java.util.Arrays;
import java.util.List;

/**
 * What the watchdog saw: a job waiting longer than the threshold, a job holding its worker longer than
 * the threshold without parking (blocking its carrier: file I/O, {@code Thread.sleep} in native code, a
 * busy loop), or a cycle of jobs waiting on each other's counters (a deadlock).
 *
 * @param kind      which of the three
 * @param jobName   the job concerned (for a cycle: the first job of the cycle)
 * @param detail    a sentence saying what was seen and what to do
 * @param millis    how long it has waited or held its worker (for a cycle: its oldest wait)
 * @param stack     the job's stack (its fiber's)
 * @param cycle     for {@link Kind#WAIT_CYCLE}: every job of the cycle in order, else empty
 */
public record WatchdogReport(Kind kind, String jobName, String detail, long millis, List<StackTraceElement> stack,
                             List<WaitCycle.Entry> cycle) {

    /** What the watchdog saw. */
    public enum Kind {
        /**
         * A job has been parked longer than the threshold: in one wait on a counter, or outside Weft's
         * waits (a sleep, a monitor or lock, {@code Object.wait}); the detail says which.
         */
        LONG_WAIT,
        /**
         * A job has held its worker longer than the threshold without parking: a blocking call or busy
         * loop, or a wait its fiber cannot unmount from because it is inside a class's static initializer
         * (the detail then names the class).
         */
        BLOCKED_WORKER,
        /** Jobs wait on each other's counters: none of them can ever finish. */
        WAIT_CYCLE
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("weft watchdog: ").append(kind).append(": ").append(detail);
        for (StackTraceElement e : stack) {
            sb.append("\n\tat ").append(e);
        }
        for (WaitCycle.Entry e : cycle) {
            sb.append("\n  job '").append(e.job()).append("' waits on ").append(e.waitsOn());
            for (StackTraceElement f : e.stack()) {
                sb.append("\n\tat ").append(f);
            }
        }
        return sb.toString();
    }

    static List<StackTraceElement> stackOf(Thread t) {
        return List.copyOf(Arrays.asList(t.getStackTrace()));
    }
}
