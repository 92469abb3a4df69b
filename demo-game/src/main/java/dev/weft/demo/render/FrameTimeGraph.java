package dev.weft.demo.render;

/**
 * The last {@link #capacity()} frame times, for the on-screen graph ({@link Renderer#drawFrameGraph}).
 *
 * <p>A ring buffer of milliseconds; recording is O(1) and allocation-free. Owned by the game loop's
 * thread (not thread-safe).
 *
 * <pre>{@code
 * long last = System.nanoTime();
 * while (running) {
 *     // ... frame ...
 *     long now = System.nanoTime();
 *     graph.recordNanos(now - last);
 *     last = now;
 * }
 * }</pre>
 */
public final class FrameTimeGraph {
    /** Samples kept by default: four seconds at 60 Hz. */
    public static final int DEFAULT_CAPACITY = 240;
    /** One 60 Hz frame: 16.67 ms. */
    public static final double BUDGET_60HZ_MILLIS = 1000.0 / 60.0;

    private final float[] samplesMillis; // ring; samplesMillis[next] is the slot written next
    private final double budgetMillis;
    private int next;                    // index of the slot written next
    private int size;                    // valid samples, <= capacity

    public FrameTimeGraph() {
        this(DEFAULT_CAPACITY, BUDGET_60HZ_MILLIS);
    }

    public FrameTimeGraph(int capacity, double budgetMillis) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("capacity must be positive: " + capacity);
        }
        if (!(budgetMillis > 0.0) || Double.isInfinite(budgetMillis)) {
            throw new IllegalArgumentException("budget must be a positive time: " + budgetMillis);
        }
        this.samplesMillis = new float[capacity];
        this.budgetMillis = budgetMillis;
    }

    /** Records one frame's duration in nanoseconds. */
    public void recordNanos(long frameNanos) {
        recordMillis(frameNanos / 1_000_000.0);
    }

    /** Records one frame's duration in milliseconds; negative or NaN values are stored as 0. */
    public void recordMillis(double frameMillis) {
        float v = frameMillis > 0.0 ? (float) frameMillis : 0f;
        samplesMillis[next] = v;
        next = next + 1 == samplesMillis.length ? 0 : next + 1;
        if (size < samplesMillis.length) {
            size++;
        }
    }

    public int capacity() {
        return samplesMillis.length;
    }

    /** Samples recorded so far, at most {@link #capacity()}. */
    public int size() {
        return size;
    }

    /** The frame budget the graph draws its line at, in milliseconds. */
    public double budgetMillis() {
        return budgetMillis;
    }

    /** Sample {@code i} in milliseconds, 0 being the oldest kept and {@code size() - 1} the newest. */
    public float millisAt(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("sample " + i + " of " + size);
        }
        int oldest = size < samplesMillis.length ? 0 : next;
        int idx = oldest + i;
        return samplesMillis[idx >= samplesMillis.length ? idx - samplesMillis.length : idx];
    }

    /** The newest sample, or 0 when empty. */
    public float latestMillis() {
        return size == 0 ? 0f : millisAt(size - 1);
    }

    public float maxMillis() {
        float max = 0f;
        for (int i = 0; i < size; i++) {
            max = Math.max(max, samplesMillis[i]);
        }
        return max;
    }

    public double meanMillis() {
        if (size == 0) {
            return 0.0;
        }
        double sum = 0.0;
        for (int i = 0; i < size; i++) {
            sum += samplesMillis[i];
        }
        return sum / size;
    }

    /** Samples above the budget. */
    public int overBudgetCount() {
        int n = 0;
        for (int i = 0; i < size; i++) {
            if (samplesMillis[i] > budgetMillis) {
                n++;
            }
        }
        return n;
    }
}
