package dev.weft.bench.profiler;

import dev.weft.bench.RangeBody;

/**
 * A synthetic game frame over {@code count} entities kept as structure-of-arrays, split into the
 * stages a real engine runs each frame. Every stage touches only its own entity range, so any
 * scheduler that respects the stage dependencies produces bit-identical state ({@link #checksum()}).
 *
 * <pre>
 *   move ──► collide ──┬──► animate ──┐
 *                      └──► cull    ──┴──► buildCommands
 * </pre>
 * <ul>
 *   <li>{@link #move}: gravity and velocity integration, bounce on the ground and the world edges;</li>
 *   <li>{@link #collide}: the cell ahead of the entity in a static occupancy grid; walls reflect it;</li>
 *   <li>{@link #animate}: {@value #BONES} bones blending two procedural clips by speed (a fast sine);</li>
 *   <li>{@link #cull}: bounding sphere against the six planes of an orbiting camera's frustum;</li>
 *   <li>{@link #buildCommands}: a 64-bit sort key (material, depth, LOD) per visible entity, -1 otherwise.</li>
 * </ul>
 * {@link #beginFrame(int)} runs on the frame thread before the stages (camera and frustum).
 */
public final class FrameWorkload {
    public static final int BONES = 8;
    static final float WORLD = 256f;            // world is [0, WORLD) on x and z
    static final int GRID = 128;                // occupancy grid cells per side
    static final float CELL = WORLD / GRID;
    static final float DT = 1f / 60f;
    static final float GRAVITY = -9.81f;
    static final float MAX_SPEED = 8f;

    final int count;
    final float[] px, py, pz, vx, vy, vz, radius;
    final float[] animPhase;
    final float[] bones;                        // count * BONES * 4: one quaternion per bone
    final byte[] visible;
    final long[] drawKeys;
    final boolean[] solid = new boolean[GRID * GRID];
    final float[] planes = new float[6 * 4];    // frustum planes (nx, ny, nz, d): inside when n.p + d >= -r
    float camX, camY, camZ, fwdX, fwdY, fwdZ;

    public final RangeBody move = this::move;
    public final RangeBody collide = this::collide;
    public final RangeBody animate = this::animate;
    public final RangeBody cull = this::cull;
    public final RangeBody buildCommands = this::buildCommands;

    public FrameWorkload(int count, long seed) {
        this.count = count;
        px = new float[count];
        py = new float[count];
        pz = new float[count];
        vx = new float[count];
        vy = new float[count];
        vz = new float[count];
        radius = new float[count];
        animPhase = new float[count];
        bones = new float[count * BONES * 4];
        visible = new byte[count];
        drawKeys = new long[count];
        java.util.SplittableRandom random = new java.util.SplittableRandom(seed);
        for (int c = 0; c < GRID * GRID; c++) {
            int gx = c % GRID;
            int gz = c / GRID;
            boolean border = gx == 0 || gz == 0 || gx == GRID - 1 || gz == GRID - 1;
            solid[c] = !border && random.nextInt(100) < 8;       // 8% walls, edges open (edges reflect in move)
        }
        for (int i = 0; i < count; i++) {
            float x;
            float z;
            do {
                x = (float) random.nextDouble(1, WORLD - 1);
                z = (float) random.nextDouble(1, WORLD - 1);
            } while (solid[cell(x, z)]);
            px[i] = x;
            pz[i] = z;
            py[i] = (float) random.nextDouble(0, 4);
            vx[i] = (float) random.nextDouble(-MAX_SPEED, MAX_SPEED) * 0.7f;
            vz[i] = (float) random.nextDouble(-MAX_SPEED, MAX_SPEED) * 0.7f;
            vy[i] = (float) random.nextDouble(0, 3);
            radius[i] = (float) random.nextDouble(0.3, 1.5);
            animPhase[i] = (float) random.nextDouble(0, 2 * Math.PI);
        }
    }

    public int count() {
        return count;
    }

