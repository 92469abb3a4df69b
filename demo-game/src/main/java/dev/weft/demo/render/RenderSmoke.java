package dev.weft.demo.render;

import dev.weft.assets.ProceduralMeshes;

import dev.weft.demo.window.Display;
import dev.weft.demo.window.DisplayConfig;
import dev.weft.demo.window.DisplayKind;
import dev.weft.demo.window.Displays;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.joml.Matrix4f;
import org.joml.Vector3f;

/**
 * Stand-alone check of the display + renderer: opens a display, uploads a procedural mesh and textures,
 * draws a loading screen then a lit scene with the frame-time graph, and optionally writes the last frame
 * as a PNG.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -cp ... \
 *     dev.weft.demo.render.RenderSmoke [--display auto|window|offscreen|none] [--frames N]
 *     [--loading-frames K] [--size WxH] [--no-vsync] [--screenshot out.png] [--require-gl]
 * </pre>
 *
 * <p>Everything drawn depends on the frame index only, never on elapsed time, so the screenshot of a run
 * is the same however fast the machine is (except the frame-time graph's bar heights). Exit status: 0 ok,
 * 1 failure, 2 bad arguments, 3 {@code --require-gl} given but no GL display could be opened.
 */
public final class RenderSmoke {
    private RenderSmoke() {}

