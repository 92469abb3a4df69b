package dev.weft.demo.game;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The slices of a Chrome Trace Event file as {@code JobTrace.writeChromeTrace} writes it: one event per
 * line, B/E pairs per track ({@code tid}), in time order per track. Begin and end in microseconds.
 */
record TraceSlices(List<Slice> slices) {
    record Slice(String name, int track, double beginMicros, double endMicros) {
        boolean overlaps(Slice o) {
            return beginMicros < o.endMicros && o.beginMicros < endMicros;
        }
    }

    private static final Pattern NAME = Pattern.compile("\"name\":\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final Pattern PH = Pattern.compile("\"ph\":\"(.)\"");
    private static final Pattern TS = Pattern.compile("\"ts\":([0-9.]+)");
    private static final Pattern TID = Pattern.compile("\"tid\":([0-9]+)");

    static TraceSlices read(Path file) throws IOException {
        List<Slice> out = new ArrayList<>();
        Map<Integer, ArrayDeque<Object[]>> open = new HashMap<>();   // per track: {name, begin}
        for (String line : Files.readAllLines(file)) {
            Matcher ph = PH.matcher(line);
            if (!ph.find()) {
                continue;
            }
            String phase = ph.group(1);
            if (!phase.equals("B") && !phase.equals("E")) {
                continue;
            }
            int tid = Integer.parseInt(find(TID, line));
            double ts = Double.parseDouble(find(TS, line));
            ArrayDeque<Object[]> stack = open.computeIfAbsent(tid, t -> new ArrayDeque<>());
            if (phase.equals("B")) {
                stack.push(new Object[] {find(NAME, line), ts});
            } else {
                Object[] b = stack.pop();
                out.add(new Slice((String) b[0], tid, (Double) b[1], ts));
            }
        }
        out.sort(Comparator.comparingDouble(Slice::beginMicros));
        return new TraceSlices(out);
    }

    /** The slices named exactly {@code name}, in begin order. */
    List<Slice> named(String name) {
        return slices.stream().filter(s -> s.name().equals(name)).toList();
    }

    private static String find(Pattern p, String line) {
        Matcher m = p.matcher(line);
        if (!m.find()) {
            throw new IllegalArgumentException("no " + p + " in trace line " + line);
        }
        return m.group(1);
    }
}
