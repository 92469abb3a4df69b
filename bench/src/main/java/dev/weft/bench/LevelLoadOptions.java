package dev.weft.bench;

import java.util.ArrayList;
import java.util.List;

/**
 * {@link LevelLoadBenchmark}'s command line. {@link #parse} checks every value before anything runs and
 * throws {@link IllegalArgumentException} with a message that names the option, what it got and what it
 * wants; the benchmark prints it and exits 2, as the demo and the frame profiler do.
 *
 * @param child {@code serial} or {@code weft} in a cold child JVM the benchmark starts, else null
 */
record LevelLoadOptions(String level, int rounds, int workers, long latencyMs, int nice, boolean cold, boolean verbose,
                        String child, boolean help) {

    static final String USAGE = """
            Usage: LevelLoadBenchmark [options]
            Loads a level cold (fresh JVMs) and warm on Weft and serially on one thread; prints serial/weft.
              --level NAME      level to load (default demo; tiny is the smallest)
              --rounds N        warm rounds per loader, after 2 warm-up rounds each, at least 1 (default 5)
              --workers N       Weft workers, 1..1024 (default: available processors)
              --latency-ms MS   injected latency per file read, both loaders, 0 or more (default 0: the real jar)
              --nice N          Weft's background nice, 0..19 (default 0 here, so both loaders compete for the
                                CPU alike; the game's default is 10, which matters only when no core is idle)
              --no-cold         skip the two cold child JVMs
              --verbose         print the per-asset timelines of one more Weft round
              -h, --help        print this and exit
            Exit status: 0 ran, 2 bad option.
            """;

    static LevelLoadOptions parse(String... args) {
        String level = "demo";
        int rounds = 5;
        int workers = Runtime.getRuntime().availableProcessors();
        long latencyMs = 0;
        int nice = 0;
        boolean cold = true;
        boolean verbose = false;
        boolean help = false;
        String child = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            switch (option) {
                case "-h", "--help" -> help = true;
                case "--no-cold" -> cold = false;
                case "--verbose" -> verbose = true;
                case "--level", "--rounds", "--workers", "--latency-ms", "--nice", "--child" -> {
                    if (i + 1 >= args.length) {
                        throw new IllegalArgumentException(option + " needs a value");
                    }
                    String v = args[++i];
                    switch (option) {
                        case "--level" -> level = nonBlank(option, v);
                        case "--rounds" -> rounds = (int) number(option, v, 1, Integer.MAX_VALUE, "at least 1");
                        case "--workers" -> workers = (int) number(option, v, 1, 1024, "1..1024");
                        case "--latency-ms" -> latencyMs = number(option, v, 0, Long.MAX_VALUE / 1_000_000, "0 or more");
                        case "--nice" -> nice = (int) number(option, v, 0, 19, "0..19");
                        default -> child = child(v);
                    }
                }
                default -> throw new IllegalArgumentException("unknown option " + option
                        + " (--level, --rounds, --workers, --latency-ms, --nice, --no-cold, --verbose, --help)");
            }
        }
        return new LevelLoadOptions(level, rounds, workers, latencyMs, nice, cold, verbose, child, help);
    }

    /** The options a cold child JVM needs to load the same level the same way. */
    List<String> childArgs(String mode) {
        return new ArrayList<>(List.of("--child", mode, "--level", level, "--workers", "" + workers,
                "--latency-ms", "" + latencyMs, "--nice", "" + nice));
    }

    private static long number(String option, String value, long min, long max, String range) {
        long n;
        try {
            n = Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " wants a whole number, " + range + ", got '" + value + "'");
        }
        if (n < min || n > max) {
            String wanted = n > max && !range.contains("..") ? "at most " + max : range;
            throw new IllegalArgumentException(option + " must be " + wanted + ", got " + n);
        }
        return n;
    }

    private static String nonBlank(String option, String value) {
        if (value.isBlank()) {
            throw new IllegalArgumentException(option + " needs a level name, e.g. demo");
        }
        return value;
    }

    private static String child(String mode) {
        if (!mode.equals("serial") && !mode.equals("weft")) {
            throw new IllegalArgumentException("--child must be serial or weft, got '" + mode + "' (the benchmark sets it)");
        }
        return mode;
    }
}
