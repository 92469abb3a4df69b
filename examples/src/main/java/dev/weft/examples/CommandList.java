package dev.weft.examples;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * One worker's share of a frame's draws: the model matrices each range it built produced, keyed by the
 * range's first entity. Only its own worker adds to it while the frame is built, so it needs no lock;
 * {@link #mergeByRangeStart} reads all of them after the build counter completed (that completion is
 * the happens-before edge) and empties them for the next frame.
 */
public final class CommandList {
    /** Receives one model matrix: 16 floats of {@code models} from {@code offset}. */
    @FunctionalInterface
    public interface ModelSink {
        /** Takes the matrix at {@code models[offset]} to {@code models[offset + 15]}. */
        void accept(float[] models, int offset);
    }

    private record Range(int start, float[] models) {}

    private final List<Range> ranges = new ArrayList<>();

    private CommandList() {}

    /** One list per worker slot ({@code JobSystem.workerSlots()}), indexed by a range job's worker. */
    public static CommandList[] forEach(int workerSlots) {
        if (workerSlots < 1) {
            throw new IllegalArgumentException("workerSlots must be at least 1, was " + workerSlots);
        }
        CommandList[] lists = new CommandList[workerSlots];
        for (int i = 0; i < workerSlots; i++) {
            lists[i] = new CommandList();
        }
        return lists;
    }

    /** Records the matrices built for the range starting at entity {@code rangeStart}. */
    public void add(int rangeStart, float[] models) {
        if (models.length % DrawList.FLOATS_PER_MODEL != 0) {
            throw new IllegalArgumentException("models must hold whole 16-float matrices, had " + models.length);
        }
        ranges.add(new Range(rangeStart, models));
    }

    /**
     * Hands every matrix of every list to {@code sink} in entity order (by range start), whichever worker
     * built which range, then empties the lists. Call only once the frame's build has completed.
     */
    public static void mergeByRangeStart(CommandList[] lists, ModelSink sink) {
        List<Range> all = new ArrayList<>();
        for (CommandList list : lists) {
            all.addAll(list.ranges);
            list.ranges.clear();
        }
        all.sort(Comparator.comparingInt(Range::start));
        for (Range range : all) {
            for (int offset = 0; offset < range.models().length; offset += DrawList.FLOATS_PER_MODEL) {
                sink.accept(range.models(), offset);
            }
        }
    }
}
