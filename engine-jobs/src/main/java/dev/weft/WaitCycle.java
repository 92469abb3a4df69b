package dev.weft;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A cycle of parked jobs, each waiting on a counter that only the next one would complete: a deadlock.
 * Found by {@link JobSystem#findWaitCycles()} (and reported by the watchdog).
 *
 * <p>The graph: job A (parked, waiting on counter C) → every parked job B that was submitted with C
 * (B decrements C when it ends). A cycle in it can never make progress.
 *
 * @param entries the jobs of the cycle, each followed by the one it waits for
 */
public record WaitCycle(List<Entry> entries) {

    /**
     * One job of a cycle.
     *
     * @param job     the job's name
     * @param waitsOn the counter it is parked on
     * @param stack   its fiber's stack
     */
    public record Entry(String job, String waitsOn, List<StackTraceElement> stack) {
    }

    /** A cycle and when its oldest wait began ({@link System#nanoTime()}), for the watchdog's report. */
    record Found(WaitCycle cycle, long oldestWaitSinceNanos) {
    }

    /** Finds every elementary cycle reachable among the parked fibers (a snapshot; racy but safe). */
    static List<WaitCycle> find(Iterable<Fiber> fibers) {
        return findTimed(fibers).stream().map(Found::cycle).toList();
    }

    /** {@link #find}, each cycle with the start of its oldest wait. */
    static List<Found> findTimed(Iterable<Fiber> fibers) {
        Map<Counter, List<Fiber>> completers = new IdentityHashMap<>();
        Map<Fiber, WaitNode> waitsOn = new HashMap<>();
        for (Fiber f : fibers) {
            WaitNode n = f.waitNode;
            JobNode j = f.currentJob;
            if (n == null || j == null) {
                continue;
            }
            waitsOn.put(f, n);
            for (JobNode k = j; k != null; k = k.enclosing) {   // every job on this fiber's stack
                if (k.counter != null) {
                    completers.computeIfAbsent(k.counter, c -> new ArrayList<>()).add(f);
                }
                // A handle's joiners wait on a counter of its own, made by the first one that had to wait.
                Counter joined = k instanceof JobHandle<?> h ? h.joinersCounter() : null;
                if (joined != null) {
                    completers.computeIfAbsent(joined, c -> new ArrayList<>()).add(f);
                }
            }
        }
        List<Found> cycles = new ArrayList<>();
        Map<Fiber, Integer> state = new HashMap<>();        // 1 = on the DFS path, 2 = done
        for (Fiber start : waitsOn.keySet()) {
            if (!state.containsKey(start)) {
                dfs(start, waitsOn, completers, state, new ArrayList<>(), cycles);
            }
        }
        return cycles;
    }

    private static void dfs(Fiber f, Map<Fiber, WaitNode> waitsOn, Map<Counter, List<Fiber>> completers,
                            Map<Fiber, Integer> state, List<Fiber> path, List<Found> out) {
        state.put(f, 1);
        path.add(f);
        for (Fiber next : completers.getOrDefault(waitsOn.get(f).counter, List.of())) {
            if (next == f) {                                    // waits on a job below it on its own stack
                JobNode j = f.currentJob;
                String job = j != null ? j.name() : f.thread.getName();
                for (JobNode k = j != null ? j.enclosing : null; k != null; k = k.enclosing) {
                    job += " (run inline inside '" + k.name() + "')";
                }
                out.add(new Found(new WaitCycle(List.of(new Entry(job, waitsOn.get(f).counter.name(),
                        WatchdogReport.stackOf(f.thread)))), waitsOn.get(f).sinceNanos));
                continue;
            }
            Integer s = state.get(next);
            if (s == null && waitsOn.containsKey(next)) {
                dfs(next, waitsOn, completers, state, path, out);
            } else if (s != null && s == 1) {
                List<Entry> entries = new ArrayList<>();
                int from = path.indexOf(next);
                long oldest = waitsOn.get(next).sinceNanos;
                for (int i = from; i < path.size(); i++) {
                    Fiber g = path.get(i);
                    long since = waitsOn.get(g).sinceNanos;
                    if (since - oldest < 0) {                   // nanoTime: compare by difference
                        oldest = since;
                    }
                    JobNode j = g.currentJob;
                    String job = j != null ? j.name() : g.thread.getName();
                    for (JobNode k = j != null ? j.enclosing : null; k != null; k = k.enclosing) {
                        job += " (run inline inside '" + k.name() + "')";
                    }
                    entries.add(new Entry(job, waitsOn.get(g).counter.name(), WatchdogReport.stackOf(g.thread)));
                }
                out.add(new Found(new WaitCycle(List.copyOf(entries)), oldest));
            }
        }
        path.remove(path.size() - 1);
        state.put(f, 2);
    }
}
