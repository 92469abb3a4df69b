package dev.weft;

/**
 * The observation hooks: a {@link JobTrace} being recorded and the JFR events ({@link JfrEvents}). The
 * job path asks {@link #isObserved()} (one or two volatile reads) and calls the hooks only when someone
 * records, so a system nobody watches pays a load per job and nothing else.
 *
 * <p>Tracks: worker {@code i} records on track {@code i}; any other thread (the main thread running
 * main-thread jobs) on the last one.
 */
final class Observation {
    private final Scheduler scheduler;
    private final int workerCount;
    private volatile JobTrace trace;    // the recording in progress, or null (read once per hook)

    Observation(Scheduler scheduler, int workerCount) {
        this.scheduler = scheduler;
        this.workerCount = workerCount;
    }

    static final int MAX_EVENTS_PER_WORKER = 100_000_000;

    JobTrace startTrace(int eventsPerWorker) {
        if (eventsPerWorker < 1 || eventsPerWorker > MAX_EVENTS_PER_WORKER) {
            throw new IllegalArgumentException("eventsPerWorker must be between 1 and " + MAX_EVENTS_PER_WORKER
                    + " (each kept event costs about 17 bytes per worker, allocated at start), got " + eventsPerWorker);
        }
        if (!OBSERVATION_HOOKS) {
            throw new IllegalStateException("job traces are compiled out in this JVM: it was started with "
                    + "-Dweft.internal.observationHooks=false (a benchmark setting); drop that flag to record");
        }
        JobTrace t = new JobTrace(scheduler, workerCount + 1, eventsPerWorker);
        JobTrace old = trace;
        if (old != null) {
            throw new IllegalStateException("a trace of '" + scheduler.name() + "' is already recording; stop() it first");
        }
        trace = t;
        return t;
    }

    void stopTrace(JobTrace t) {
        if (trace == t) {
            trace = null;
        }
    }

    /**
     * Measurement only: {@code -Dweft.internal.observationHooks=false} makes {@link #isObserved()} a
     * constant false, so the JIT drops the recording hooks from the job path altogether. The bench's
     * {@code RecordingOverhead} runs EmptyJobs with and without it to price the hooks when nothing
     * records (the "recording off costs at most 2%" budget). Not a user setting: traces and JFR events
     * are then refused or absent.
     */
    static final boolean OBSERVATION_HOOKS =
            !"false".equals(System.getProperty("weft.internal.observationHooks"));

    /**
     * Is anyone recording: a JobTrace, or a JFR recording with Weft's events on? One or two volatile
     * reads; a JFR recording running without Weft's events (the JDK's default settings) adds the three
     * event types' enabled flags, and nothing else.
     */
    boolean isObserved() {
        return OBSERVATION_HOOKS && (trace != null || JfrEvents.anyEnabled());   // anyEnabled reads active first
    }

    private int track() {
        Worker w = Worker.current(scheduler);
        return w != null ? w.index : workerCount;       // the last track is the main thread
    }

    /** Token for {@link #jobEnded}: the JFR event in progress, or a marker. */
    Object jobBegan(JobNode job) {
        JobTrace t = trace;
        if (t != null) {
            t.record(track(), JobTrace.BEGIN, job.name());
        }
        if (JfrEvents.enabled(JfrEvents.JOB)) {
            JfrEvents.JobEvent e = new JfrEvents.JobEvent();
            e.job = job.name();
            e.worker = track();
            e.begin();
            return e;
        }
        return Boolean.TRUE;
    }

    void jobEnded(JobNode job, Object token) {
        JobTrace t = trace;
        if (t != null) {
            t.record(track(), JobTrace.END, job.name());
        }
        if (token instanceof JfrEvents.JobEvent e) {
            e.commit();
        }
    }

    Object fiberParked(Fiber f, Counter counter) {
        JobTrace t = trace;
        JobNode j = f.currentJob;
        if (t != null) {
            t.record(track(), JobTrace.PARK, (j != null ? j.name() : "?") + " waits on " + counter.name());
        }
        if (JfrEvents.enabled(JfrEvents.PARK)) {
            JfrEvents.ParkEvent e = new JfrEvents.ParkEvent();
            e.job = j != null ? j.name() : "?";
            e.counter = counter.name();
            e.worker = track();
            e.begin();
            return e;
        }
        return Boolean.TRUE;
    }

    void fiberUnparked(Fiber f, Object token) {
        JobTrace t = trace;
        JobNode j = f.currentJob;
        if (t != null) {
            t.record(track(), JobTrace.RESUME, j != null ? j.name() : "?");
        }
        if (token instanceof JfrEvents.ParkEvent e) {
            e.commit();
        }
    }

    /**
     * The main thread's own span of work (not a job) begins or ends on its track: a plain BEGIN/END
     * pair, so main-thread jobs run in between nest inside it. Owner of the main track only (the caller
     * checked), which keeps the track single-writer.
     */
    void mainThreadSpan(String label, boolean begin) {
        JobTrace t = trace;
        if (t != null) {
            t.record(workerCount, begin ? JobTrace.BEGIN : JobTrace.END, label);
        }
    }

    void stole(Worker thief, Object item) {
        JobTrace t = trace;
        if (t != null) {
            t.record(thief.index, JobTrace.STEAL, item instanceof JobNode j ? j.name() : "fiber");
        }
        if (JfrEvents.enabled(JfrEvents.STEAL)) {
            JfrEvents.StealEvent e = new JfrEvents.StealEvent();
            e.thief = thief.index;
            e.commit();
        }
    }
}
