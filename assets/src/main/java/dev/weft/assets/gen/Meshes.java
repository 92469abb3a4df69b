package dev.weft.assets.gen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The procedural meshes of the demo levels. Each one exercises a different part of an OBJ reader:
 * quads sharing one index for v/vt/vn (terrain), triangles (sphere), independent v/vt/vn indices across
 * a UV seam (torus), one normal per face (rock), and n-gon caps (pillar). Winding is counter-clockwise
 * seen from outside; units are metres.
 */
final class Meshes {
    private Meshes() {
    }

    /** A noise heightfield of {@code quadsPerSide}² quads centred on the origin: 2·quadsPerSide² triangles. */
    static MeshBuilder terrain(int quadsPerSide, double sizeM, double heightM, long seed) {
        MeshBuilder mesh = new MeshBuilder("terrain heightfield, " + quadsPerSide + "^2 quads");
        Noise noise = new Noise(seed);
        int n = quadsPerSide;
        double stepM = sizeM / n, uvRepeats = n / 16.0;
        for (int j = 0; j <= n; j++) {
            for (int i = 0; i <= n; i++) {
                double x = -sizeM / 2 + i * stepM, z = -sizeM / 2 + j * stepM;
                double h = height(noise, i, j, n, heightM);
                mesh.position(x, h, z);
                mesh.uv(i * uvRepeats / n, j * uvRepeats / n);
                // Central differences of the height function give a smooth normal without a second pass.
                double dhdx = (height(noise, i + 1, j, n, heightM) - height(noise, i - 1, j, n, heightM)) / (2 * stepM);
                double dhdz = (height(noise, i, j + 1, n, heightM) - height(noise, i, j - 1, n, heightM)) / (2 * stepM);
                mesh.normal(-dhdx, 1, -dhdz);
            }
        }
        for (int j = 0; j < n; j++) {
            for (int i = 0; i < n; i++) {
                int a = j * (n + 1) + i + 1, b = a + (n + 1), c = b + 1, d = a + 1;
                mesh.face(a, a, a, b, b, b, c, c, c, d, d, d);
            }
        }
        return mesh;
    }

    /** Height of {@link #terrain} at world (x, z), for placing entities on the ground. */
    static double terrainHeightAt(double xM, double zM, int quadsPerSide, double sizeM, double heightM, long seed) {
        double i = (xM + sizeM / 2) / sizeM * quadsPerSide, j = (zM + sizeM / 2) / sizeM * quadsPerSide;
        return height(new Noise(seed), i, j, quadsPerSide, heightM);
    }

    private static double height(Noise noise, double i, double j, int n, double heightM) {
        return noise.fbm2(i * 6.0 / n, j * 6.0 / n, 5) * heightM;
    }

    /** An icosahedron subdivided {@code subdivisions} times onto a sphere: 20·4^subdivisions triangles. */
    static MeshBuilder sphere(int subdivisions, double radiusM) {
        MeshBuilder mesh = new MeshBuilder("icosphere, " + subdivisions + " subdivisions");
        Icosphere ico = new Icosphere(subdivisions);
        for (double[] p : ico.vertices) {
            mesh.position(p[0] * radiusM, p[1] * radiusM, p[2] * radiusM);
            mesh.uv(0.5 + Math.atan2(p[2], p[0]) / (2 * Math.PI), 0.5 - Math.asin(p[1]) / Math.PI);
            mesh.normal(p[0], p[1], p[2]);
        }
        for (int[] t : ico.triangles) {
            int a = t[0] + 1, b = t[1] + 1, c = t[2] + 1;
            mesh.face(a, a, a, b, b, b, c, c, c);
        }
        return mesh;
    }