    /** Parsed command line. {@code loadingFrames < 0} means a third of {@code frames}. */
    public record Options(DisplayKind display, int frames, int loadingFrames, int width, int height,
                          boolean vsync, Optional<Path> screenshot, boolean requireGl) {
        public Options {
            if (frames <= 0) {
                throw new IllegalArgumentException("--frames must be positive: " + frames);
            }
            if (width <= 0 || height <= 0) {
                throw new IllegalArgumentException("--size must be positive: " + width + "x" + height);
            }
        }

        public static Options defaults() {
            return new Options(DisplayKind.WINDOW, 120, -1, 640, 360, false, Optional.empty(), false);
        }

        int loadingFramesResolved() {
            return loadingFrames < 0 ? frames / 3 : Math.min(loadingFrames, frames);
        }

        DisplayConfig displayConfig() {
            return new DisplayConfig(width, height, "Weft render smoke", display, vsync);
        }

        public Options withDisplay(DisplayKind kind) {
            return new Options(kind, frames, loadingFrames, width, height, vsync, screenshot, requireGl);
        }

        public Options withFrames(int n, int loading) {
            return new Options(display, n, loading, width, height, vsync, screenshot, requireGl);
        }

        public Options withScreenshot(Path path) {
            return new Options(display, frames, loadingFrames, width, height, vsync, Optional.of(path), requireGl);
        }

        public static Options parse(String... args) {
            Options o = defaults();
            DisplayKind display = o.display();
            int frames = o.frames();
            int loading = o.loadingFrames();
            int width = o.width();
            int height = o.height();
            boolean vsync = o.vsync();
            Optional<Path> screenshot = o.screenshot();
            boolean requireGl = o.requireGl();
            for (int i = 0; i < args.length; i++) {
                String a = args[i];
                switch (a) {
                    case "--display" -> display = DisplayKind.parse(value(args, ++i, a));
                    case "--frames" -> frames = intValue(args, ++i, a);
                    case "--loading-frames" -> loading = intValue(args, ++i, a);
                    case "--size" -> {
                        String[] wh = value(args, ++i, a).toLowerCase(Locale.ROOT).split("x", 2);
                        if (wh.length != 2) {
                            throw new IllegalArgumentException("--size wants WxH, e.g. 640x360");
                        }
                        width = Integer.parseInt(wh[0].trim());
                        height = Integer.parseInt(wh[1].trim());
                    }
                    case "--vsync" -> vsync = true;
                    case "--no-vsync" -> vsync = false;
                    case "--screenshot" -> screenshot = Optional.of(Path.of(value(args, ++i, a)));
                    case "--require-gl" -> requireGl = true;
                    default -> throw new IllegalArgumentException("unknown argument " + a);
                }
            }
            return new Options(display, frames, loading, width, height, vsync, screenshot, requireGl);
        }

        private static String value(String[] args, int i, String flag) {
            if (i >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            return args[i];
        }

        private static int intValue(String[] args, int i, String flag) {
            try {
                return Integer.parseInt(value(args, i, flag).trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " needs a whole number: " + args[i]);
            }
        }
    }

    /** What a run drew. {@code screenshot} is empty without GL or when none was asked for. */
    public record Result(DisplayKind displayKind, int framesDrawn, FrameTimeGraph graph, long drawCalls,
                         Optional<RgbaImage> screenshot) {}

    public static void main(String[] args) {
        System.exit(run(args, System.out));
    }

    /** The command line behind {@link #main}; returns the exit status instead of exiting. */
    public static int run(String[] args, PrintStream out) {
        Options options;
        try {
            options = Options.parse(args);
        } catch (IllegalArgumentException e) {
            out.println("render-smoke: " + e.getMessage());
            out.println("usage: RenderSmoke [--display auto|window|offscreen|none] [--frames N] [--loading-frames K]"
                    + " [--size WxH] [--vsync|--no-vsync] [--screenshot out.png] [--require-gl]");
            return 2;
        }
        try (Display display = Displays.open(options.displayConfig(), out::println)) {
            out.println("render-smoke: display " + display.kind().name().toLowerCase(Locale.ROOT) + ": "
                    + display.description());
            if (options.requireGl() && !display.hasGl()) {
                out.println("render-smoke: --require-gl given but no GL display could be opened");
                return 3;
            }
            Result result = render(display, options, out);
            if (options.screenshot().isPresent()) {
                Path path = options.screenshot().get();
                if (result.screenshot().isPresent()) {
                    RgbaImage shot = result.screenshot().get();
                    shot.writePng(path);
                    out.println("render-smoke: screenshot " + path + " " + shot.width() + "x" + shot.height()
                            + ", " + shot.distinctColours() + " colours");
                } else {
                    out.println("render-smoke: screenshot skipped: display "
                            + display.kind().name().toLowerCase(Locale.ROOT) + " has no GL");
                }
            }
            return 0;
        } catch (IOException | RuntimeException e) {
            out.println("render-smoke: failed: " + e);
            e.printStackTrace(out);
            return 1;
        }
    }

    /**
     * Draws {@code options.frames()} frames on an open display: the first {@code loadingFrames} show the
     * loading screen filling up, the rest the lit scene; every frame shows the frame-time graph. Reads the
     * last frame back when a screenshot was asked for (the caller writes it). Runs on the display's thread.
     */
    public static Result render(Display display, Options options, PrintStream out) {
        FrameTimeGraph graph = new FrameTimeGraph();
        int loadingFrames = options.loadingFramesResolved();
        Optional<RgbaImage> shot = Optional.empty();
        int drawn = 0;
        try (Renderer renderer = Renderer.create(display)) {
            out.println("render-smoke: renderer: " + renderer.description());
            Mesh cube = renderer.uploadMesh(ProceduralMeshes.cube(1f));
            Mesh ground = renderer.uploadMesh(ProceduralMeshes.plane(24f, 12f));
            Texture warm = renderer.uploadTexture(ProceduralTextures.checker(256, 8, 0xE8A040, 0xF4E6C8));
            Texture cool = renderer.uploadTexture(ProceduralTextures.checker(256, 4, 0x3C78C8, 0xDCE8F4));
            Texture floor = renderer.uploadTexture(ProceduralTextures.checker(128, 2, 0x707478, 0x4A4E54));
            renderer.setClearColour(0.30f, 0.42f, 0.58f);

            Camera camera = new Camera().perspective(55f, 0.1f, 100f);
            DirectionalLight light = DirectionalLight.defaults();
            List<DrawCommand> commands = new ArrayList<>();
            Matrix4f model = new Matrix4f();
            long last = System.nanoTime();
            for (int frame = 0; frame < options.frames() && !display.shouldClose(); frame++) {
                display.pollEvents();
                renderer.beginFrame();
                if (frame < loadingFrames) {
                    renderer.drawLoadingScreen((frame + 1f) / loadingFrames);
                } else {
                    float t = frame * 0.04f; // frame-indexed animation: same picture on any machine
                    camera.lookAt(new Vector3f(7f * (float) Math.sin(t * 0.3f), 4.5f, 7f * (float) Math.cos(t * 0.3f)),
                            new Vector3f(0f, 0.6f, 0f));
                    commands.clear();
                    commands.add(new DrawCommand(ground, floor, model.identity()));
                    for (int gx = -1; gx <= 1; gx++) {
                        for (int gz = -1; gz <= 1; gz++) {
                            float spin = t + 0.7f * (gx * 3 + gz);
                            model.translation(gx * 2.2f, 0.8f, gz * 2.2f).rotateY(spin).rotateX(spin * 0.6f);
                            commands.add(new DrawCommand(cube, ((gx + gz) & 1) == 0 ? warm : cool, model));
                        }
                    }
                    renderer.drawScene(camera, light, commands);
                }
                renderer.drawFrameGraph(graph);
                if (frame == options.frames() - 1 && options.screenshot().isPresent()) {
                    shot = renderer.readFrame();
                }
                display.swapBuffers();
                long now = System.nanoTime();
                graph.recordNanos(now - last);
                last = now;
                drawn++;
            }
            out.printf(Locale.ROOT, "render-smoke: %d frames (%d loading), mean %.2f ms, max %.2f ms,"
                            + " %d over the %.2f ms budget, %d draw calls%n",
                    drawn, Math.min(loadingFrames, drawn), graph.meanMillis(), graph.maxMillis(),
                    graph.overBudgetCount(), graph.budgetMillis(), renderer.drawCalls());
            return new Result(display.kind(), drawn, graph, renderer.drawCalls(), shot);
        }
    }
}
