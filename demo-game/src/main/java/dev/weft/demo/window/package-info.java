/**
 * Where the demo draws: a {@link dev.weft.demo.window.Display} chosen at startup from three backends.
 *
 * <ul>
 *   <li>{@link dev.weft.demo.window.DisplayKind#WINDOW}: a GLFW window on X11 with an OpenGL 3.3 core
 *       context (GLX). Works on a desktop and under {@code xvfb-run -a} with Mesa's llvmpipe.</li>
 *   <li>{@link dev.weft.demo.window.DisplayKind#OFFSCREEN}: GLFW's null platform (no X server at all)
 *       with an EGL context from Mesa, so frames can be rendered and screenshotted on a headless box.</li>
 *   <li>{@link dev.weft.demo.window.DisplayKind#NONE}: no GL at all; the game loop still runs.</li>
 * </ul>
 *
 * <p>{@link dev.weft.demo.window.Displays#open} walks down that list from the preferred kind and prints one
 * line for every backend it had to skip:
 *
 * <pre>{@code
 * try (Display display = Displays.open(DisplayConfig.defaults(), System.out::println)) {
 *     while (!display.shouldClose()) {
 *         display.pollEvents();
 *         // ... draw with a Renderer made for this display ...
 *         display.swapBuffers();
 *     }
 * }
 * }</pre>
 *
 * <p>Threading: a display, its GL context and every GL call belong to the thread that opened it (in the
 * demo, the main thread). Other threads hand GL work to that thread, e.g. through
 * {@code JobSystem.onMainThread}, which the loop drains once per frame. GLFW is process-global, so at most
 * one GLFW-backed display is open at a time. What must not live here: drawing (that is
 * {@code dev.weft.demo.render}) or game code; this package imports no other demo package.
 */
package dev.weft.demo.window;
