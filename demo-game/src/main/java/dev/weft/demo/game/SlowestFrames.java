package dev.weft.demo.game;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code capacity} longest frames of a run and their numbers, for finding where a spike came from
 * (the first frame after loading, a GC, a stall) when the percentiles only say that one happened.
 * {@link #record} allocates nothing; main thread only.
 */
final class SlowestFrames {
    private final int[] frame;
    private final long[] nanos;      // descending; frame[i] took nanos[i]
    private int size;

    SlowestFrames(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be >= 1: " + capacity);
        }
        frame = new int[capacity];
        nanos = new long[capacity];
    }

    /** Frame {@code number} took {@code frameNanos}. */
    void record(int number, long frameNanos) {
        if (size == nanos.length && frameNanos <= nanos[size - 1]) {
            return;
        }
        int i = size == nanos.length ? size - 1 : size++;
        while (i > 0 && nanos[i - 1] < frameNanos) {     // insertion: keep descending order, ties by frame number
            nanos[i] = nanos[i - 1];
            frame[i] = frame[i - 1];
            i--;
        }
        nanos[i] = frameNanos;
        frame[i] = number;
    }

    /** Frame number to milliseconds, longest first. */
    Map<Integer, Double> asMillis() {
        Map<Integer, Double> m = new LinkedHashMap<>();
        for (int i = 0; i < size; i++) {
            m.put(frame[i], nanos[i] / 1e6);
        }
        return m;
    }
}
