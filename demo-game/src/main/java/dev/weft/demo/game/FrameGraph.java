package dev.weft.demo.game;

import dev.weft.Counter;
import dev.weft.JobGraph;
import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.Priority;
import dev.weft.RangeJob;
import dev.weft.demo.render.DrawList;
import dev.weft.demo.render.Mesh;
import dev.weft.demo.render.Texture;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLongArray;
import org.joml.FrustumIntersection;
import org.joml.Matrix4f;
import org.joml.Matrix4fc;
import org.joml.Vector3f;
import org.joml.Vector3fc;

/**
 * One frame's Weft job graph: a root job on a fiber that runs four stages, each waiting (parking its
 * fiber) on the previous stage's counter:
 *
 * <pre>
 * frame N (root job, FRAME priority)
 *   simulate  parallelFor over entities: ticks x (movement, collision, animation)   -> Counter "simulate"
 *   cull      parallelFor over entities: frustum vs bounds, writes visible[i]        -> Counter "cull"
 *   build     parallelFor over entities: visible ones -> commands (ids and a model matrix) in the
 *             worker's own buffer, one chunk per range, tagged with the range's start
 *                                                                                    -> Counter "build"
 *   merge     one job ({@link FrameMerge}): chunks taken in range-start order (so worker scheduling
 *             cannot change the order), static props culled, and a stable counting sort by (mesh,
 *             texture) into the output slot, and the renderer's DrawList filled from it
 *                                                                                    -> Counter "merge"
 * </pre>
 *
 * <p>Two styles run the same stages ({@link Style}): {@code PARKED_WAITS}, the root job above, parks
 * between stages; {@code JOB_GRAPH} builds a {@link JobGraph} once (simulate -> cull -> build -> merge,
 * the same bodies) and runs it every frame, each stage queued by the range that finishes the one before,
 * with no fiber parked; a last job after the graph hands the output over. The results are the same
 * ({@code RenderCommandDeterminismTest}); {@code --compare-frame-graph} measures both in one run.
 *
 * <p>No locks: {@link RangeJob} hands each range its worker index, and a worker runs one range at a
 * time, so worker {@code w}'s buffer has one writer; the merge job reads them all after the build
 * counter. Output slots are double-buffered ({@code frame & 1}), so with pipelining the main thread can
 * draw frame N from one slot while frame N+1's graph fills the other. Only one graph runs at a time
 * ({@link #submit} refuses a second), so everything else is single-buffered.
 *
 * <p>Deterministic: a seed gives the same merged commands whatever the worker count or stealing
 * pattern, because entities are independent, arithmetic is plain float, and merge order depends only
 * on range starts and material keys.
 *
 * <p>Threading: {@link #submit}, {@link #describeStall} and the statistics getters are for the main
 * thread; everything else runs inside the graph's jobs.
 */
final class FrameGraph {
    /** Jobs a frame runs at least: one per stage plus the root. */
    static final int MIN_JOBS_PER_FRAME = FrameStage.values().length + 1;
    /** Fixed simulation step: 60 Hz. */
    static final float TICK_SECONDS = 1f / 60f;

    /**
     * Receives a status line on the main thread every {@code reportEvery} frames: the merge job queues it
     * with {@code jobs.onMainThread}, and the loop's {@code runMainThreadJobs} runs it (window title, HUD).
     */
    interface MainThreadReport {
        void frameDone(long frame, int visibleEntities, int visibleProps, long[] stageNanos);
    }

    /** How the stages wait for each other; see the class comment. */
    enum Style {
        PARKED_WAITS, JOB_GRAPH;

        String label() {
            return this == PARKED_WAITS ? "parked-waits" : "job-graph";
        }
    }

    /** What the main thread decides for a frame before its graph starts. */
    record Input(long frame, int ticks, Matrix4fc viewProjection, Vector3fc eye, Vector3fc target) {
        Input {
            if (ticks < 0) {
                throw new IllegalArgumentException("ticks must be >= 0: " + ticks);
            }
            viewProjection = new Matrix4f(viewProjection);
            eye = new Vector3f(eye);
            target = new Vector3f(target);
        }
    }

