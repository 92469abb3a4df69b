/**
 * The game's {@code LevelLoading} on the asset library: {@link dev.weft.demo.loading.PipelineLevelLoading}
 * adapts a {@code dev.weft.assets.LevelLoad} to the game's {@code Level}. Imports go one way:
 * this package uses {@code dev.weft.assets} and {@code dev.weft.demo.game}; the library never imports
 * the game, and {@code dev.weft.demo.game} should not import this package (the loading is injected).
 */
package dev.weft.demo.loading;
