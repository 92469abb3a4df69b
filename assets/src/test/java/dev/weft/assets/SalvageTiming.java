package dev.weft.assets;

/**
 * Times {@link LevelFileSalvage#parse} on a big broken level (a measurement, not a test): {@code java
 * dev.weft.assets.SalvageTiming [lines] [errors] [runs]}, default 20,000 lines with 150 bad ones, 5 runs.
 * Prints each run's milliseconds, the repairs and the full parses it took.
 */
final class SalvageTiming {
    private SalvageTiming() {}

    public static void main(String[] args) {
        int lines = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int errors = args.length > 1 ? Integer.parseInt(args[1]) : 150;
        int runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        byte[] level = BrokenLevels.level(lines, errors);
        CodecRegistry codecs = CodecRegistry.defaults();
        for (int run = 1; run <= runs; run++) {
            long start = System.nanoTime();
            String outcome;
            try {
                LevelFileSalvage.Result r = LevelFileSalvage.parse("big", "big.level", level, codecs);
                outcome = r.failures().size() + " repairs, " + r.level().entities().size() + " entities";
            } catch (AssetFormatException e) {
                outcome = "refused: " + e.getMessage().substring(0, Math.min(90, e.getMessage().length()));
            }
            System.out.printf("run %d: %d lines, %d bad: %.0f ms, %s%n", run, lines, errors,
                    (System.nanoTime() - start) / 1e6, outcome);
        }
    }
}