    /** A finished frame: valid until the graph of frame + 2 starts (double-buffered). */
    static final class Output {
        long frame;
        int ticks;
        int visibleEntities;
        int visibleProps;
        final CommandBuffer commands = new CommandBuffer(1024);   // merged, sorted by (mesh, texture)
        final DrawList draws = new DrawList(1024);                 // commands as GPU handles; empty without them
        final Vector3f eye = new Vector3f();
        final Vector3f target = new Vector3f();
        final long[] stageNanos = new long[FrameStage.values().length];
        /** System.nanoTime() when the root job began the simulate stage: the start of the simulate-to-present latency. */
        long simulateStartNanos;
    }

    /** GPU handles by id; null in tests that only look at commands. */
    record Gpu(Mesh[] meshes, Texture[] textures) {}

    /** Which mesh id, base scale and texture id each agent mesh kind / texture kind uses. */
    record AgentKinds(int[] meshIds, float[] meshScales, int[] textureIds) {
        AgentKinds {
            if (meshIds.length != meshScales.length || meshIds.length == 0 || textureIds.length == 0) {
                throw new IllegalArgumentException("agent kinds: need as many scales as meshes, and >= 1 of each");
            }
        }
    }

    /** Static props, resolved to ids, with their model matrices and world bounds (6 floats each). */
    record Props(int[] meshIds, int[] textureIds, float[] models, float[] bounds) {
        static Props none() {
            return new Props(new int[0], new int[0], new float[0], new float[0]);
        }

        int count() {
            return meshIds.length;
        }
    }

    /** Everything a graph works on. {@code props}, {@code gpu}, {@code report} and {@code hook} may be null. */
    record Setup(JobSystem jobs, Entities entities, CollisionWorld world, AgentKinds agents, Props props,
                 int meshIdCount, int textureIdCount, Gpu gpu, int grain, MainThreadReport report,
                 int reportEvery, FrameStage.Hook hook) {
        Setup {
            Objects.requireNonNull(jobs, "jobs");
            Objects.requireNonNull(entities, "entities");
            Objects.requireNonNull(world, "world");
            if (grain < 1 || reportEvery < 1) {
                throw new IllegalArgumentException("grain and reportEvery must be >= 1: " + grain + ", " + reportEvery);
            }
        }
    }

    // Per-worker statistics, one 128-byte stride per worker so workers do not share cache lines.
    static final int STRIDE = 16;
    // Slots follow from FrameStage, so a new stage gets its own range counter instead of overwriting the next field.
    static final int RANGES = 0;                    // + stage ordinal, one slot per FrameStage
    static final int ENTITY_UPDATES = RANGES + FrameStage.values().length;

    private final JobSystem jobs;
    private final Entities entities;
    private final CollisionWorld world;
    private final CollisionWorld.WorldBounds bounds;
    private final AgentKinds agents;
    private final int grain;
    private final FrameStage.Hook hook;

    private final byte[] visible;                   // cull writes entity i's flag; build reads it
    private final WorkerCommands[] workerCommands;  // by worker index; written only by that worker
    private final long[] workerStats;               // [worker * STRIDE + field]; written only by that worker
    private final Output[] outputs = {new Output(), new Output()};
    private final FrustumIntersection frustum = new FrustumIntersection();
    private final Counter[] stageCounters = new Counter[FrameStage.values().length];
    private final FrameMerge merger;

    // Set by the root job before each stage's submission, which publishes them to the range jobs.
    private int ticks;
    private long frame;

    // Watchdog view: written by the root job, read by the main thread.
    private volatile FrameStage currentStage;            // null before the first stage and after merge
    private volatile long currentFrame = -1;
    private volatile long stageStartNanos;

    // Main thread only.
    private JobHandle<Output> running;
    private long framesSubmitted;
    private long lastSubmittedFrame = -1;
    private String rootJobName = "frame";          // the root job's name in traces and the watchdog
    private Style style = Style.PARKED_WAITS;
    private JobGraph jobGraph;                     // JOB_GRAPH style: built at the first submit

    // JOB_GRAPH style: the output the running graph fills (written by the main thread before the run,
    // which publishes it), and when each stage's first range started (CAS from 0; 0: not started).
    private Output graphOutput;
    private final AtomicLongArray stageFirstRangeNanos = new AtomicLongArray(FrameStage.values().length);

