/**
 * Level content parsers: bytes in, data out. {@link dev.weft.assets.LevelFile} reads a level's
 * asset list and dependency edges; {@link dev.weft.assets.PngDecoder} makes
 * {@link dev.weft.assets.TextureData} (native memory, close it); {@link dev.weft.assets.ObjParser}
 * makes {@link dev.weft.assets.MeshData}; {@link dev.weft.assets.CollisionMesh#build} makes an
 * AABB tree from a mesh. None of them does I/O or keeps shared state, so jobs on any worker may run them;
 * reading the bytes (an I/O thread) and scheduling (the asset manager) live elsewhere. Every format error is
 * an {@link dev.weft.assets.AssetFormatException} whose message starts {@code file:line:}.
 */
package dev.weft.assets;
