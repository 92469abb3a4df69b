package dev.weft;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.FlightRecorderListener;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Recording;
import jdk.jfr.RecordingState;
import jdk.jfr.StackTrace;

/**
 * JDK Flight Recorder events for jobs, fiber parks and steals, shown by JDK Mission Control under
 * "Weft". They are emitted only while a recording is running: a listener flips {@link #active}, and
 * the job path reads that one volatile field.
 */
final class JfrEvents {
    static volatile boolean active;

    static {
        try {
            FlightRecorder.addListener(new FlightRecorderListener() {
                @Override
                public void recordingStateChanged(Recording recording) {
                    active = FlightRecorder.getFlightRecorder().getRecordings().stream()
                            .anyMatch(r -> r.getState() == RecordingState.RUNNING);
                }
            });
            active = FlightRecorder.isInitialized() && FlightRecorder.getFlightRecorder().getRecordings().stream()
                    .anyMatch(r -> r.getState() == RecordingState.RUNNING);
        } catch (RuntimeException | LinkageError e) {
            active = false;                      // no JFR in this runtime: nothing to emit
        }
    }

    private JfrEvents() {}

    static void init() {
        // Loading the class registers the listener.
    }

    @Name("weft.Job")
    @Label("Job")
    @Category("Weft")
    @Description("A job on a Weft fiber, from start to end (waits included: see Fiber Park)")
    @StackTrace(false)
    static final class JobEvent extends Event {
        @Label("Job") String job;
        @Label("Worker") int worker;
    }

    @Name("weft.FiberPark")
    @Label("Fiber Park")
    @Category("Weft")
    @Description("A job parked its fiber in a wait on a counter")
    static final class ParkEvent extends Event {
        @Label("Job") String job;
        @Label("Counter") String counter;
        @Label("Worker") int worker;
    }

    @Name("weft.Steal")
    @Label("Steal")
    @Category("Weft")
    @Description("A worker stole work from another worker's deque")
    @StackTrace(false)
    static final class StealEvent extends Event {
        @Label("Thief") int thief;
    }
}
