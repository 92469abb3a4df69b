package dev.weft.bench;

import dev.weft.assets.AssetManager;
import dev.weft.assets.AssetSource;
import dev.weft.assets.AssetTimeline;
import dev.weft.assets.FaultPlan;
import dev.weft.assets.LevelLoad;
import dev.weft.assets.LevelLoader;

import dev.weft.JobSystem;
import dev.weft.assets.AssetKind;
import dev.weft.assets.CollisionMesh;
import dev.weft.assets.LevelAsset;
import dev.weft.assets.LevelEntity;
import dev.weft.assets.LevelFile;
import dev.weft.assets.MeshData;
import dev.weft.assets.ObjParser;
import dev.weft.assets.PngDecoder;
import dev.weft.assets.TextureData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Loads a level cold and warm on Weft (the dev.weft.assets loader) and serially on one thread (the same
 * read and decode functions called in load order, no job system), and prints the times and the ratio
 * serial / Weft from one run. Run it on a quiet machine:
 *
 * <pre>
 * mvn -B -q -pl bench -am package -DskipTests
 * java -cp bench/target/benchmarks.jar dev.weft.bench.LevelLoadBenchmark [options]
 * java -cp bench/target/benchmarks.jar dev.weft.bench.LevelLoadBenchmark --help     # the options ({@link LevelLoadOptions})
 * </pre>
 *
 * <p>Cold: each loader runs once in a fresh JVM (class loading, JIT and stb's first call included;
 * for Weft, job-system start-up is excluded and printed apart). Warm: in this JVM, rounds alternate
 * serial and Weft, and the median of each is reported. The Weft loader runs with as many decode slots
 * as workers here (a loading screen with no frames to protect); the game's default keeps one worker free.
 * The main restarts itself with {@code --add-opens java.base/java.lang=ALL-UNNAMED} if that is missing.
 */
public final class LevelLoadBenchmark {
    private static final List<String> JVM_FLAGS = List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED");

    private LevelLoadBenchmark() {}

