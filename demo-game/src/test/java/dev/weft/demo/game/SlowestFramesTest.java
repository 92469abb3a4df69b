package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class SlowestFramesTest {

    @Test
    void keepsTheLongestFramesLongestFirstAgainstASort() {
        SplittableRandom rnd = new SplittableRandom(7);
        for (int run = 0; run < 200; run++) {
            int n = rnd.nextInt(0, 40);
            int k = rnd.nextInt(1, 8);
            SlowestFrames slowest = new SlowestFrames(k);
            List<long[]> all = new ArrayList<>();
            for (int f = 0; f < n; f++) {
                long nanos = rnd.nextLong(1, 50) * 1_000_000L;   // ties are likely: the earlier frame stays first
                slowest.record(f, nanos);
                all.add(new long[] {f, nanos});
            }
            all.sort(Comparator.<long[]>comparingLong(a -> -a[1]).thenComparingLong(a -> a[0]));
            Map<Integer, Double> expected = new LinkedHashMap<>();
            for (int i = 0; i < Math.min(k, n); i++) {
                expected.put((int) all.get(i)[0], all.get(i)[1] / 1e6);
            }
            assertEquals(List.copyOf(expected.entrySet()), List.copyOf(slowest.asMillis().entrySet()), "run " + run);
        }
        assertThrows(IllegalArgumentException.class, () -> new SlowestFrames(0));
    }
}
