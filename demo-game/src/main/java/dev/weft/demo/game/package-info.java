/**
 * The demo game: a main-thread game loop whose every frame is a Weft job graph, and the level-loading
 * contract between the game and the asset manager.
 *
 * <ul>
 *   <li>{@link dev.weft.demo.game.Game}: the loop (design notes at the top of the class);
 *       {@link dev.weft.demo.game.DemoCommand}: its command line, run by {@code dev.weft.demo.DemoMain}.</li>
 *   <li>{@link dev.weft.demo.game.LevelLoading}: what a level loader provides (progress, failures,
 *       timings, the {@link dev.weft.demo.game.Level}); {@code dev.weft.demo.loading.PipelineLevelLoading}
 *       implements it over the {@code dev.weft.assets} library, and
 *       {@link dev.weft.demo.game.ProceduralLevelLoading} with generated content (tests use it).</li>
 *   <li>{@link dev.weft.demo.game.CollisionWorld}: what entities collide with;
 *       {@link dev.weft.demo.game.BoxCollisionWorld} (ground plane and boxes) and
 *       {@link dev.weft.demo.game.MeshCollisionWorld} (placed {@code CollisionMesh} BVHs).</li>
 *   <li>{@link dev.weft.demo.game.RunSummary}: the exit summary and its {@code --summary} JSON.</li>
 * </ul>
 *
 * <p>Threading in one line: the main thread owns the display, the renderer and every GL call; workers
 * run the frame stages and the loader's jobs; they meet only through Weft counters, job handles and
 * main-thread jobs. The frame graph's own ownership rules are in {@code FrameGraph}'s class comment.
 */
package dev.weft.demo.game;
