package dev.weft.assets.gen;

/**
 * Seeded value noise in 2D and 3D with fractal (fBm) sums. Pure integer hashing, no shared state, so the
 * same seed gives the same content on every machine and JDK.
 */
final class Noise {
    private final long seed;

    Noise(long seed) {
        this.seed = seed;
    }

    /** Fractal noise in about [0, 1]: {@code octaves} layers, each twice the frequency and half the amplitude. */
    double fbm2(double x, double y, int octaves) {
        double sum = 0, amplitude = 0.5, norm = 0;
        for (int o = 0; o < octaves; o++) {
            sum += amplitude * value2(x, y, o);
            norm += amplitude;
            x *= 2;
            y *= 2;
            amplitude *= 0.5;
        }
        return sum / norm;
    }

    /** Fractal noise in about [0, 1]; see {@link #fbm2}. */
    double fbm3(double x, double y, double z, int octaves) {
        double sum = 0, amplitude = 0.5, norm = 0;
        for (int o = 0; o < octaves; o++) {
            sum += amplitude * value3(x, y, z, o);
            norm += amplitude;
            x *= 2;
            y *= 2;
            z *= 2;
            amplitude *= 0.5;
        }
        return sum / norm;
    }

    /** Wrapping variant of {@link #fbm2}: tiles with the given integer period at octave 0, so textures repeat seamlessly. */
    double fbm2Tiled(double x, double y, int period, int octaves) {
        double sum = 0, amplitude = 0.5, norm = 0;
        for (int o = 0; o < octaves; o++) {
            sum += amplitude * tiled2(x, y, period << o, o);
            norm += amplitude;
            x *= 2;
            y *= 2;
            amplitude *= 0.5;
        }
        return sum / norm;
    }

    private double value2(double x, double y, int layer) {
        int x0 = floor(x), y0 = floor(y);
        double fx = smooth(x - x0), fy = smooth(y - y0);
        return bilinear(x0, y0, 0, fx, fy, layer);
    }

    private double tiled2(double x, double y, int period, int layer) {
        int x0 = floor(x), y0 = floor(y);
        double fx = smooth(x - x0), fy = smooth(y - y0);
        int xa = Math.floorMod(x0, period), xb = Math.floorMod(x0 + 1, period);
        int ya = Math.floorMod(y0, period), yb = Math.floorMod(y0 + 1, period);
        double a = lerp(fx, hash(xa, ya, 0, layer), hash(xb, ya, 0, layer));
        double b = lerp(fx, hash(xa, yb, 0, layer), hash(xb, yb, 0, layer));
        return lerp(fy, a, b);
    }

    private double value3(double x, double y, double z, int layer) {
        int x0 = floor(x), y0 = floor(y), z0 = floor(z);
        double fx = smooth(x - x0), fy = smooth(y - y0), fz = smooth(z - z0);
        return lerp(fz, bilinear(x0, y0, z0, fx, fy, layer), bilinear(x0, y0, z0 + 1, fx, fy, layer));
    }

    private double bilinear(int x0, int y0, int z, double fx, double fy, int layer) {
        double a = lerp(fx, hash(x0, y0, z, layer), hash(x0 + 1, y0, z, layer));
        double b = lerp(fx, hash(x0, y0 + 1, z, layer), hash(x0 + 1, y0 + 1, z, layer));
        return lerp(fy, a, b);
    }

    /** Hash of a lattice point to [0, 1); a SplitMix64 finaliser over the packed coordinates. */
    private double hash(int x, int y, int z, int layer) {
        long h = seed ^ (x * 0x9E3779B97F4A7C15L) ^ (y * 0xC2B2AE3D27D4EB4FL) ^ (z * 0x165667B19E3779F9L)
                ^ ((long) layer << 56);
        h = (h ^ (h >>> 30)) * 0xBF58476D1CE4E5B9L;
        h = (h ^ (h >>> 27)) * 0x94D049BB133111EBL;
        h ^= h >>> 31;
        return (h >>> 11) * 0x1.0p-53;
    }

    private static int floor(double v) {
        return (int) Math.floor(v);
    }

    private static double smooth(double t) {
        return t * t * (3 - 2 * t);
    }

    private static double lerp(double t, double a, double b) {
        return a + t * (b - a);
    }
}