    private final RangeJob simulateBody = this::simulateRange;
    private final RangeJob cullBody = this::cullRange;
    private final RangeJob buildBody = this::buildRange;

    FrameGraph(Setup s) {
        this.jobs = s.jobs();
        this.entities = s.entities();
        this.world = s.world();
        this.bounds = s.world().bounds();
        this.agents = s.agents();
        this.grain = s.grain();
        this.hook = s.hook();
        this.visible = new byte[entities.count];
        int workers = jobs.workerSlots();          // the waiting main thread runs pieces too (its own slot)
        this.workerCommands = new WorkerCommands[workers];
        for (int w = 0; w < workers; w++) {
            workerCommands[w] = new WorkerCommands();
        }
        this.workerStats = new long[workers * STRIDE];
        this.merger = new FrameMerge(s, s.props() == null ? Props.none() : s.props(), workerCommands);
    }

    /**
     * Starts frame {@code in.frame()}'s graph and returns its handle; the output is valid until the
     * graph two frames later starts. Main thread.
     *
     * @throws IllegalStateException if the previous graph has not finished
     */
    JobHandle<Output> submit(Input in) {
        if (running != null && !running.isDone()) {
            throw new IllegalStateException("frame " + lastSubmittedFrame + "'s graph is still running");
        }
        int slot = (int) (in.frame() & 1);
        framesSubmitted++;
        lastSubmittedFrame = in.frame();
        if (style == Style.JOB_GRAPH) {
            running = submitJobGraph(in, outputs[slot]);
        } else {
            running = jobs.submit(Priority.FRAME, rootJobName, () -> runFrame(in, outputs[slot]));
        }
        return running;
    }

    /**
     * Chooses how the stages wait for each other (default {@link Style#PARKED_WAITS}). Main thread, before
     * the first {@link #submit}.
     */
    void style(Style s) {
        if (framesSubmitted > 0) {
            throw new IllegalStateException("choose the frame graph's style before its first frame");
        }
        style = Objects.requireNonNull(s, "style");
    }

    /**
     * JOB_GRAPH style: what the root job does before its first stage happens here, on the main thread (no
     * graph runs now: submit refuses a second), then the graph runs, and a FRAME job after it returns the
     * output (the handle the loop joins).
     */
    private JobHandle<Output> submitJobGraph(Input in, Output out) {
        if (jobGraph == null) {
            jobGraph = buildJobGraph();
        }
        beginFrame(in, out);
        frustum.set(in.viewProjection());
        for (WorkerCommands wc : workerCommands) {
            wc.clear();
        }
        for (int i = 0; i < stageFirstRangeNanos.length(); i++) {
            stageFirstRangeNanos.set(i, 0);
        }
        graphOutput = out;
        out.simulateStartNanos = System.nanoTime();
        Counter graphDone = new Counter(rootJobName + " graph");
        jobGraph.run(jobs, graphDone);
        return jobs.after(graphDone).submit(Priority.FRAME, rootJobName, () -> {
            currentStage = null;
            return out;
        });
    }

    /** simulate -> cull -> build -> merge, over the same bodies as the root job's stages. */
    private JobGraph buildJobGraph() {
        int n = entities.count;
        JobGraph.Builder b = JobGraph.builder(rootJobName + " graph");
        JobGraph.Node simulate = b.parallelFor("simulate", Priority.FRAME, 0, n, grain, timed(FrameStage.SIMULATE, simulateBody));
        JobGraph.Node cull = b.parallelFor("cull", Priority.FRAME, 0, n, grain, timed(FrameStage.CULL, cullBody));
        JobGraph.Node build = b.parallelFor("build", Priority.FRAME, 0, n, grain, timed(FrameStage.BUILD, buildBody));
        JobGraph.Node merge = b.job("merge", Priority.FRAME, this::mergeStage);
        simulate.precedes(cull).precedes(build).precedes(merge);
        return b.build();
    }

