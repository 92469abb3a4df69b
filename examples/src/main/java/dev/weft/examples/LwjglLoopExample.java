package dev.weft.examples;

import static dev.weft.examples.Entities.cullAndBuild;
import static dev.weft.examples.Entities.simulate;
import static org.lwjgl.glfw.GLFW.*;

import dev.weft.Counter;
import dev.weft.JobHandle;
import dev.weft.JobSystem;
import dev.weft.Priority;
import java.time.Duration;
import java.util.concurrent.TimeoutException;

/**
 * Weft in an LWJGL game loop, the snippet of {@code demo-game/README.md} ("Embed Weft in your LWJGL
 * loop"), runnable: the main thread owns the window and the GL context; each frame is a FRAME job whose
 * stages wait on counters (parking its fiber, not a worker); the main thread draws what it returns.
 *
 * <p>{@code java --add-opens java.base/java.lang=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -cp ...
 * dev.weft.examples.LwjglLoopExample [--frames N] [--entities N] [--window]}: headless (GLFW's null
 * platform, EGL) unless {@code --window}. It prints the frames drawn and the last frame's draws.
 */
public final class LwjglLoopExample {
    static final float TICK_SECONDS = 1f / 60;
    static final long WORLD_SEED = 42;
    private static final int WIDTH_PIXELS = 640;
    private static final int HEIGHT_PIXELS = 360;

    private LwjglLoopExample() {}

    /**
     * Runs the loop; see the class comment for the options.
     *
     * @param args {@code --frames N} (120), {@code --entities N} (5000), {@code --window}
     * @throws TimeoutException if a frame's jobs take over 5 s
     */
    public static void main(String[] args) throws TimeoutException {
        int frames = 120;
        int entityCount = 5000;
        boolean visible = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--frames" -> frames = positive(args, ++i);
                case "--entities" -> entityCount = positive(args, ++i);
                case "--window" -> visible = true;
                default -> throw new IllegalArgumentException("unknown option '" + args[i]
                        + "'; options: --frames N, --entities N, --window");
            }
        }
        Entities entities = Entities.create(entityCount, WORLD_SEED);
        try (ExampleWindow window = ExampleWindow.open(visible, WIDTH_PIXELS, HEIGHT_PIXELS)) {
            ScissorRenderer renderer = new ScissorRenderer(window.handle, WIDTH_PIXELS, HEIGHT_PIXELS, frames);
            run(window.handle, entities, renderer);
            System.out.println("display: " + window.description);
            System.out.println("frames: " + renderer.framesDrawn());
            System.out.println("entities: " + entities.size());
            System.out.println("last frame draws: " + renderer.lastDrawCount());
            System.out.println("last frame draw hash: " + Long.toHexString(renderer.lastDrawHash()));
        }
    }

    /** The frame loop, until the window should close; the README shows this method's body. */
    static void run(long window, Entities entities, ScissorRenderer renderer) throws TimeoutException {
        // README snippet begin
        try (JobSystem jobs = JobSystem.builder().workers(Runtime.getRuntime().availableProcessors()).build()) {
            jobs.bindMainThread();                                   // this thread: window, GL, main-thread jobs
            CommandList[] perWorker = CommandList.forEach(jobs.workerSlots());   // your per-worker command buffers
            DrawList draws = new DrawList(1024);                     // refilled every frame: no garbage per draw
            while (!glfwWindowShouldClose(window)) {
                glfwPollEvents();
                JobHandle<DrawList> frame = jobs.submit(Priority.FRAME, "frame", () -> {
                    Counter simulated = new Counter("simulate");
                    jobs.parallelFor(Priority.FRAME, 0, entities.size(), 256,
                            (start, end, worker) -> simulate(entities, start, end, TICK_SECONDS), simulated);
                    simulated.await();                               // parks this fiber, not the worker
                    Counter built = new Counter("build");
                    jobs.parallelFor(Priority.FRAME, 0, entities.size(), 256,
                            (start, end, worker) -> perWorker[worker].add(start, cullAndBuild(entities, start, end)),
                            built);                                  // one writer per list: no locks
                    built.await();
                    draws.clear();                                   // same order whoever ran which range:
                    CommandList.mergeByRangeStart(perWorker, (models, offset) ->
                            draws.add(models, offset));              // a model matrix = 16 floats at offset
                    return draws;
                });
                DrawList toDraw = frame.join(Duration.ofSeconds(5));  // TimeoutException: report the stage
                renderer.beginFrame();
                renderer.drawScene(toDraw);                          // GL calls: main thread only
                jobs.runMainThreadJobs(2_000_000);                   // e.g. texture uploads queued by loader jobs
                glfwSwapBuffers(window);
            }
        }
        // README snippet end
    }

    private static int positive(String[] args, int i) {
        if (i >= args.length) {
            throw new IllegalArgumentException(args[i - 1] + " needs a number");
        }
        int n;
        try {
            n = Integer.parseInt(args[i]);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(args[i - 1] + " needs a whole number, got '" + args[i] + "'", e);
        }
        if (n < 1) {
            throw new IllegalArgumentException(args[i - 1] + " must be at least 1, got " + n);
        }
        return n;
    }
}
