/**
 * The asset pipeline: level files and their textures, meshes and collision BVHs loaded as Weft jobs,
 * with the I/O on a few platform threads, decodes bounded so frames keep their workers, uploads on the
 * main thread, and every failure replaced by a placeholder.
 *
 * <pre>{@code
 * try (JobSystem jobs = JobSystem.create();
 *      AssetManager assets = AssetManager.builder(jobs).renderer(renderer).build()) {
 *     LevelLoad load = new LevelLoader(assets).load("demo");
 *     while (!load.isDone()) {                                   // one iteration per frame
 *         renderer.drawLoadingScreen((float) load.progress().fraction());
 *         load.awaitDone(Duration.ofMillis(16));                // runs the GL uploads meanwhile
 *     }
 *     LoadedLevel level = load.level().orElseThrow();
 *     load.failures().forEach(f -> log.warn(f.message()));       // "demo/textures/x.png: corrupt PNG: ..."
 *     ...
 *     level.close();                                             // frees pixels and GL objects
 * }
 * }</pre>
 *
 * <p>The public surface: {@link dev.weft.demo.assets.pipeline.AssetManager} (requests, dedup, refcounts,
 * progress), {@link dev.weft.demo.assets.pipeline.AssetRef} (one claim),
 * {@link dev.weft.demo.assets.pipeline.LevelLoader} / {@link dev.weft.demo.assets.pipeline.LevelLoad} /
 * {@link dev.weft.demo.assets.pipeline.LoadedLevel} (whole levels), {@link dev.weft.demo.assets.pipeline.IoPool}
 * and {@link dev.weft.demo.assets.pipeline.AssetSource} (bytes), {@link dev.weft.demo.assets.pipeline.FaultPlan}
 * (injected latency and failures), {@link dev.weft.demo.assets.pipeline.PipelineLevelLoading} (the game's
 * {@code LevelLoading} on this loader) and {@link dev.weft.demo.assets.pipeline.LevelLoadBenchmark}.
 *
 * <h2>Design note</h2>
 *
 * <h3>I/O never runs on a worker</h3>
 * A Weft fiber is a virtual thread mounted on a worker; file I/O from a virtual thread blocks its
 * carrier. So {@link dev.weft.demo.assets.pipeline.AssetSource#read} is called only by
 * {@link dev.weft.demo.assets.pipeline.IoPool}'s platform threads ({@code weft-io-N}): a job calls
 * {@code io.read(path)}, which returns a {@code Pending} at once, and parks on the {@code Pending}'s
 * Counter. The I/O thread writes the bytes and decrements the Counter (a full fence), which wakes the
 * fiber onto a worker's ready queue. Injected latency delays the start of a read in the executor's delay
 * queue, so it holds no thread and concurrent latencies overlap. Tests assert that every read ran on an
 * I/O thread and that 8 parked 200 ms reads on one worker take about 200 ms, not 1.6 s.
 *
 * <h3>One job per asset, one graph per level</h3>
 * An asset's job (BACKGROUND, in the asset's own JobGroup) reads, decodes and uploads; a collision job
 * requests its mesh like any client and builds after it (the seed article's "physics after the mesh").
 * A level job reads and parses the level file, asks for all sizes in one I/O round trip (the progress
 * totals), requests every asset in load order, starts one job per entity that joins the entity's assets,
 * and assembles the level. Asset jobs are in per-asset groups rather than the level's, because the
 * manager shares them between levels: unloading a level cancels the level's group and releases its
 * assets, and only assets nobody else holds are cancelled.
 *
 * <h3>Frames keep their workers</h3>
 * Weft cannot preempt a job, and one stb call on a 2048² PNG runs for tens of milliseconds. The decode
 * steps (PNG, OBJ, BVH) therefore go through a {@code DecodeLane}: at most {@code workers − 1} of them
 * run at once (configurable), so a worker is always free for FRAME work. On a machine with no idle core
 * that is not enough, because the OS shares the CPU between our decoding worker, our frame worker and
 * everyone else as equals; so a worker runs decodes at Linux nice 10 ({@code ThreadNice}: setpriority
 * through the FFM API, restored afterwards, and only used if this process may restore it), and the I/O
 * threads (which inflate jar entries) run at nice 10 for good. Measured by {@code FrameBudgetTest} on the
 * shared 2-core machine (other builds: load average 6 to 10), alternating 1 s blocks with and without a
 * load of the demo level: with one decode slot and no nice, loading added about 20 missed 60 Hz frames
 * per 300 (3 → 24); with both decode slots, 16 per 190; with the nice, usually 0 to 2, although an attempt
 * during a surge of outside load could still lose 7 to 17 more frames on the loading side (GC and the
 * I/O threads' inflating compete too).
 *
 * <h3>Ownership of native memory and GL objects</h3>
 * See {@link dev.weft.demo.assets.pipeline.AssetManager}'s design note: every decoded {@code TextureData}
 * is in a live set and closed by whoever removes it (the upload job, the cleanup, or the lane when the
 * waiter was cancelled); GL objects are created and freed only by main-thread jobs, in FIFO order.
 * Tests check that the live set is empty and no fiber is parked after every scenario.
 *
 * <h3>Failures</h3>
 * Nothing fails as a whole except a level whose file is missing or has no header. A missing file, an I/O
 * error, a corrupt or truncated PNG, a malformed OBJ or a failed upload gives a placeholder (a
 * magenta/black checker, a unit cube, the cube's BVH) and a {@link dev.weft.demo.assets.pipeline.LoadFailure}
 * whose message starts {@code file:line:}. A level file with bad references, cycles or malformed lines is
 * repaired one error at a time ({@code LevelFileSalvage}), each repair reported with its line.
 *
 * <h3>Benchmark</h3>
 * {@link dev.weft.demo.assets.pipeline.LevelLoadBenchmark} loads a level cold (fresh JVMs) and warm (median
 * of alternating rounds) on this loader and on the same functions called serially on one thread, and
 * prints serial/Weft ratios from one run; see its class comment for the command line.
 */
package dev.weft.demo.assets.pipeline;
