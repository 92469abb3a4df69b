package dev.weft.assets;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;

/**
 * Injected I/O latency, read failures, corrupted bytes and extra decode cost, per path, for tests and
 * for demonstrating the loader on a machine whose disk is too fast to show anything.
 *
 * <pre>{@code
 * FaultPlan faults = FaultPlan.builder()
 *         .latency("*.png", Duration.ofMillis(100))      // every texture read takes 100 ms more
 *         .latency("*.obj", Duration.ofMillis(200))
 *         .cpu("collision:*", Duration.ofMillis(50))     // each BVH build costs 50 ms more CPU
 *         .failRead("demo/textures/moss_256.png", "disk on fire")
 *         .truncate("demo/meshes/rock.obj", 1000)
 *         .build();
 * }</pre>
 *
 * <p>Patterns are globs where {@code *} matches any run of characters (including {@code /}); anything
 * else is literal. I/O rules ({@link Builder#latency}, {@link Builder#failRead}, {@link Builder#corrupt})
 * match the source path; {@link Builder#cpu} rules match the asset id ({@code texture:path},
 * {@code mesh:path}, {@code collision:meshPath}). Within each kind of rule the first match wins.
 * Immutable and thread-safe.
 */
public final class FaultPlan {
    /** No faults. */
    public static final FaultPlan NONE = builder().build();

    private record Rule<T>(Pattern pattern, T value) {}

    private final List<Rule<Duration>> latencies;
    private final List<Rule<String>> failures;
    private final List<Rule<UnaryOperator<byte[]>>> corruptions;
    private final List<Rule<Duration>> cpu;

    private FaultPlan(Builder b) {
        latencies = List.copyOf(b.latencies);
        failures = List.copyOf(b.failures);
        corruptions = List.copyOf(b.corruptions);
        cpu = List.copyOf(b.cpu);
    }

    /**
     * Starts a plan with no rules.
     *
     * @return a new, empty builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Extra latency before the read of {@code path}, in nanoseconds.
     *
     * @param path the source path to be read
     * @return the latency of the first matching rule in nanoseconds, or 0 if none matches
     */
    public long latencyNanos(String path) {
        Duration d = first(latencies, path);
        return d == null ? 0L : d.toNanos();
    }

    /**
     * Throws the injected read failure of {@code path}, if there is one; checked before the source is
     * touched, so a missing file can be made to fail differently too.
     *
     * @param path the source path to be read
     * @param displayName how the file is named in the exception's message
     * @throws IOException the injected failure, if a rule matches {@code path}
     */
    public void checkRead(String path, String displayName) throws IOException {
        String failure = first(failures, path);
        if (failure != null) {
            throw new IOException("injected read failure for " + displayName + ": " + failure);
        }
    }

    /**
     * What the read of {@code path} delivers given the real bytes: the same, or corrupted.
     *
     * @param path the source path that was read
     * @param bytes the bytes the source delivered
     * @return {@code bytes} if no rule matches, else what the first matching rule made of them
     */
    public byte[] corrupt(String path, byte[] bytes) {
        UnaryOperator<byte[]> corrupt = first(corruptions, path);
        return corrupt == null ? bytes : corrupt.apply(bytes);
    }

    /**
     * Extra CPU time for decoding or building {@code id}, in nanoseconds.
     *
     * @param id the asset being decoded or built
     * @return the extra CPU time of the first matching rule in nanoseconds, or 0 if none matches
     */
    public long cpuNanos(AssetId id) {
        Duration d = first(cpu, id.toString());
        return d == null ? 0L : d.toNanos();
    }

    /** Busy-spins for the extra CPU time of {@code id}: simulated decode cost that occupies the worker. */
    void burnCpu(AssetId id) {
        long nanos = cpuNanos(id);
        if (nanos > 0) {
            long end = System.nanoTime() + nanos;
            while (System.nanoTime() - end < 0) {
                Thread.onSpinWait();
            }
        }
    }

