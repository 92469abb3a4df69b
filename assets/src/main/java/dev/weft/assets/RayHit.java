package dev.weft.assets;

/**
 * The closest triangle a ray hit.
 *
 * @param t        ray parameter of the hit: the point is origin + t·direction, so with a unit direction
 *                 {@code t} is the distance
 * @param triangle index of the triangle in the source mesh's index order (triangle i uses indices 3i..3i+2)
 */
public record RayHit(float t, int triangle) {
}
