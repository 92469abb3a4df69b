/**
 * The demo's entry point and wiring: {@link dev.weft.demo.DemoMain} runs the command line
 * ({@code dev.weft.demo.game.DemoCommand}) with the real level loader, {@code PipelineLevelLoading} from
 * {@code dev.weft.demo.loading} over an {@code AssetManager}, built in
 * {@link dev.weft.demo.DemoMain#pipelineLoading}. This is the only package that knows both the game and
 * a loader implementation; nothing else belongs here (no game logic, no rendering), and no other demo
 * package imports it.
 */
package dev.weft.demo;
