package dev.weft;

import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * A recorded window of job activity: job begin/end per worker (and the main thread), fiber park and
 * resume, steals. Start one with {@link JobSystem#startTrace(int)}, stop it with {@link #stop()}, and
 * write it as Chrome Trace Event JSON, which Perfetto (ui.perfetto.dev) and chrome://tracing open.
 *
 * <pre>{@code
 * JobTrace trace = jobs.startTrace(100_000);   // events kept per worker
 * for (int f = 0; f < 60; f++) game.frame();
 * trace.stop().writeChromeTrace(Path.of("frames.json"));
 * }</pre>
 *
 * <p>One track per worker ("worker 0", "worker 1", ...) and one for the main thread. A job that parks
 * ends its slice on the worker it parked on and begins a "(resumed)" slice on the worker it resumes on,
 * so every track's begin/end pairs balance. Recording costs one volatile read per job when off; when
 * on, a few plain stores per event into the worker's own buffer (no lock, no shared write).
 */
public final class JobTrace {
    static final byte BEGIN = 0;
    static final byte END = 1;
    static final byte PARK = 2;
    static final byte RESUME = 3;
    static final byte STEAL = 4;

    /**
     * One recorded event. {@code track} is the worker index, or {@code workerCount} for the main thread.
     *
     * @param timeNanos when it happened, in {@link System#nanoTime()} nanoseconds
     * @param track the worker index, or {@code workerCount} for the main thread
     * @param kind what happened: "begin", "end", "park", "resume" or "steal"
     * @param label the job's name, or the span's label
     */
    public record Event(long timeNanos, int track, String kind, String label) {
    }

    private final Scheduler scheduler;
    private final Track[] tracks;
    private final long startNanos = System.nanoTime();
    private volatile long stopNanos;

    JobTrace(Scheduler scheduler, int tracks, int capacityPerTrack) {
        this.scheduler = scheduler;
        this.tracks = new Track[tracks];
        for (int i = 0; i < tracks; i++) {
            this.tracks[i] = new Track(capacityPerTrack + 1);   // kept() always skips the slot being written
        }
    }

    /**
     * Stops recording (idempotent) and returns this trace.
     *
     * @return this trace, to write out
     */
    public JobTrace stop() {
        if (stopNanos == 0) {
            stopNanos = System.nanoTime();
            scheduler.observation.stopTrace(this);
        }
        return this;
    }

    /**
     * Events overwritten by newer ones: each track keeps its newest {@code eventsPerWorker} events, so a
     * trace left running holds the last moments before {@link #stop()} (the hitch you stopped it for).
     *
     * @return the number of older events dropped, all tracks together; 0 if every event was kept
     */
    public long droppedEvents() {
        long d = 0;
        for (Track t : tracks) {
            d += t.dropped;
        }
        return d;
    }

    /**
     * The recorded events, track by track, each track in time order.
     *
     * @return a new list of the events kept, track by track
     */
    public List<Event> events() {
        List<Event> out = new ArrayList<>();
        for (int i = 0; i < tracks.length; i++) {
            Track.Kept t = tracks[i].kept();
            for (int k = t.first(); k < t.time().length; k++) {
                out.add(new Event(t.time()[k], i, kindName(t.kind()[k]), t.label()[k]));
            }
        }
        return out;
    }

    /**
     * Writes Chrome Trace Event JSON (the "JSON Object Format") to {@code file}.
     *
     * @param file the file to write, created or replaced
     * @throws IOException if writing fails
     */
    public void writeChromeTrace(Path file) throws IOException {
        try (Writer w = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            writeChromeTrace(w);
        }
    }

    /**
     * Writes Chrome Trace Event JSON to {@code out}. Event times ({@code ts}) are microseconds since the
     * trace started; {@code otherData.startNanos} is that start in {@link System#nanoTime()} nanoseconds,
     * the clock HotSpot's {@code -Xlog} prints with its {@code timenanos} decoration, so GC pauses and JIT
     * compilations logged with {@code -Xlog:gc,jit+compilation=debug::timenanos} line up with the jobs.
     *
     * @param out where to write the JSON; not closed
     * @throws IOException if writing fails
     */
    public void writeChromeTrace(Writer out) throws IOException {
        long end = stopNanos != 0 ? stopNanos : System.nanoTime();
        out.write("{\"displayTimeUnit\":\"ms\",\"otherData\":{\"startNanos\":" + startNanos + "},\"traceEvents\":[\n");
        boolean first = true;
        int workers = tracks.length - 1;
        for (int i = 0; i < tracks.length; i++) {
            String trackName = i < workers ? "worker " + i : "main thread";
            first = writeEvent(out, first, "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1,\"tid\":" + i
                    + ",\"args\":{\"name\":\"" + trackName + "\"}}");
        }
        for (int i = 0; i < tracks.length; i++) {
            Track.Kept t = tracks[i].kept();
            ArrayDeque<String> open = new ArrayDeque<>();
            for (int k = t.first(); k < t.time().length; k++) {
                String label = t.label()[k];
                String ts = micros(t.time()[k]);
                switch (t.kind()[k]) {
                    case BEGIN, RESUME -> {
                        String name = t.kind()[k] == RESUME ? label + " (resumed)" : label;
                        open.push(name);
                        first = writeEvent(out, first, "{\"name\":" + jsonString(name)
                                + ",\"cat\":\"job\",\"ph\":\"B\",\"ts\":" + ts + ",\"pid\":1,\"tid\":" + i + "}");
                    }
                    case END, PARK -> {
                        if (open.isEmpty()) {
                            continue;                   // began before the trace started, or before its oldest kept event
                        }
                        open.pop();
                        if (t.kind()[k] == PARK) {
                            first = writeEvent(out, first, "{\"name\":" + jsonString("park: " + label)
                                    + ",\"cat\":\"fiber\",\"ph\":\"i\",\"s\":\"t\",\"ts\":" + ts + ",\"pid\":1,\"tid\":" + i
                                    + "}");
                        }
                        first = writeEvent(out, first, "{\"ph\":\"E\",\"ts\":" + ts + ",\"pid\":1,\"tid\":" + i + "}");
                    }
                    default -> first = writeEvent(out, first, "{\"name\":\"steal\",\"cat\":\"steal\",\"ph\":\"i\","
                            + "\"s\":\"t\",\"ts\":" + ts + ",\"pid\":1,\"tid\":" + i + ",\"args\":{\"job\":"
                            + jsonString(label) + "}}");
                }
            }
            while (!open.isEmpty()) {            // still running when the trace stopped
                open.pop();
                first = writeEvent(out, first, "{\"ph\":\"E\",\"ts\":" + micros(end) + ",\"pid\":1,\"tid\":" + i + "}");
            }
        }
        out.write("\n]}\n");
    }

    private String micros(long nanos) {
        long rel = nanos - startNanos;
        return (rel / 1000) + "." + String.format("%03d", Math.floorMod(rel, 1000));
    }

    private static boolean writeEvent(Writer out, boolean first, String event) throws IOException {
        if (!first) {
            out.write(",\n");
        }
        out.write(event);
        return false;
    }

    /**
     * {@code text} as a JSON string literal, quotes included: the quote and the backslash escaped,
     * control characters in JSON's short forms or as {@code u00XX} escapes, and an unpaired surrogate as
     * a {@code uXXXX} escape too (written raw it would become {@code ?} in the UTF-8 file); everything
     * else, surrogate pairs included, as is. The project's one hand-written JSON escaper: the demo's run
     * summary and the tests go through Jackson.
     */
    private static String jsonString(String text) {
        StringBuilder b = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                case '\b' -> b.append("\\b");
                case '\f' -> b.append("\\f");
                default -> {
                    boolean paired = Character.isHighSurrogate(c) && i + 1 < text.length()
                            && Character.isLowSurrogate(text.charAt(i + 1));
                    if (paired) {
                        b.append(c).append(text.charAt(++i));
                    } else if (c < 0x20 || Character.isSurrogate(c)) {
                        b.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 0xF])
                                .append(HEX[(c >> 4) & 0xF]).append(HEX[c & 0xF]);
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private static String kindName(byte k) {
        return switch (k) {
            case BEGIN -> "begin";
            case END -> "end";
            case PARK -> "park";
            case RESUME -> "resume";
            default -> "steal";
        };
    }

    /** Owner of track {@code i} only (a worker's thread, or the main thread). */
    void record(int track, byte kind, String label) {
        tracks[track].add(System.nanoTime(), kind, label);
    }

    /**
     * One track's ring: written by its one owner, which overwrites its oldest event when full; read by
     * anyone, also while recording, through {@link #kept}.
     */
    private static final class Track {
        private static final java.lang.invoke.VarHandle COUNT;

        static {
            try {
                COUNT = java.lang.invoke.MethodHandles.lookup().findVarHandle(Track.class, "count", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** A copy of the kept events, oldest first; those before {@code first} may be torn and are skipped. */
        record Kept(long[] time, byte[] kind, String[] label, int first) {}

        final long[] time;
        final byte[] kind;
        final String[] label;
        private long count;    // events ever added; owner: plain read, release store after filling the slot
        long dropped;          // owner only (overwritten events); read after stop
        private Thread owner;  // the first writer (plain: owner only); assertions check every later add

        Track(int capacity) {
            time = new long[capacity];
            kind = new byte[capacity];
            label = new String[capacity];
        }

        void add(long t, byte k, String l) {
            assert ownedByCurrentThread();
            long n = count;
            int slot = (int) (n % time.length);
            if (n >= time.length - 1) {
                dropped++;                     // the oldest kept event goes: a trace keeps the newest
            }
            time[slot] = t;
            kind[slot] = k;
            label[slot] = l;
            COUNT.setRelease(this, n + 1);
        }

        /**
         * The kept events, copied oldest first. Index k (k-th event ever) sits in slot k % capacity; the
         * owner, writing event n, overwrites event n - capacity's slot before it publishes n + 1. So after
         * the copy the count is read again (behind a load-load fence): events at or below that count minus
         * the capacity may have been overwritten while we copied, and {@code first} skips them.
         */
        Kept kept() {
            long n = (long) COUNT.getAcquire(this);
            int cap = time.length;
            int kept = (int) Math.min(n, cap);
            long from = n - kept;
            long[] ts = new long[kept];
            byte[] ks = new byte[kept];
            String[] ls = new String[kept];
            for (int i = 0; i < kept; i++) {
                int slot = (int) ((from + i) % cap);
                ts[i] = time[slot];
                ks[i] = kind[slot];
                ls[i] = label[slot];
            }
            java.lang.invoke.VarHandle.acquireFence();   // the copies above before the re-read below
            long after = (long) COUNT.getAcquire(this);
            int first = (int) Math.min(kept, Math.max(0L, after - cap + 1 - from));
            return new Kept(ts, ks, ls, first);
        }

        /** For assertions (on under tests): one writer per track, the carrier that first wrote. */
        private boolean ownedByCurrentThread() {
            Thread carrier = dev.weft.internal.FiberSupport.currentCarrier();
            if (owner == null) {
                owner = carrier;
            } else if (owner != carrier) {
                throw new AssertionError("trace track of " + owner.getName() + " written on " + carrier);
            }
            return true;
        }
    }
}
