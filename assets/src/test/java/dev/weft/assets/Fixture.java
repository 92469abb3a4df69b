package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.weft.JobSystem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Shared test plumbing: a small job system, classpath bytes, in-memory levels, tear-down checks. */
final class Fixture {
    /** Every wait in these tests is bounded by this (a hang guard, never a speed assertion). */
    static final Duration TIMEOUT = Duration.ofSeconds(60);

    private Fixture() {}

    /** Two workers, like the machine these tests run on. */
    static JobSystem jobs() {
        return JobSystem.builder().name("pipeline-test").workers(2).build();
    }

    /** A file of a generated level, e.g. {@code tiny/textures/decal_16.png}. */
    static byte[] resource(String levelPath) {
        String name = LevelResources.ROOT + levelPath;
        try (InputStream in = Fixture.class.getClassLoader().getResourceAsStream(name)) {
            if (in == null) {
                throw new AssertionError("missing classpath resource " + name + " (is the assets jar installed?)");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] ascii(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

    /** In-memory files: pairs of path and bytes (or String, taken as ASCII text). */
    static Map<String, byte[]> files(Object... pathsAndContents) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (int i = 0; i < pathsAndContents.length; i += 2) {
            Object c = pathsAndContents[i + 1];
            m.put((String) pathsAndContents[i], c instanceof String s ? ascii(s) : (byte[]) c);
        }
        return m;
    }

    /** Level {@code lvl} of one texture, {@code lvl/textures/t0.png}: the smallest level a race test can hold up. */
    static Map<String, byte[]> oneTextureLevel() {
        return files("lvl/lvl.level", "weft-level 1\ntexture t0 textures/t0.png\n",
                "lvl/textures/t0.png", resource("tiny/textures/decal_16.png"));
    }

    /** A source that passes every call to {@code inner}: tests override the call they watch. */
    static class ForwardingSource implements AssetSource {
        final AssetSource inner;

        ForwardingSource(AssetSource inner) {
            this.inner = inner;
        }

        @Override
        public byte[] read(String path) throws IOException {
            return inner.read(path);
        }

        @Override
        public long size(String path) throws IOException {
            return inner.size(path);
        }

        @Override
        public String displayName(String path) {
            return inner.displayName(path);
        }
    }

    /**
     * A source that records which threads called it, so tests can check that no read ever ran on a fiber
     * (a virtual thread) or a worker.
     */
    static class RecordingSource extends ForwardingSource {
        final Set<String> readThreads = ConcurrentHashMap.newKeySet();
        final Map<String, Integer> readsByPath = new ConcurrentHashMap<>();

        RecordingSource(AssetSource inner) {
            super(inner);
        }

        @Override
        public byte[] read(String path) throws IOException {
            record();
            readsByPath.merge(path, 1, Integer::sum);
            return inner.read(path);
        }

        @Override
        public long size(String path) throws IOException {
            record();
            return inner.size(path);
        }

        private void record() {
            Thread t = Thread.currentThread();
            readThreads.add((t.isVirtual() ? "virtual:" : "") + t.getName());
        }

        void assertOnlyIoThreads() {
            for (String t : readThreads) {
                assertTrue(t.startsWith(IoPool.THREAD_PREFIX), "file I/O ran on " + t + ", not an I/O thread: " + readThreads);
            }
        }
    }

    /** Waits (bounded) until no fiber is parked, then asserts it; the loader must leave none behind. */
    static void assertNoFiberParked(JobSystem jobs) {
        waitUpTo(Duration.ofSeconds(10)).untilAsserted(
                () -> assertEquals(0, jobs.stats().fibersParked(), "fibers left parked: " + jobs.stats()));
    }

    /**
     * The one way these tests wait for something (Awaitility): polls every 5 ms on the calling thread, so
     * a condition may run main-thread jobs (the test thread is the job system's main thread), for at
     * most {@code atMost}; on timeout the last assertion's message says what was not reached.
     */
    static org.awaitility.core.ConditionFactory waitUpTo(Duration atMost) {
        return org.awaitility.Awaitility.await().atMost(atMost).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(5)).pollInSameThread();
    }

    /** Waits (bounded) until every decoded texture was freed, then asserts it. */
    static void assertNoLiveTextures(AssetManager assets) {
        waitUpTo(Duration.ofSeconds(10)).untilAsserted(
                () -> assertEquals(0, assets.stats().liveTextureData(), "TextureData not freed: " + assets.stats()));
    }

    /**
     * Every asset entry released. After an unload mid-load this is not immediate: a cancelled collision
     * build holds its mesh until its job wakes with the cancellation and runs its finally, which can be
     * after the level job has ended.
     */
    static void assertNoEntries(AssetManager assets) {
        waitUpTo(Duration.ofSeconds(10)).untilAsserted(
                () -> assertEquals(0, assets.stats().entries(), "every asset released: " + assets.stats()));
    }

    static void sleepMs(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    static void awaitLoad(LevelLoad load) {
        assertTrue(load.awaitDone(TIMEOUT), "level " + load.levelName() + " still loading after " + TIMEOUT + ": " + load);
    }

    static String join(List<?> items) {
        StringBuilder b = new StringBuilder();
        for (Object o : items) {
            b.append("\n  ").append(o);
        }
        return b.toString();
    }
}
