/**
 * The asset streaming library a game adds beside engine-jobs, and its only API package:
 * {@link dev.weft.assets.AssetManager} (one load job per asset, deduplicated, reference counted, with
 * progress, cancel and unload), {@link dev.weft.assets.LevelLoader} (a level file's job graph),
 * {@link dev.weft.assets.IoPool} (the I/O lane, reads through {@code Jobs.blocking}), the
 * {@link dev.weft.assets.CodecRegistry} of {@link dev.weft.assets.AssetCodec}s (PNG via LWJGL STB, OBJ)
 * and {@link dev.weft.assets.DerivedCodec}s (collision BVHs built from meshes), the parsers and the
 * {@link dev.weft.assets.GpuUploader} the game implements. What differs per format or kind belongs in a
 * codec, never in the manager or its load steps; nothing here depends on a graphics API (uploads go
 * through the game's uploader) or on the generator {@code dev.weft.assets.gen}. Parsers do no I/O and keep
 * no shared state; every format error is an {@link dev.weft.assets.AssetFormatException} whose message
 * starts {@code file:line:}.
 */
package dev.weft.assets;
