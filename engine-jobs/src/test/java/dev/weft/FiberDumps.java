package dev.weft;

/**
 * Thread dumps that include Weft's fibers. {@link TestSupport#threadDump()} uses the ThreadMXBean, which
 * lists platform threads only: a carrier running a fiber shows up as "WAITING on java.lang.VirtualThread"
 * with no hint of what the job is doing. This adds every live fiber of a job system with its job, its
 * wait and its stack.
 */
final class FiberDumps {
    private FiberDumps() {}

    static String of(JobSystem jobs) {
        if (jobs == null) {
            return "";
        }
        StringBuilder sb = new StringBuilder("---- " + jobs + ": " + schedulerState(jobs.schedulerForTests()) + "\n"
                + jobs.stats() + "\n---- fibers of " + jobs + " ----\n");
        for (Fiber f : jobs.schedulerForTests().fibers.all()) {
            Thread t = f.thread;
            if (!t.isAlive()) {
                continue;
            }
            JobNode j = f.currentJob;
            WaitNode w = f.waitNode;
            sb.append('"').append(t.getName()).append("\" ").append(t.getState())
                    .append(f.idle ? " idle" : "")
                    .append(j != null ? " job '" + j.name() + "' state=" + j.state() : " no job")
                    .append(w != null ? " waiting on " + w.counter + " (node state " + w.state() + ")" : "")
                    .append('\n');
            for (StackTraceElement e : t.getStackTrace()) {
                sb.append("\tat ").append(e).append('\n');
            }
        }
        return sb.toString();
    }

    /** The scheduler's private shutdown and parking state, read reflectively (for hang reports only). */
    static String schedulerState(Scheduler s) {
        StringBuilder sb = new StringBuilder();
        for (String field : new String[] {"runState", "parking"}) {
            try {
                java.lang.reflect.Field f = Scheduler.class.getDeclaredField(field);
                f.setAccessible(true);
                sb.append(field).append('=').append(f.get(s)).append(' ');
            } catch (ReflectiveOperationException | RuntimeException e) {
                sb.append(field).append("=? ");
            }
        }
        sb.append(s.fibers).append(' ');
        for (Worker w : s.workers) {
            sb.append("worker").append(w.index).append(".parkState=").append(w.parkState).append(' ');
        }
        sb.append("hasVisibleWork=").append(s.picker.hasVisibleWork());
        return sb.toString();
    }
}