    private static <T> T first(List<Rule<T>> rules, String key) {
        for (Rule<T> r : rules) {
            if (r.pattern.matcher(key).matches()) {
                return r.value;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "FaultPlan[" + latencies.size() + " latency, " + failures.size() + " failure, " + corruptions.size()
                + " corruption, " + cpu.size() + " cpu rules]";
    }

    /** Collects rules; see the class comment. */
    public static final class Builder {
        private final List<Rule<Duration>> latencies = new ArrayList<>();
        private final List<Rule<String>> failures = new ArrayList<>();
        private final List<Rule<UnaryOperator<byte[]>>> corruptions = new ArrayList<>();
        private final List<Rule<Duration>> cpu = new ArrayList<>();

        private Builder() {}

        /**
         * Reads of matching paths complete {@code latency} later (the I/O thread is not held meanwhile).
         *
         * @param pathGlob the source paths the rule applies to
         * @param latency the extra latency; not negative
         * @return this builder
         * @throws IllegalArgumentException if {@code latency} is negative
         */
        public Builder latency(String pathGlob, Duration latency) {
            if (latency.isNegative()) {
                throw new IllegalArgumentException("negative latency " + latency);
            }
            latencies.add(new Rule<>(glob(pathGlob), latency));
            return this;
        }

        /**
         * Reads of matching paths fail with an {@link IOException} saying {@code reason}.
         *
         * @param pathGlob the source paths the rule applies to
         * @param reason the exception's message; not null
         * @return this builder
         */
        public Builder failRead(String pathGlob, String reason) {
            failures.add(new Rule<>(glob(pathGlob), Objects.requireNonNull(reason, "reason")));
            return this;
        }

        /**
         * Reads of matching paths deliver {@code corrupt.apply(realBytes)}.
         *
         * @param pathGlob the source paths the rule applies to
         * @param corrupt given the real bytes, returns what the read delivers; not null
         * @return this builder
         */
        public Builder corrupt(String pathGlob, UnaryOperator<byte[]> corrupt) {
            corruptions.add(new Rule<>(glob(pathGlob), Objects.requireNonNull(corrupt, "corrupt")));
            return this;
        }

        /**
         * Reads of matching paths deliver only the first {@code keepBytes} bytes (a short read).
         *
         * @param pathGlob the source paths the rule applies to
         * @param keepBytes how many bytes to keep; 0 or more
         * @return this builder
         * @throws IllegalArgumentException if {@code keepBytes} is negative
         */
        public Builder truncate(String pathGlob, int keepBytes) {
            if (keepBytes < 0) {
                throw new IllegalArgumentException("keepBytes < 0");
            }
            return corrupt(pathGlob, b -> Arrays.copyOf(b, Math.min(keepBytes, b.length)));
        }

        /**
         * Decoding or building matching asset ids ({@code kind:path}) costs {@code extra} more CPU (a busy
         * spin).
         *
         * @param assetIdGlob the asset ids the rule applies to, e.g. {@code collision:*}
         * @param extra the extra CPU time; not negative
         * @return this builder
         * @throws IllegalArgumentException if {@code extra} is negative
         */
        public Builder cpu(String assetIdGlob, Duration extra) {
            if (extra.isNegative()) {
                throw new IllegalArgumentException("negative cpu time " + extra);
            }
            cpu.add(new Rule<>(glob(assetIdGlob), extra));
            return this;
        }

        /**
         * Makes the plan, immutable; later calls on this builder do not change it.
         *
         * @return the new plan
         */
        public FaultPlan build() {
            return new FaultPlan(this);
        }

        private static Pattern glob(String glob) {
            Objects.requireNonNull(glob, "glob");
            String[] parts = glob.split("\\*", -1);
            StringBuilder re = new StringBuilder();
            for (int i = 0; i < parts.length; i++) {
                if (i > 0) {
                    re.append(".*");
                }
                if (!parts[i].isEmpty()) {
                    re.append(Pattern.quote(parts[i]));
                }
            }
            return Pattern.compile(re.toString(), Pattern.DOTALL);
        }
    }
}