    public static void main(String[] args) throws Exception {
        LevelLoadOptions opt;
        try {
            opt = LevelLoadOptions.parse(args);
            if (!opt.help()) {
                checkLevel(opt.level());
            }
        } catch (IllegalArgumentException e) {
            // before the restart below, so a typo neither starts a JVM nor ends in a stack trace
            System.err.println("LevelLoadBenchmark: " + e.getMessage());
            System.err.println("Run with --help for the options.");
            System.exit(2);
            return;
        }
        if (opt.help()) {
            System.out.print(LevelLoadOptions.USAGE);
            return;
        }
        if (!Object.class.getModule().isOpen("java.lang", LevelLoadBenchmark.class.getModule())) {
            System.exit(runChild(List.of(args), true).exitCode);
        }
        FaultPlan faults = latency(opt.latencyMs());
        if (opt.child() != null) {
            coldChild(opt.child(), opt.level(), opt.workers(), faults, opt.nice());
            return;
        }
        System.out.printf(Locale.ROOT, "LevelLoadBenchmark: level %s, %d workers, %d processors, load average %.2f, "
                        + "latency %d ms per read, Weft background nice %d%n", opt.level(), opt.workers(),
                Runtime.getRuntime().availableProcessors(),
                ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), opt.latencyMs(), opt.nice());
        if (opt.cold()) {
            double serial = parseChildMs(runChild(opt.childArgs("serial"), false));
            double weft = parseChildMs(runChild(opt.childArgs("weft"), false));
            System.out.printf(Locale.ROOT, "cold: serial %.1f ms, weft %.1f ms, serial/weft %.2f%n", serial, weft, serial / weft);
        }
        warm(opt.level(), opt.workers(), faults, opt.nice(), opt.rounds(), opt.verbose());
    }

    /** A level the loaders would not find fails here, with its name, instead of in a child JVM's stack trace. */
    static void checkLevel(String level) {
        String file = level + "/" + level + ".level";
        try {
            if (AssetSource.classpath().size(file) >= 0) {
                return;
            }
        } catch (IOException e) {
            // unreadable counts as missing
        }
        throw new IllegalArgumentException("--level " + level + ": no " + AssetSource.classpath().displayName(file)
                + " on the class path; pass a shipped level, e.g. demo or tiny");
    }

    private static void warm(String level, int workers, FaultPlan faults, int nice, int rounds, boolean verbose)
            throws IOException {
        AssetSource source = AssetSource.classpath();
        try (JobSystem jobs = JobSystem.builder().name("bench").workers(workers).build();
             AssetManager assets = AssetManager.builder(jobs).source(source).faults(faults)
                     .maxParallelDecodes(workers).backgroundNice(nice).build()) {
            LevelLoader loader = new LevelLoader(assets);
            for (int i = 0; i < 2; i++) {
                serialLoad(source, faults, level);
                weftLoad(loader, level);
            }
            double[] serial = new double[rounds];
            double[] weft = new double[rounds];
            for (int i = 0; i < rounds; i++) {
                serial[i] = serialLoad(source, faults, level) / 1e6;
                weft[i] = weftLoad(loader, level) / 1e6;
            }
            double s = median(serial), w = median(weft);
            System.out.printf(Locale.ROOT, "warm (median of %d): serial %.1f ms, weft %.1f ms, serial/weft %.2f%n",
                    rounds, s, w, s / w);
            System.out.println("  serial rounds ms: " + fmt(serial));
            System.out.println("  weft rounds ms:   " + fmt(weft));
            if (verbose) {
                LevelLoad load = loader.load(level);
                load.awaitDone(Duration.ofMinutes(5));
                System.out.printf(Locale.ROOT, "  one more Weft round, %.1f ms:%n", load.totalNanos() / 1e6);
                load.timings().stream().sorted(Comparator.comparingLong(AssetTimeline::endedNanos))
                        .forEach(t -> System.out.printf(Locale.ROOT, "    +%7.1f ms  %s%n",
                                (t.endedNanos() - load.startNanos()) / 1e6, t));
                load.unload();
            }
        }
    }

    private static void coldChild(String mode, String level, int workers, FaultPlan faults, int nice)
            throws IOException {
        AssetSource source = AssetSource.classpath();
        if (mode.equals("serial")) {
            System.out.printf(Locale.ROOT, "cold-ms %.3f%n", serialLoad(source, faults, level) / 1e6);
            return;
        }
        long t0 = System.nanoTime();
        try (JobSystem jobs = JobSystem.builder().name("bench").workers(workers).build();
             AssetManager assets = AssetManager.builder(jobs).source(source).faults(faults)
                     .maxParallelDecodes(workers).backgroundNice(nice).build()) {
            long started = System.nanoTime();
            System.out.printf(Locale.ROOT, "  (weft start-up: %.1f ms, not counted)%n", (started - t0) / 1e6);
            System.out.printf(Locale.ROOT, "cold-ms %.3f%n", weftLoad(new LevelLoader(assets), level) / 1e6);
        }
    }

    /** The whole level through the Weft loader: request to ready, then unload (so the next round is cold I/O-wise too). */
    static long weftLoad(LevelLoader loader, String level) {
        LevelLoad load = loader.load(level);
        if (!load.awaitDone(Duration.ofMinutes(5))) {
            throw new IllegalStateException("level " + level + " did not load in 5 minutes");
        }
        if (load.level().isEmpty() || !load.failures().isEmpty()) {
            throw new IllegalStateException("level " + level + " failed: " + load.failures());
        }
        long nanos = load.totalNanos();
        load.unload();
        return nanos;
    }

    /**
     * The baseline: the same functions, in load order, on the calling thread: read (with the same injected
     * latency, slept), decode PNG, parse OBJ, build each BVH after its mesh, place entities, free pixels.
     */
    static long serialLoad(AssetSource source, FaultPlan faults, String level) throws IOException {
        long t0 = System.nanoTime();
        String dir = level + "/";
        LevelFile file = LevelFile.parse(source.displayName(dir + level + ".level"),
                new String(read(source, faults, dir + level + ".level"), StandardCharsets.UTF_8));
        Map<String, TextureData> textures = new HashMap<>();
        Map<String, MeshData> meshes = new HashMap<>();
        Map<String, CollisionMesh> collisions = new HashMap<>();
        try {
            for (LevelAsset a : file.loadOrder()) {
                switch (a.kind()) {
                    case TEXTURE -> textures.put(a.name(), PngDecoder.decode(source.displayName(dir + a.path()),
                            read(source, faults, dir + a.path())));
                    case MESH -> meshes.put(a.name(), ObjParser.parse(source.displayName(dir + a.path()),
                            read(source, faults, dir + a.path())));
                    case COLLISION -> collisions.put(a.name(), CollisionMesh.build(meshes.get(a.dependsOn().get(0))));
                }
            }
            List<Object> placed = new ArrayList<>();
            for (LevelEntity e : file.entities()) {
                placed.add(List.of(meshes.get(e.mesh()), textures.get(e.texture()),
                        e.collision() == null ? "" : collisions.get(e.collision())));
            }
            if (placed.size() != file.entities().size() || textures.size() != file.assets(AssetKind.TEXTURE).size()) {
                throw new IllegalStateException("serial load lost something");
            }
            return System.nanoTime() - t0;
        } finally {
            textures.values().forEach(TextureData::close);
        }
    }

    private static byte[] read(AssetSource source, FaultPlan faults, String path) throws IOException {
        long latency = faults.latencyNanos(path);
        if (latency > 0) {
            try {
                TimeUnit.NANOSECONDS.sleep(latency);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted", e);
            }
        }
        faults.checkRead(path, source.displayName(path));
        return faults.corrupt(path, source.read(path));
    }

    private static FaultPlan latency(long ms) {
        return ms <= 0 ? FaultPlan.NONE : FaultPlan.builder().latency("*", Duration.ofMillis(ms)).build();
    }

    // ------------------------------------------------------------------ plumbing

    private record Child(int exitCode, String output) {}

    /**
     * Runs this class in a fresh JVM with Weft's flags; {@code inherit} passes its output straight through.
     * Ending this JVM ends the child too.
     */
    private static Child runChild(List<String> args, boolean inherit) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<String> cmd = new ArrayList<>(List.of(java));
        cmd.addAll(JVM_FLAGS);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), LevelLoadBenchmark.class.getName()));
        cmd.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        if (inherit) {
            pb.inheritIO();
        }
        try (ChildProcess child = ChildProcess.start(pb)) {
            Process p = child.process();
            String out = inherit ? "" : new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            int code = p.waitFor();
            if (!inherit && code != 0) {
                throw new IllegalStateException("child JVM failed (" + code + "): " + String.join(" ", cmd) + "\n" + out);
            }
            return new Child(code, out);
        }
    }

    private static double parseChildMs(Child c) {
        for (String line : c.output.split("\n")) {
            if (line.startsWith("cold-ms ")) {
                return Double.parseDouble(line.substring("cold-ms ".length()).trim());
            }
            if (!line.isBlank()) {
                System.out.println(line);
            }
        }
        throw new IllegalStateException("child printed no time:\n" + c.output);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static String fmt(double[] v) {
        StringBuilder b = new StringBuilder();
        for (double d : v) {
            b.append(String.format(Locale.ROOT, "%.1f ", d));
        }
        return b.toString().trim();
    }
}
