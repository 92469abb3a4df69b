package dev.weft.demo.game;

/**
 * A hash of every entity's simulated state (position, velocity, animation), bit for bit: two runs with
 * the same seed and tick count must give the same value, whatever else they did (streaming, workers,
 * pipelining). Read by the main thread after the last frame graph has been joined, which orders the
 * simulate stage's writes before these reads.
 */
final class EntityStateHash {
    private EntityStateHash() {}

    static long of(Entities e) {
        long h = 0xcbf29ce484222325L;                      // FNV-1a over the float bits
        for (int i = 0; i < e.count; i++) {
            h = mix(h, e.x[i]);
            h = mix(h, e.y[i]);
            h = mix(h, e.z[i]);
            h = mix(h, e.vx[i]);
            h = mix(h, e.vy[i]);
            h = mix(h, e.vz[i]);
            h = mix(h, e.yaw[i]);
            h = mix(h, e.phase[i]);
        }
        return h;
    }

    private static long mix(long h, float v) {
        return (h ^ Float.floatToRawIntBits(v)) * 0x100000001b3L;
    }
}
