/**
 * The seeded generator of the demo levels (PNG textures, OBJ meshes, level files), run by this module's
 * build in {@code process-classes} to write {@code weft/levels/} into the jar. Not API: nothing outside
 * the build calls it, the library ({@code dev.weft.assets}) must not use it, and it is not to be
 * exported when the module gets a module-info.
 */
package dev.weft.assets.gen;
