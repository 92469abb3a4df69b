package dev.weft.assets;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Not a test: a manual speed comparison of {@link ObjParser} and de.javagl:obj on the demo's largest mesh,
 * run by hand so no test depends on wall-clock speed:
 *
 * <pre>
 * mvn -q -o -pl demo-game test-compile dependency:build-classpath -Dmdep.outputFile=cp.txt
 * java -cp "$(cat demo-game/cp.txt):demo-game/target/classes:demo-game/target/test-classes" \
 *     dev.weft.assets.ObjParserComparison [resource] [rounds] [own|javagl (one cold parse)]
 * </pre>
 *
 * Both sides read the same in-memory bytes and produce interleaved buffers; rounds alternate so JIT warm-up
 * and machine noise hit both alike. Prints the median and best of the timed rounds after warm-up.
 */
public final class ObjParserComparison {
    private ObjParserComparison() {
    }

    public static void main(String[] args) {
        String resource = args.length > 0 ? args[0] : "weft/levels/demo/meshes/terrain.obj";
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 15;
        byte[] bytes = read(resource);
        if (args.length > 2) {
            cold(args[2], resource, bytes);
            return;
        }
        int warmup = 5;
        long[] own = new long[rounds], javagl = new long[rounds];
        long checksum = 0;
        for (int r = -warmup; r < rounds; r++) {
            long t0 = System.nanoTime();
            MeshData mesh = ObjParser.parse(resource, bytes);
            long t1 = System.nanoTime();
            JavaglObjLoader.Result other = JavaglObjLoader.load(bytes);
            long t2 = System.nanoTime();
            checksum += mesh.triangleCount() + other.triangleCount();
            if (r >= 0) {
                own[r] = t1 - t0;
                javagl[r] = t2 - t1;
            }
            if (r == 0) {
                System.out.printf("%s: %d bytes; own: %d vertices %d triangles; javagl: %d vertices %d triangles%n",
                        resource, bytes.length, mesh.vertexCount(), mesh.triangleCount(), other.vertexCount(),
                        other.triangleCount());
            }
        }
        System.out.printf("own parser : median %6.1f ms, best %6.1f ms%n", median(own), best(own));
        System.out.printf("javagl obj : median %6.1f ms, best %6.1f ms%n", median(javagl), best(javagl));
        System.out.printf("ratio (javagl / own, medians): %.2fx   [checksum %d]%n", median(javagl) / median(own), checksum);
    }

    /** One parse in a fresh JVM: what a game pays loading a level once ({@code own} or {@code javagl}). */
    private static void cold(String which, String resource, byte[] bytes) {
        long t0 = System.nanoTime();
        int triangles = which.equals("own") ? ObjParser.parse(resource, bytes).triangleCount()
                : JavaglObjLoader.load(bytes).triangleCount();
        System.out.printf("%s cold (first parse in a fresh JVM): %.1f ms, %d triangles%n", which,
                (System.nanoTime() - t0) / 1e6, triangles);
    }

    private static byte[] read(String resource) {
        try (InputStream in = ObjParserComparison.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static double median(long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2] / 1e6;
    }

    private static double best(long[] nanos) {
        return Arrays.stream(nanos).min().orElseThrow() / 1e6;
    }
}
