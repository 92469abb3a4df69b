/**
 * The demo game: a main-thread game loop whose every frame is a Weft job graph, and the level-loading
 * contract the game needs from a loader.
 *
 * <ul>
 *   <li>Entry and wiring: {@link dev.weft.demo.game.Game} (design notes at the top of the class; display,
 *       job system, shutdown, summary), {@link dev.weft.demo.game.DemoCommand} (the command line) and
 *       {@link dev.weft.demo.game.GameConfig}. Package-private parts, one job each: {@code GameLoop}
 *       (the gameplay frames), {@code LoadingPhase} (loading frames and uploads), {@code InputClock}
 *       (ticks and camera per frame), {@code GpuTable} and {@code LevelProps} (GPU ids, prop matrices and
 *       bounds), {@code WindowTitle} (the title-bar HUD), {@code Screenshot}, {@code Played} (what a run
 *       measured, turned into the public {@link dev.weft.demo.game.RunSummary}).</li>
 *   <li>The frame graph: {@code FrameGraph} (simulate, cull, build), {@code FrameMerge} (the
 *       deterministic merge), {@code WorkerCommands}, {@code CommandBuffer}, {@code Entities},
 *       {@code Simulation}.</li>
 *   <li>{@link dev.weft.demo.game.LevelLoading}: what a level loader provides (progress, failures,
 *       timings, the {@link dev.weft.demo.game.Level}) and the {@code Factory} the caller passes in;
 *       {@link dev.weft.demo.game.CollisionWorld} and {@link dev.weft.demo.game.MeshCollisionWorld}: what
 *       entities collide with.</li>
 * </ul>
 *
 * <p>What must not live here: a loader implementation or anything that imports
 * {@code dev.weft.demo.loading} (the loader is injected by {@code dev.weft.demo.DemoMain}, so the import
 * graph stays one way: loading uses game, never the reverse), GL calls outside the
 * {@code dev.weft.demo.render} API, and test doubles (the procedural loader and the box collision world
 * live in the test tree). Threading in one line: the main thread owns the display, the renderer and
 * every GL call; workers run the frame stages and the loader's jobs; they meet only through Weft
 * counters, job handles and main-thread jobs. The frame graph's own ownership rules are in
 * {@code FrameGraph}'s class comment.
 */
package dev.weft.demo.game;