    /**
     * A stage's body that notes when the stage's first range started: the stage time is first range to
     * the next stage's first range (as the root job's is submission to counter), and the watchdog sees
     * the stage. One volatile read per range once the stage has started.
     */
    private RangeJob timed(FrameStage stage, RangeJob body) {
        int i = stage.ordinal();
        return (start, end, worker) -> {
            if (stageFirstRangeNanos.get(i) == 0) {
                long now = System.nanoTime();
                if (stageFirstRangeNanos.compareAndSet(i, 0, now)) {
                    beginStage(stage, null);
                }
            }
            body.run(start, end, worker);
        };
    }

    /**
     * JOB_GRAPH style's merge node: the earlier stages' times (a stage ends when the next one's first range
     * starts; simulate begins at the submission, as with the root job), then the merge.
     */
    private void mergeStage() {
        Output out = graphOutput;
        long t = beginStage(FrameStage.MERGE, null);
        long previous = out.simulateStartNanos;
        for (FrameStage s : new FrameStage[] {FrameStage.SIMULATE, FrameStage.CULL, FrameStage.BUILD}) {
            int next = s.ordinal() + 1;
            long end = next == FrameStage.MERGE.ordinal() ? t : stageFirstRangeNanos.get(next);
            out.stageNanos[s.ordinal()] = end == 0 ? 0 : end - previous;   // as the root job: previous end to this end
            previous = end == 0 ? previous : end;
        }
        merger.merge(out, frustum);
        out.stageNanos[FrameStage.MERGE.ordinal()] = System.nanoTime() - t;
    }

    /** What both styles do first: the frame's inputs into the graph's fields and the output. */
    private void beginFrame(Input in, Output out) {
        currentFrame = in.frame();
        frame = in.frame();
        ticks = in.ticks();
        out.frame = in.frame();
        out.ticks = in.ticks();
        out.eye.set(in.eye());
        out.target.set(in.target());
    }

    /** The root job. */
    private Output runFrame(Input in, Output out) {
        beginFrame(in, out);
        int n = entities.count;

        out.simulateStartNanos = System.nanoTime();
        runParallel(FrameStage.SIMULATE, n, simulateBody, out);
        frustum.set(in.viewProjection());
        runParallel(FrameStage.CULL, n, cullBody, out);
        for (WorkerCommands wc : workerCommands) {
            wc.clear();
        }
        runParallel(FrameStage.BUILD, n, buildBody, out);

        Counter merged = new Counter("merge");
        long t = beginStage(FrameStage.MERGE, merged);
        jobs.run(Priority.FRAME, "merge", () -> merger.merge(out, frustum), merged);
        merged.await();
        out.stageNanos[FrameStage.MERGE.ordinal()] = System.nanoTime() - t;
        currentStage = null;
        return out;
    }

    private void runParallel(FrameStage stage, int n, RangeJob body, Output out) {
        Counter c = new Counter(stage.label());
        long t = beginStage(stage, c);
        jobs.parallelFor(Priority.FRAME, 0, n, grain, body, c);
        c.await();                                   // parks this fiber; helps with our own ranges first
        out.stageNanos[stage.ordinal()] = System.nanoTime() - t;
    }

    /** Publishes the stage for the watchdog: plain writes first, then the volatile currentStage. */
    private long beginStage(FrameStage s, Counter c) {
        long now = System.nanoTime();
        stageCounters[s.ordinal()] = c;
        stageStartNanos = now;
        currentStage = s;
        return now;
    }

    private void simulateRange(int start, int end, int worker) {
        if (hook != null) {
            hook.onRange(FrameStage.SIMULATE, frame, start, end);
        }
        final Entities e = entities;
        final int k = ticks;
        for (int i = start; i < end; i++) {
            for (int t = 0; t < k; t++) {
                Simulation.tick(e, world, bounds, i, TICK_SECONDS);
            }
        }
        int o = worker * STRIDE;
        workerStats[o + RANGES + FrameStage.SIMULATE.ordinal()]++;
        workerStats[o + ENTITY_UPDATES] += end - start;
    }

