package dev.weft.demo.game;

import dev.weft.JobSystem;
import dev.weft.JobSystemStats;
import dev.weft.JobTrace;
import dev.weft.demo.render.FrameTimeGraph;
import dev.weft.demo.render.Renderer;
import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.Displays;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * The demo game: opens a display, loads a level while drawing a loading screen, then runs the frame
 * loop on the calling thread (the main thread, which owns the window and GL context) and returns a
 * {@link RunSummary}.
 *
 * <h2>Implementation overview</h2>
 *
 * <p><b>Phases.</b> (1) Display and renderer, with the display fallback's one-line notices (here); the
 * game's own agent meshes and textures are uploaded directly ({@link GpuTable}). (2) Loading
 * ({@link LoadingPhase}) with the {@link LevelLoading} that {@link GameConfig#loading()} makes: the
 * caller chooses the loader, the game only knows the interface; then, still behind the loading screen,
 * the {@link WarmUp} frames on a copy of the entities ({@code --warm-up}). (3) Gameplay frames ({@link GameLoop}),
 * below. (4) Shutdown: the loader is closed, then the job system (so its statistics are exact), then the
 * renderer and the display; the {@link RunSummary} is printed and written last.
 *
 * <p><b>One gameplay frame.</b> The main thread decides the frame's input — how many 60 Hz ticks
 * ({@link GameConfig.Clock}) and the camera on its scripted path ({@link CameraPath}, a function of
 * simulated time) — and submits the {@link FrameGraph} (simulate → cull → build → merge, counters
 * between the stages). It waits for the graph with a timeout (the watchdog: a graph that takes longer
 * than {@code --watchdog-ms}, 5 s by default, ends the run with {@link #EXIT_WATCHDOG} and a line
 * naming the stuck stage), then issues the draws through the {@link Renderer}, draws the frame-time
 * graph, runs main-thread jobs within {@code mainThreadBudgetNanos}, and presents.
 *
 * <p><b>Pipelining</b> ({@code --pipeline}). The graph of frame N+1 is submitted as soon as frame N's
 * graph is done, before N is drawn, so simulation of N+1 overlaps N's draw calls and present. The
 * graph's output slots are double-buffered; the entity arrays are not, and need not be, because only
 * one graph runs at a time and drawing reads only the output slot. Cost: one frame more of latency.
 *
 * <p><b>Frame time</b> is the wall time from one frame's end to the next one's, recorded in an
 * HdrHistogram (gameplay frames only) and the on-screen {@link FrameTimeGraph} (all frames).
 */
public final class Game {
    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_USAGE = 2;
    public static final int EXIT_WATCHDOG = 3;

    /** Most ticks one real-time frame may simulate; beyond that the game slows down instead of spiralling. */
    public static final int MAX_TICKS_PER_FRAME = 5;

    private static final Duration STOP_GRACE = Duration.ofSeconds(2);
    /** Events kept per worker by --trace: enough for the load and the first few hundred frames. */
    private static final int TRACE_EVENTS_PER_WORKER = 400_000;

    private final GameConfig cfg;
    private final PrintStream out;

    private Game(GameConfig cfg) {
        this.cfg = cfg;
        this.out = cfg.out();
    }

    /**
     * Runs the game on the calling thread, which becomes the main thread (window, GL, main-thread jobs).
     *
     * @throws GameException with the exit code to use: {@link #EXIT_FAILED} (load failed, a job threw)
     *                       or {@link #EXIT_WATCHDOG} (a frame's job graph hung)
     */
    public static RunSummary run(GameConfig cfg) throws GameException {
        return new Game(cfg).run();
    }

    private RunSummary run() throws GameException {
        List<DisplayKind> chain = cfg.displayChain();
        DisplayConfig dc = new DisplayConfig(cfg.width(), cfg.height(), "Weft demo", chain.get(0), true);
        try (Display display = Displays.openFirst(dc, chain, out::println);
             Renderer renderer = Renderer.create(display)) {
            out.println("weft-demo: display " + kindName(display.kind()) + ": " + display.description()
                    + "; renderer: " + renderer.description());
            if (cfg.screenshot() != null && !display.hasGl()) {
                out.println("weft-demo: --screenshot " + cfg.screenshot() + " skipped: no GL display could be opened"
                        + (cfg.display() == GameConfig.DisplayChoice.NONE ? " (--display none)" : " (see above)"));
            }
            // The engine's watchdog is on in the demo: it names jobs that wait or hold a worker for over 10 s.
            JobSystem jobs = JobSystem.builder().name("weft").workers(cfg.workers())
                    .watchdog(Duration.ofSeconds(10), r -> out.println(r)).build();
            JobTrace trace = cfg.trace() != null ? jobs.startTrace(TRACE_EVENTS_PER_WORKER) : null;
            GameLoop loop = new GameLoop(cfg, display, renderer, jobs);
            boolean wedged = false;
            Played played;
            try {
                played = loop.play();
            } catch (Watchdog w) {
                wedged = true;
                out.println("weft-demo: watchdog: " + w.getMessage() + "; giving up with exit status " + EXIT_WATCHDOG);
                // close() would wait for the hung job forever. shutdownNow() cancels what is queued and asks
                // running jobs to stop; one that never looks (a real hang) keeps its worker, and we leave it.
                jobs.shutdownNow();
                if (!awaitStop(jobs)) {
                    out.println("weft-demo: watchdog: the stuck job did not stop within " + STOP_GRACE.toMillis()
                            + " ms; leaving its worker behind");
                }
                throw new GameException(EXIT_WATCHDOG, "watchdog: " + w.getMessage());
            } catch (RuntimeException e) {
                throw new GameException(EXIT_FAILED, "failed: " + e, e);
            } finally {
                loop.closeLoading();                // before the job system: it cancels and frees its loads
                if (!wedged) {
                    jobs.close();
                }
            }
            JobSystemStats stats = jobs.stats();
            RunSummary summary = played.summarize(stats);
            summary.print(out);
            // The summary first: the trace is the larger write and the likelier to fail, and a failed trace
            // must not cost the run's printed and written summary too.
            if (cfg.summary() != null) {
                try {
                    summary.writeJson(cfg.summary());
                    out.println("weft-demo: summary written to " + cfg.summary());
                } catch (IOException e) {
                    throw new GameException(EXIT_FAILED, "cannot write --summary " + cfg.summary() + ": " + e, e);
                }
            }
            writeTrace(trace);
            return summary;
        }
    }

    private void writeTrace(JobTrace trace) throws GameException {
        if (trace == null) {
            return;
        }
        try {
            // Missing directories are created, as for --summary and --screenshot (GameConfig checked up
            // front that they can be); JobTrace.writeChromeTrace, like Files.newBufferedWriter, does not.
            Path parent = cfg.trace().toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            trace.stop().writeChromeTrace(cfg.trace());
            out.println("weft-demo: job trace written to " + cfg.trace() + " (open it in ui.perfetto.dev or "
                    + "chrome://tracing)" + (trace.droppedEvents() > 0 ? "; the buffer filled up, "
                    + trace.droppedEvents() + " older events were overwritten" : ""));
        } catch (IOException e) {
            throw new GameException(EXIT_FAILED, "cannot write --trace " + cfg.trace() + ": " + e, e);
        }
    }

    private static boolean awaitStop(JobSystem jobs) {
        try {
            return jobs.awaitTermination(STOP_GRACE);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    static String kindName(DisplayKind kind) {
        return kind.name().toLowerCase(Locale.ROOT);
    }
}
