/**
 * The demo's OpenGL 3.3 core renderer: lit textured meshes, a loading screen, an on-screen frame-time graph
 * and screenshots.
 *
 * <p>Start at {@link dev.weft.demo.render.Renderer} (the frame protocol and threading contract) and
 * {@link dev.weft.demo.render.RenderSmoke} (a complete runnable loop). Asset code hands data over through
 * two small interfaces, {@link dev.weft.assets.MeshSource} (interleaved pos3/normal3/uv2 floats plus
 * int indices) and {@link dev.weft.assets.TextureSource} (RGBA8 pixels), and gets back GPU handles,
 * {@link dev.weft.demo.render.Mesh} and {@link dev.weft.demo.render.Texture}.
 *
 * <p>All GL work happens on the thread that opened the {@link dev.weft.demo.window.Display}; loader jobs
 * running on Weft workers reach it with {@code JobSystem.onMainThread}. The maintainers' notes on GL
 * state and resource ownership are at the top of {@code GlRenderer}. What must not live here: game
 * logic, job graphs or loaders; of the project's packages it imports only {@code dev.weft.demo.window} and
 * {@code dev.weft.assets}, never {@code dev.weft.demo.game} or {@code dev.weft.demo.loading}.
 */
package dev.weft.demo.render;