    /** Camera orbiting the world centre, looking at it; recomputes the frustum planes. Frame thread only. */
    public void beginFrame(int frame) {
        double angle = frame * 0.01;
        camX = (float) (WORLD / 2 + Math.cos(angle) * WORLD * 0.45);
        camZ = (float) (WORLD / 2 + Math.sin(angle) * WORLD * 0.45);
        camY = 30f;
        float tx = WORLD / 2 - camX;
        float ty = -camY;
        float tz = WORLD / 2 - camZ;
        float inv = 1f / (float) Math.sqrt(tx * tx + ty * ty + tz * tz);
        fwdX = tx * inv;
        fwdY = ty * inv;
        fwdZ = tz * inv;
        // right = normalize(forward x up), up' = right x forward
        float rx = -fwdZ;
        float ry = 0;
        float rz = fwdX;
        float rInv = 1f / (float) Math.sqrt(rx * rx + rz * rz);
        rx *= rInv;
        rz *= rInv;
        float ux = ry * fwdZ - rz * fwdY;
        float uy = rz * fwdX - rx * fwdZ;
        float uz = rx * fwdY - ry * fwdX;
        float halfH = (float) Math.toRadians(45);   // 90 degree horizontal field of view
        float halfV = (float) Math.toRadians(30);
        float sh = (float) Math.sin(halfH);
        float ch = (float) Math.cos(halfH);
        float sv = (float) Math.sin(halfV);
        float cv = (float) Math.cos(halfV);
        setPlane(0, fwdX * sh + rx * ch, fwdY * sh + ry * ch, fwdZ * sh + rz * ch);   // left
        setPlane(1, fwdX * sh - rx * ch, fwdY * sh - ry * ch, fwdZ * sh - rz * ch);   // right
        setPlane(2, fwdX * sv + ux * cv, fwdY * sv + uy * cv, fwdZ * sv + uz * cv);   // bottom
        setPlane(3, fwdX * sv - ux * cv, fwdY * sv - uy * cv, fwdZ * sv - uz * cv);   // top
        float near = 0.5f;
        float far = 220f;
        planes[16] = fwdX;                                                          // near
        planes[17] = fwdY;
        planes[18] = fwdZ;
        planes[19] = -(fwdX * camX + fwdY * camY + fwdZ * camZ) - near;
        planes[20] = -fwdX;                                                         // far
        planes[21] = -fwdY;
        planes[22] = -fwdZ;
        planes[23] = fwdX * camX + fwdY * camY + fwdZ * camZ + far;
    }

    private void setPlane(int p, float nx, float ny, float nz) {
        planes[p * 4] = nx;
        planes[p * 4 + 1] = ny;
        planes[p * 4 + 2] = nz;
        planes[p * 4 + 3] = -(nx * camX + ny * camY + nz * camZ);
    }

    void move(int start, int end) {
        for (int i = start; i < end; i++) {
            float y = py[i];
            float v = vy[i] + GRAVITY * DT;
            y += v * DT;
            if (y < 0) {                                // bounce, losing energy; hop again when it settles
                y = -y;
                v = -v * 0.7f;
                if (v < 0.5f) {
                    v = 4f;
                }
            }
            py[i] = y;
            vy[i] = v;
            float x = px[i] + vx[i] * DT;
            float z = pz[i] + vz[i] * DT;
            if (x < 0.5f || x > WORLD - 0.5f) {
                vx[i] = -vx[i];
                x = Math.clamp(x, 0.5f, WORLD - 0.5f);
            }
            if (z < 0.5f || z > WORLD - 0.5f) {
                vz[i] = -vz[i];
                z = Math.clamp(z, 0.5f, WORLD - 0.5f);
            }
            px[i] = x;
            pz[i] = z;
        }
    }

    void collide(int start, int end) {
        for (int i = start; i < end; i++) {
            float x = px[i];
            float z = pz[i];
            float r = radius[i];
            float aheadX = x + Math.signum(vx[i]) * r;
            float aheadZ = z + Math.signum(vz[i]) * r;
            boolean hitX = solid[cell(aheadX, z)];
            boolean hitZ = solid[cell(x, aheadZ)];
            if (hitX) {                                 // push out to the cell face, reflect
                vx[i] = -vx[i];
                px[i] = x - (aheadX - x) * 0.5f;
            }
            if (hitZ) {
                vz[i] = -vz[i];
                pz[i] = z - (aheadZ - z) * 0.5f;
            }
            if (!hitX && !hitZ && solid[cell(aheadX, aheadZ)]) {   // corner
                vx[i] = -vx[i];
                vz[i] = -vz[i];
            }
        }
    }

