package dev.weft.bench.streaming;

import java.util.List;

/**
 * One system configuration of the streaming benchmark. The Weft variants switch the three mechanisms
 * that keep streaming off the frame: the BACKGROUND worker cap ({@code cap}; off is
 * {@code maxWorkers(BACKGROUND, workers)}), {@code Jobs.checkpoint()} in the decode loop
 * ({@code checkpoints}) and the main thread running FRAME jobs while it waits ({@code waitersHelp}).
 *
 * @param system {@code weft}, {@code forkjoin} or {@code vthreads}
 */
record Variant(String name, String system, boolean cap, boolean checkpoints, boolean waitersHelp) {

    /** Every variant, in the order the report lists them. */
    static final List<Variant> ALL = List.of(
            weft("weft", true, true, true),
            weft("weft-cap-off", false, true, true),
            weft("weft-checkpoints-off", true, false, true),
            weft("weft-waitersHelp-off", true, true, false),
            weft("weft-all-off", false, false, false),
            new Variant("forkjoin", "forkjoin", false, false, false),
            new Variant("vthreads", "vthreads", false, false, false));

    private static Variant weft(String name, boolean cap, boolean checkpoints, boolean waitersHelp) {
        return new Variant(name, "weft", cap, checkpoints, waitersHelp);
    }

    /** The variant named {@code name}. */
    static Variant named(String name) {
        for (Variant v : ALL) {
            if (v.name.equals(name)) {
                return v;
            }
        }
        throw new IllegalArgumentException("unknown variant '" + name + "'; expected some of "
                + ALL.stream().map(Variant::name).toList());
    }

    /** What is on, as the report's description column says it. */
    String mechanisms() {
        if (!system.equals("weft")) {
            return system.equals("forkjoin")
                    ? "ForkJoinPool(workers): frame invoke(RecursiveAction), assets submit() + managedBlock read"
                    : "default vthread scheduler: frame one vthread per range, assets newVirtualThreadPerTaskExecutor";
        }
        return "cap " + onOff(cap) + ", checkpoints " + onOff(checkpoints) + ", waitersHelp " + onOff(waitersHelp);
    }

    private static String onOff(boolean on) {
        return on ? "on" : "off";
    }

    StreamSystem create(int workers) {
        return switch (system) {
            case "weft" -> new WeftStreamSystem(this, workers);
            case "forkjoin" -> JdkStreamSystem.forkJoin(workers);
            case "vthreads" -> JdkStreamSystem.virtualThreads();
            default -> throw new IllegalStateException("unknown system " + system);
        };
    }
}
