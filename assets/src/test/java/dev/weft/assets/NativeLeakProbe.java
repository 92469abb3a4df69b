package dev.weft.assets;

import dev.weft.JobSystem;
import java.time.Duration;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.lwjgl.system.Configuration;
import org.lwjgl.system.MemoryUtil;

/**
 * Run in a child JVM by {@link NativeLeakTest}: turns on LWJGL's debug allocator (including stb's own
 * mallocs), loads a level full of broken files, the real {@code tiny} level, and a level unloaded
 * mid-load, unloads everything, and prints the native bytes still live compared with after a warm-up.
 */
public final class NativeLeakProbe {
    private NativeLeakProbe() {}

    public static void main(String[] args) {
        Configuration.DEBUG_MEMORY_ALLOCATOR.set(true);
        Configuration.DEBUG_MEMORY_ALLOCATOR_INTERNAL.set(true);
        byte[] png = Fixture.resource("tiny/textures/grass_64.png");
        byte[] obj = Fixture.resource("tiny/meshes/post.obj");
        byte[] garbage = png.clone();
        for (int i = 33; i < garbage.length - 12; i++) {
            garbage[i] = (byte) (i * 31);
        }
        Map<String, byte[]> files = Fixture.files("bad/bad.level", """
                weft-level 1
                texture good textures/good.png
                texture cut textures/cut.png
                texture garbage textures/garbage.png
                texture missing textures/missing.png
                mesh m meshes/m.obj
                mesh broken meshes/broken.obj
                collision c from broken
                collision loop from loop2
                collision loop2 from loop
                entity a mesh=m texture=good 0 0 0
                entity b mesh=broken texture=cut collision=c 0 0 0
                entity d mesh=m texture=garbage collision=loop 0 0 0
                entity e mesh=nothing texture=missing 0 0 0
                """,
                "bad/textures/good.png", png, "bad/textures/cut.png", Arrays.copyOf(png, png.length / 2),
                "bad/textures/garbage.png", garbage, "bad/meshes/m.obj", obj, "bad/meshes/broken.obj", "v 1 2\n");
        try (JobSystem jobs = JobSystem.builder().name("leak-probe").workers(2).build()) {
            round(jobs, files);                       // warm-up: LWJGL's and stb's lazy allocations happen here
            long baseline = liveBytes();
            for (int i = 0; i < 3; i++) {
                round(jobs, files);
            }
            // close() waits for every load job and lane decode of its manager, but a fiber of the unloaded
            // level may still be unwinding its cancelled wait on a worker: give the last round up to 10 s.
            // A leak stays live past that and is still printed.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while ((liveBytes() != baseline || jobs.stats().fibersParked() != 0) && System.nanoTime() < deadline) {
                Fixture.sleepMs(10);
            }
            System.out.println("live native bytes after 3 rounds: +" + (liveBytes() - baseline) + " (fibers parked "
                    + jobs.stats().fibersParked() + ")");
        }
    }

    private static void round(JobSystem jobs, Map<String, byte[]> files) {
        try (AssetManager bad = AssetManager.builder(jobs).source(AssetSource.inMemory(files)).build();
             AssetManager real = AssetManager.builder(jobs).build();
             AssetManager slow = AssetManager.builder(jobs)
                     .faults(FaultPlan.builder().latency("*.obj", Duration.ofMillis(300)).build()).build()) {
            LevelLoad a = new LevelLoader(bad).load("bad");
            LevelLoad b = new LevelLoader(real).load("tiny");
            LevelLoad c = new LevelLoader(slow).load("tiny");
            await(a);
            await(b);
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (slow.stats().liveTextureData() < 3 && System.nanoTime() < deadline) {
                Fixture.sleepMs(1);                   // textures decoded, meshes still in their latency
            }
            c.unload();                               // mid-load
            await(c);
            if (a.level().isEmpty() || b.level().isEmpty() || a.failures().size() < 6) {
                throw new AssertionError("unexpected load results: " + a.failures() + " / " + b.failures());
            }
            a.unload();
            b.unload();
        }
    }

    private static void await(LevelLoad l) {
        if (!l.awaitDone(Duration.ofSeconds(30))) {
            throw new AssertionError("load hung: " + l);
        }
    }

    private static long liveBytes() {
        AtomicLong total = new AtomicLong();
        MemoryUtil.memReport((address, memory, threadId, threadName, stacktrace) -> total.addAndGet(memory));
        return total.get();
    }
}