    void animate(int start, int end) {
        for (int i = start; i < end; i++) {
            float speed = (float) Math.sqrt(vx[i] * vx[i] + vz[i] * vz[i]);
            float run = Math.min(1f, speed / MAX_SPEED);             // blend weight: idle -> run
            float phase = animPhase[i] + DT * (1.5f + 6f * run);
            if (phase > 2 * (float) Math.PI) {
                phase -= 2 * (float) Math.PI;
            }
            animPhase[i] = phase;
            int base = i * BONES * 4;
            for (int b = 0; b < BONES; b++) {
                float idle = 0.10f * fastSin(phase + b * 0.35f);
                float runAngle = 0.60f * fastSin(phase * 2f + b * 0.9f);
                float angle = idle + (runAngle - idle) * run;
                float half = angle * 0.5f;
                float s = fastSin(half);
                float c = fastSin(half + (float) (Math.PI / 2));
                // rotate about an axis that tilts along the chain; normalise the blended quaternion
                float ax = (b & 1) == 0 ? 1f : 0.6f;
                float az = (b & 1) == 0 ? 0f : 0.8f;
                float qw = c;
                float qx = s * ax;
                float qz = s * az;
                float qy = s * 0.05f * b;
                float n = 1f / (float) Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
                bones[base + b * 4] = qw * n;
                bones[base + b * 4 + 1] = qx * n;
                bones[base + b * 4 + 2] = qy * n;
                bones[base + b * 4 + 3] = qz * n;
            }
        }
    }

    void cull(int start, int end) {
        final float[] p = planes;
        for (int i = start; i < end; i++) {
            float x = px[i];
            float y = py[i];
            float z = pz[i];
            float negR = -radius[i];
            byte in = 1;
            for (int k = 0; k < 24; k += 4) {
                if (p[k] * x + p[k + 1] * y + p[k + 2] * z + p[k + 3] < negR) {
                    in = 0;
                    break;
                }
            }
            visible[i] = in;
        }
    }

    void buildCommands(int start, int end) {
        for (int i = start; i < end; i++) {
            if (visible[i] == 0) {
                drawKeys[i] = -1;
                continue;
            }
            float dx = px[i] - camX;
            float dy = py[i] - camY;
            float dz = pz[i] - camZ;
            float depth = dx * fwdX + dy * fwdY + dz * fwdZ;
            long depthBits = Math.clamp((long) (depth * (1 << 16)), 0L, (1L << 24) - 1);
            long lod = depth < 40 ? 0 : depth < 100 ? 1 : 2;
            long material = i & 15;
            long pose = Float.floatToRawIntBits(bones[i * BONES * 4 + 1]) & 0xFF;   // ties the key to the animation
            drawKeys[i] = material << 56 | lod << 52 | depthBits << 24 | pose << 16 | (i & 0xFFFF);
        }
    }

    /** A digest of the whole entity state: equal for equal work whatever ran it. */
    public long checksum() {
        long h = 1125899906842597L;
        for (int i = 0; i < count; i++) {
            h = 31 * h + Float.floatToRawIntBits(px[i]);
            h = 31 * h + Float.floatToRawIntBits(py[i]);
            h = 31 * h + Float.floatToRawIntBits(pz[i]);
            h = 31 * h + drawKeys[i];
        }
        for (float f : bones) {
            h = 31 * h + Float.floatToRawIntBits(f);
        }
        return h;
    }

    /** Entities that passed culling in the last frame. */
    public int visibleCount() {
        int n = 0;
        for (byte b : visible) {
            n += b;
        }
        return n;
    }

    static int cell(float x, float z) {
        int gx = Math.clamp((int) (x / CELL), 0, GRID - 1);
        int gz = Math.clamp((int) (z / CELL), 0, GRID - 1);
        return gz * GRID + gx;
    }

    /** Sine accurate to about 1e-3 over any argument: range-reduce to [-pi, pi], then a parabola with a correction. */
    static float fastSin(float x) {
        final float twoPi = (float) (2 * Math.PI);
        x -= twoPi * (float) Math.floor((x + Math.PI) / twoPi);
        final float b = (float) (4 / Math.PI);
        final float c = (float) (-4 / (Math.PI * Math.PI));
        float y = b * x + c * x * Math.abs(x);
        return 0.225f * (y * Math.abs(y) - y) + y;
    }
}