    /**
     * A torus of {@code ringSegments} × {@code tubeSegments} quads. Positions and normals wrap around but
     * UVs do not (one more UV per row and column), so its faces use different v, vt and vn indices.
     */
    static MeshBuilder torus(int ringSegments, int tubeSegments, double ringRadiusM, double tubeRadiusM) {
        MeshBuilder mesh = new MeshBuilder("torus, " + ringSegments + "x" + tubeSegments + " quads");
        int n = ringSegments, m = tubeSegments;
        for (int i = 0; i < n; i++) {
            double theta = 2 * Math.PI * i / n;
            for (int j = 0; j < m; j++) {
                double phi = 2 * Math.PI * j / m;
                double ring = ringRadiusM + tubeRadiusM * Math.cos(phi);
                mesh.position(ring * Math.cos(theta), tubeRadiusM * Math.sin(phi), ring * Math.sin(theta));
                mesh.normal(Math.cos(phi) * Math.cos(theta), Math.sin(phi), Math.cos(phi) * Math.sin(theta));
            }
        }
        for (int i = 0; i <= n; i++) {
            for (int j = 0; j <= m; j++) {
                mesh.uv(4.0 * i / n, (double) j / m);
            }
        }
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < m; j++) {
                int[] p = {wrap(i, j, n, m), wrap(i, j + 1, n, m), wrap(i + 1, j + 1, n, m), wrap(i + 1, j, n, m)};
                int[] t = {i * (m + 1) + j + 1, i * (m + 1) + j + 2, (i + 1) * (m + 1) + j + 2, (i + 1) * (m + 1) + j + 1};
                mesh.face(p[0], t[0], p[0], p[1], t[1], p[1], p[2], t[2], p[2], p[3], t[3], p[3]);
            }
        }
        return mesh;
    }

    private static int wrap(int i, int j, int n, int m) {
        return (i % n) * m + (j % m) + 1;
    }

    /** A lumpy boulder: an icosphere pushed in and out by 3D noise, flat-shaded with one normal per face. */
    static MeshBuilder rock(int subdivisions, double radiusM, long seed) {
        MeshBuilder mesh = new MeshBuilder("rock, displaced icosphere, flat normals");
        Noise noise = new Noise(seed);
        Icosphere ico = new Icosphere(subdivisions);
        for (double[] p : ico.vertices) {
            double r = radiusM * (0.7 + 0.6 * noise.fbm3(p[0] * 1.5 + 7, p[1] * 1.5 + 7, p[2] * 1.5 + 7, 4));
            mesh.position(p[0] * r, p[1] * r * 0.7, p[2] * r);
            mesh.uv(0.5 + Math.atan2(p[2], p[0]) / (2 * Math.PI), 0.5 - Math.asin(p[1]) / Math.PI);
        }
        for (int[] t : ico.triangles) {
            int a = t[0] + 1, b = t[1] + 1, c = t[2] + 1;
            double[] n = faceNormal(mesh, a, b, c);
            int vn = mesh.normal(n[0], n[1], n[2]);
            mesh.face(a, a, vn, b, b, vn, c, c, vn);
        }
        return mesh;
    }

    /** A cylinder with {@code segments}-gon caps (n-gon faces) and {@code rings} rows of side quads. */
    static MeshBuilder pillar(int segments, int rings, double radiusM, double heightM) {
        MeshBuilder mesh = new MeshBuilder("pillar, " + segments + "-gon caps");
        int sideNormal0 = 0;
        for (int k = 0; k <= rings; k++) {
            for (int s = 0; s < segments; s++) {
                double a = 2 * Math.PI * s / segments;
                mesh.position(radiusM * Math.cos(a), heightM * k / rings, radiusM * Math.sin(a));
            }
        }
        for (int s = 0; s < segments; s++) {
            double a = 2 * Math.PI * s / segments;
            int vn = mesh.normal(Math.cos(a), 0, Math.sin(a));
            if (s == 0) {
                sideNormal0 = vn;
            }
        }
        int up = mesh.normal(0, 1, 0), down = mesh.normal(0, -1, 0);
        for (int k = 0; k <= rings; k++) {
            for (int s = 0; s <= segments; s++) {
                mesh.uv((double) s / segments, (double) k / rings);
            }
        }
        int capUv0 = mesh.uvs().size() / 2 + 1;
        for (int s = 0; s < segments; s++) {
            double a = 2 * Math.PI * s / segments;
            mesh.uv(0.5 + 0.5 * Math.cos(a), 0.5 + 0.5 * Math.sin(a));
        }
        for (int k = 0; k < rings; k++) {
            for (int s = 0; s < segments; s++) {
                int s1 = (s + 1) % segments;
                int p00 = k * segments + s + 1, p01 = (k + 1) * segments + s + 1;
                int p11 = (k + 1) * segments + s1 + 1, p10 = k * segments + s1 + 1;
                int t00 = k * (segments + 1) + s + 1, t01 = t00 + segments + 1;
                mesh.face(p00, t00, sideNormal0 + s, p01, t01, sideNormal0 + s,
                        p11, t01 + 1, sideNormal0 + s1, p10, t00 + 1, sideNormal0 + s1);
            }
        }
        int[] bottom = new int[segments * 3], top = new int[segments * 3];
        for (int s = 0; s < segments; s++) {
            // Increasing angle winds clockwise seen from +Y, which is outward for the bottom cap.
            bottom[s * 3] = s + 1;
            bottom[s * 3 + 1] = capUv0 + s;
            bottom[s * 3 + 2] = down;
            int r = segments - 1 - s;
            top[s * 3] = rings * segments + r + 1;
            top[s * 3 + 1] = capUv0 + r;
            top[s * 3 + 2] = up;
        }
        mesh.face(bottom);
        mesh.face(top);
        return mesh;
    }

    private static double[] faceNormal(MeshBuilder mesh, int a, int b, int c) {
        double[] u = new double[3], v = new double[3];
        for (int k = 0; k < 3; k++) {
            u[k] = mesh.positionAt(b, k) - mesh.positionAt(a, k);
            v[k] = mesh.positionAt(c, k) - mesh.positionAt(a, k);
        }
        return new double[] {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
    }

    /** Unit icosphere: shared vertices (midpoints cached per edge), outward counter-clockwise triangles. */
    private static final class Icosphere {
        final List<double[]> vertices = new ArrayList<>();
        List<int[]> triangles = new ArrayList<>();

        Icosphere(int subdivisions) {
            double t = (1 + Math.sqrt(5)) / 2;
            double[][] base = {{-1, t, 0}, {1, t, 0}, {-1, -t, 0}, {1, -t, 0}, {0, -1, t}, {0, 1, t},
                    {0, -1, -t}, {0, 1, -t}, {t, 0, -1}, {t, 0, 1}, {-t, 0, -1}, {-t, 0, 1}};
            for (double[] p : base) {
                add(p);
            }
            int[][] faces = {{0, 11, 5}, {0, 5, 1}, {0, 1, 7}, {0, 7, 10}, {0, 10, 11}, {1, 5, 9}, {5, 11, 4},
                    {11, 10, 2}, {10, 7, 6}, {7, 1, 8}, {3, 9, 4}, {3, 4, 2}, {3, 2, 6}, {3, 6, 8}, {3, 8, 9},
                    {4, 9, 5}, {2, 4, 11}, {6, 2, 10}, {8, 6, 7}, {9, 8, 1}};
            for (int[] f : faces) {
                triangles.add(outward(f));
            }
            for (int s = 0; s < subdivisions; s++) {
                Map<Long, Integer> midpoints = new HashMap<>();
                List<int[]> finer = new ArrayList<>(triangles.size() * 4);
                for (int[] f : triangles) {
                    int ab = midpoint(f[0], f[1], midpoints), bc = midpoint(f[1], f[2], midpoints);
                    int ca = midpoint(f[2], f[0], midpoints);
                    finer.add(new int[] {f[0], ab, ca});
                    finer.add(new int[] {f[1], bc, ab});
                    finer.add(new int[] {f[2], ca, bc});
                    finer.add(new int[] {ab, bc, ca});
                }
                triangles = finer;
            }
        }

        private int add(double[] p) {
            double length = Math.sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
            vertices.add(new double[] {p[0] / length, p[1] / length, p[2] / length});
            return vertices.size() - 1;
        }

        private int midpoint(int a, int b, Map<Long, Integer> cache) {
            long key = Math.min(a, b) * 0x1_0000_0000L + Math.max(a, b);
            return cache.computeIfAbsent(key, k -> {
                double[] p = vertices.get(a), q = vertices.get(b);
                return add(new double[] {p[0] + q[0], p[1] + q[1], p[2] + q[2]});
            });
        }

        /** Flips a base face if needed so its normal points away from the centre. */
        private int[] outward(int[] f) {
            double[] a = vertices.get(f[0]), b = vertices.get(f[1]), c = vertices.get(f[2]);
            double[] u = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
            double nx = u[1] * v[2] - u[2] * v[1], ny = u[2] * v[0] - u[0] * v[2], nz = u[0] * v[1] - u[1] * v[0];
            boolean out = nx * (a[0] + b[0] + c[0]) + ny * (a[1] + b[1] + c[1]) + nz * (a[2] + b[2] + c[2]) > 0;
            return out ? f : new int[] {f[0], f[2], f[1]};
        }
    }
}
