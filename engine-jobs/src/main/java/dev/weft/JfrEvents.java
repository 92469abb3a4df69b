package dev.weft;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.EventType;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.StackTrace;

/**
 * JDK Flight Recorder events for jobs, fiber parks and steals, shown by JDK Mission Control under
 * "Weft". They are off unless a recording asks for them, because they come at a job system's
 * frequency (a million jobs a second is ordinary): with them on in the JDK's own default recording,
 * {@code EmptyJobs} from a job cost 1.8x, {@code Fib} 2.4x and a wait and resume 2.4x, and every job
 * allocated its event. Turn them on for a profiling session with the settings file
 * {@code engine-jobs/weft.jfc} beside the JDK's own:
 * <pre>
 * java -XX:StartFlightRecording:filename=game.jfr,settings=default,settings=weft.jfc ...
 * </pre>
 * or {@code recording.enable("weft.Job")} in code. (The shorter {@code weft.Job#enabled=true} option is
 * refused at start-up, "doesn't exist": the JVM checks it before Weft's event classes are loaded.) The job path reads {@link #active} (one volatile
 * field, flipped by a listener while any recording runs) and, only then, whether one of these event
 * types is enabled ({@link #anyEnabled}); an event object is made only for an enabled type.
 */
final class JfrEvents {
    static volatile boolean active;
    /**
     * Weft's three event types, looked up the first time a recording runs (JFR is initialised by then:
     * {@code EventType.getEventType} before that would initialise it, 120 ms at every start-up). Written
     * before {@link #active} turns true, so a reader that saw {@code active} sees them.
     */
    private static volatile EventType[] types;
    static final int JOB = 0;
    static final int PARK = 1;
    static final int STEAL = 2;

    static {
        try {
            FlightRecorder.addListener(new FlightRecorderListener() {
                @Override
                public void recordingStateChanged(Recording recording) {
                    update();
                }
            });
            if (FlightRecorder.isInitialized()) {
                update();
            }
        } catch (RuntimeException | LinkageError e) {
            active = false;                      // no JFR in this runtime: nothing to emit
        }
    }

    private static void update() {
        boolean running = FlightRecorder.getFlightRecorder().getRecordings().stream()
                .anyMatch(r -> r.getState() == RecordingState.RUNNING);
        if (running && types == null) {
            try {
                types = new EventType[] {EventType.getEventType(JobEvent.class),
                    EventType.getEventType(ParkEvent.class), EventType.getEventType(StealEvent.class)};
            } catch (RuntimeException | LinkageError e) {
                running = false;                 // cannot register our events: emit nothing
            }
        }
        active = running && types != null;
    }

    /** Whether a running recording has event type {@code kind} ({@link #JOB}, {@link #PARK}, {@link #STEAL}) on. */
    static boolean enabled(int kind) {
        return active && types[kind].isEnabled();
    }

    /** Whether a running recording has any of Weft's event types on. */
    static boolean anyEnabled() {
        if (!active) {
            return false;
        }
        EventType[] t = types;
        return t[JOB].isEnabled() || t[PARK].isEnabled() || t[STEAL].isEnabled();
    }

    private JfrEvents() {}

    static void init() {
        // Loading the class registers the listener.
    }

    @Name("weft.Job")
    @Enabled(false)
    @Label("Job")
    @Category("Weft")
    @Description("A job on a Weft fiber, from start to end (waits included: see Fiber Park)")
    @StackTrace(false)
    static final class JobEvent extends Event {
        @Label("Job") String job;
        @Label("Worker") int worker;
    }

    @Name("weft.FiberPark")
    @Enabled(false)
    @Label("Fiber Park")
    @Category("Weft")
    @Description("A job parked its fiber in a wait on a counter")
    static final class ParkEvent extends Event {
        @Label("Job") String job;
        @Label("Counter") String counter;
        @Label("Worker") int worker;
    }

    @Name("weft.Steal")
    @Enabled(false)
    @Label("Steal")
    @Category("Weft")
    @Description("A worker stole work from another worker's deque")
    @StackTrace(false)
    static final class StealEvent extends Event {
        @Label("Thief") int thief;
    }
}