    private void cullRange(int start, int end, int worker) {
        if (hook != null) {
            hook.onRange(FrameStage.CULL, frame, start, end);
        }
        final Entities e = entities;
        final FrustumIntersection f = frustum;
        for (int i = start; i < end; i++) {
            float r = e.half[i] * e.scale[i] * 1.7320508f;   // bounds of the mesh under any rotation
            boolean in = f.testAab(e.x[i] - r, e.y[i] - r, e.z[i] - r, e.x[i] + r, e.y[i] + r, e.z[i] + r);
            visible[i] = in ? (byte) 1 : (byte) 0;
        }
        workerStats[worker * STRIDE + RANGES + FrameStage.CULL.ordinal()]++;
    }

    private void buildRange(int start, int end, int worker) {
        if (hook != null) {
            hook.onRange(FrameStage.BUILD, frame, start, end);
        }
        final Entities e = entities;
        final AgentKinds a = agents;
        WorkerCommands wc = workerCommands[worker];
        CommandBuffer b = wc.buffer;
        int offset = b.count;
        for (int i = start; i < end; i++) {
            if (visible[i] == 0) {
                continue;
            }
            int kind = e.mesh[i];
            int c = b.add(a.meshIds()[kind], a.textureIds()[e.texture[i]], i);
            float s = e.half[i] * e.scale[i] * a.meshScales()[kind];
            float yaw = e.yaw[i];
            b.setModel(c, e.x[i], e.y[i], e.z[i], FloatTrig.sin(yaw), FloatTrig.cos(yaw), s, s, s);
        }
        wc.addChunk(start, offset, b.count - offset);
        workerStats[worker * STRIDE + RANGES + FrameStage.BUILD.ordinal()]++;
    }

    /**
     * Names the root job (default "frame"), so a trace tells this graph's frames from another graph's,
     * e.g. {@link WarmUp}'s. Main thread, before the first {@link #submit}.
     */
    void rootJobName(String name) {
        rootJobName = Objects.requireNonNull(name, "name");
    }

    /** For the watchdog: which frame and stage the graph is in, and how much of that stage is left. */
    String describeStall(long waitedNanos) {
        FrameStage s = currentStage;
        long f = currentFrame;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "frame %d's job graph has not finished after %d ms", lastSubmittedFrame,
                waitedNanos / 1_000_000));
        if (s == null || f != lastSubmittedFrame) {
            sb.append("; its root job has not started a stage yet (all ").append(jobs.workerCount())
                    .append(" workers busy or blocked?)");
        } else {
            Counter c = stageCounters[s.ordinal()];
            sb.append(String.format(Locale.ROOT, "; stuck in stage '%s' for %d ms", s.label(),
                    (System.nanoTime() - stageStartNanos) / 1_000_000));
            if (c != null) {
                sb.append(", counter '").append(c.name()).append("' = ").append(c.value())
                        .append(s == FrameStage.MERGE ? " (the merge job has not finished)" : " (ranges not finished)");
            }
        }
        return sb.toString();
    }

    /** Leaves of parallelFor's halving split of {@code [0, n)} at this grain: the ranges one stage runs. */
    static long rangesPerStage(int n, int grain) {
        return n == 0 ? 0 : leaves(n, grain);
    }

    private static long leaves(int len, int grain) {
        if (len <= grain) {
            return 1;
        }
        int lower = len >>> 1;
        return leaves(lower, grain) + leaves(len - lower, grain);
    }

    /** Range jobs the three parallel stages have run, all workers together. Exact once the graph is idle. */
    long rangesRun() {
        long sum = 0;
        for (int w = 0; w < workerCommands.length; w++) {
            for (int s = 0; s < FrameStage.values().length; s++) {   // MERGE's slot stays 0
                sum += workerStats[w * STRIDE + RANGES + s];
            }
        }
        return sum;
    }

    /** Entity simulations run (one per entity per frame, however many ticks). */
    long entityUpdates() {
        return sumStat(ENTITY_UPDATES);
    }

    /** Merge jobs run, one per frame. Exact once the graph is idle. */
    long mergesRun() {
        return merger.mergesRun();
    }

    long framesSubmitted() {
        return framesSubmitted;
    }

    private long sumStat(int field) {
        long sum = 0;
        for (int w = 0; w < workerCommands.length; w++) {
            sum += workerStats[w * STRIDE + field];
        }
        return sum;
    }
}
