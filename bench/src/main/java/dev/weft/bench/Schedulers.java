package dev.weft.bench;

import java.util.List;

/** Creates a {@link SchedulerUnderTest} by the name used in the benchmarks' {@code system} parameter. */
public final class Schedulers {
    /** The systems every workload compares, in the order tables list them. */
    public static final List<String> SYSTEMS = List.of("weft", "forkjoin", "vthreads");

    /** The most workers a system here takes: JobSystemBuilder.workers' range (1 to 1024). */
    public static final int MAX_WORKERS = 1024;

    private Schedulers() {
    }

    /**
     * @param system  one of {@link #SYSTEMS}
     * @param workers worker threads for Weft and fork-join; the JDK's default virtual-thread scheduler
     *                has one per available processor and ignores this (it cannot be set per pool)
     */
    public static SchedulerUnderTest create(String system, int workers) {
        return switch (system) {
            case "weft" -> new WeftScheduler(workers);
            case "forkjoin" -> new ForkJoinScheduler(workers);
            case "vthreads" -> new VirtualThreadScheduler();
            default -> throw new IllegalArgumentException("unknown system '" + system + "', expected one of " + SYSTEMS);
        };
    }
}
