package dev.weft;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A cycle of waiting jobs, each waiting on a counter that only the next one would complete: a deadlock.
 * Found by {@link JobSystem#findWaitCycles()} (and reported by the watchdog).
 *
 * <p>The graph's vertices are the jobs that wait: a job parked on its fiber in a counter wait (a handle's
 * join is one: on the handle's own counter), and a job submitted through {@link JobSystem#after} whose
 * prerequisites have not all completed (it has no fiber yet; it waits as a continuation node on each
 * prerequisite's counter). An edge goes from such a job, through a counter it waits for to reach zero, to
 * every waiting job that counter counts: each job submitted with it (on a fiber, every job on its stack,
 * so a job run inline below the waiter counts too), and a handle's job for the counter its joiners and its
 * {@code after(handle)} dependents wait on. A job that runs or is queued is no vertex: it will end, so a
 * chain through it resolves. In a cycle, no job can end before the one after it ended, so none ever does.
 *
 * <p>A wait for a value above zero ({@link Counter#await(long)} with a target: "until at most N remain")
 * may end while the counter still counts waiting jobs, once others it counts have ended, so it is an
 * edge only when it can never end: when more than its target of the jobs its counter counts are jobs
 * that can never end themselves. Those are the greatest set of waiting jobs in which each has a wait
 * whose counter counts more of the set's jobs than the wait's target (zero for every other wait): found
 * by removing, until none is left to remove, each job whose waits could all end if the jobs removed so
 * far ended. Such a wait's edges go only to jobs of that set. Before, no such wait was an edge, and a
 * cycle through one (a level's finisher awaiting {@code chunks.await(1)} while the chunks wait for the
 * finisher) hung with nothing reported.
 *
 * @param entries the jobs of the cycle, each followed by the one it waits for
 */
public record WaitCycle(List<Entry> entries) {

    /**
     * One job of a cycle.
     *
     * @param job     the job's name
     * @param waitsOn the counter it waits on, parked or for its prerequisites, that the next job would complete
     *                (for a wait with a target above zero, followed by {@code " (until at most N remain)"})
     * @param stack   its fiber's stack; empty for a job still waiting for its prerequisites (it has no fiber yet)
     */
    public record Entry(String job, String waitsOn, List<StackTraceElement> stack) {
    }

    /**
     * A cycle, when its oldest wait began ({@link System#nanoTime()}), the names of its jobs that wait
     * for their prerequisites (not started), for the watchdog's report, and the wait nodes it goes through:
     * the watchdog's key for "reported already" (the same cycle found again has the same nodes; one formed
     * again by the next level load, with the same job and counter names, has new ones).
     */
    record Found(WaitCycle cycle, long oldestWaitSinceNanos, List<String> notStarted, List<WaitNode> waits) {
    }

    /** Finds cycles among the parked fibers and the jobs waiting for prerequisites (a snapshot; racy but safe). */
    static List<WaitCycle> find(Iterable<Fiber> fibers, PendingJobs pending) {
        return findTimed(fibers, pending).stream().map(Found::cycle).toList();
    }

    /**
     * {@link #find}, each cycle with the start of its oldest wait. A depth-first search from every waiting
     * job; each back edge is a cycle (one per back edge, so not every elementary cycle of a tangle). Every
     * cycle is checked again once found: each of its waits must still be the same wait node, still WAITING.
     * A node leaves WAITING once and never comes back, and each was WAITING when the snapshot read it, so
     * all of them were waiting together at the end of the snapshot: the cycle existed then, and a cycle
     * never ends by itself. A wait that ended while the snapshot was taken drops its cycle, so a chain that
     * was resolving is not reported from stale reads.
     */
    static List<Found> findTimed(Iterable<Fiber> fibers, PendingJobs pending) {
        Map<Counter, List<Waiter>> completers = new IdentityHashMap<>();
        List<Waiter> waiters = new ArrayList<>();
        for (Fiber f : fibers) {
            // waitNode is volatile and written after currentJob (Fiber.beginWait): reading it first, we see
            // this wait's job or a later one; a later one means the wait ended, which the re-check catches.
            WaitNode n = f.waitNode;
            JobNode j = f.currentJob;
            if (n == null || j == null) {
                continue;
            }
            Waiter w = new Waiter(f, j, List.of(n));
            waiters.add(w);
            for (JobNode k = j; k != null; k = k.enclosing) {   // every job on this fiber's stack
                countedBy(k, w, completers);
            }
        }
        // Jobs waiting for prerequisites: a weakly consistent walk of PendingJobs' map (no lock). A job's
        // counter was written before the map's put that published it; its nodes are read volatile.
        pending.forEach((job, release) -> {
            List<WaitNode> nodes = new ArrayList<>(1);
            release.forEachWaiting(nodes::add);
            if (!nodes.isEmpty()) {            // none: being released (it will run) or still registering
                Waiter w = new Waiter(null, job, List.copyOf(nodes));
                waiters.add(w);
                countedBy(job, w, completers);
            }
        });
        Set<Waiter> neverEnding = neverEnding(waiters, completers);
        List<Found> cycles = new ArrayList<>();
        Map<Waiter, Boolean> onPath = new IdentityHashMap<>();    // true: on the DFS path; false: done
        for (Waiter start : waiters) {
            if (!onPath.containsKey(start)) {
                search(start, completers, neverEnding, onPath, cycles);
            }
        }
        // A cycle through a wait with a target rests on every job of the never-ending set, not only on its
        // own: all must still be in the waits the snapshot read (each left WAITING at most once, so then they
        // were all waiting together at the end of the snapshot), or a chain that was resolving is dropped.
        if (cycles.stream().anyMatch(f -> f.waits().stream().anyMatch(n -> n.target > 0))
                && !neverEnding.stream().allMatch(Waiter::stillWaitsAll)) {
            cycles.removeIf(f -> f.waits().stream().anyMatch(n -> n.target > 0));
        }
        return cycles;
    }

    /**
     * The waiting jobs that can never end, as far as the snapshot shows (see the class comment): all of them
     * at first; a job whose every wait's counter counts at most its target of the set's jobs leaves the set,
     * and each wait on a counter that counts it then has that many fewer. A job that runs or is queued
     * counts as one that will end. Linear in the waits and jobs seen: a worklist, not repeated passes.
     */
    private static Set<Waiter> neverEnding(List<Waiter> waiters, Map<Counter, List<Waiter>> completers) {
        Map<Counter, Waited> waited = new IdentityHashMap<>();
        for (Waiter w : waiters) {
            for (WaitNode n : w.waits) {
                Waited d = waited.computeIfAbsent(n.counter, c -> {
                    long units = 0;
                    for (Waiter k : completers.getOrDefault(c, List.of())) {
                        units += k.unitsOn(c);
                    }
                    return new Waited(units);
                });
                d.maxTarget = Math.max(d.maxTarget, n.target);
                if (d.waiters.isEmpty() || d.waiters.get(d.waiters.size() - 1) != w) {
                    d.waiters.add(w);
                }
            }
        }
        Set<Waiter> set = Collections.newSetFromMap(new IdentityHashMap<>());
        set.addAll(waiters);
        ArrayDeque<Waiter> leaving = new ArrayDeque<>();
        for (Waiter w : waiters) {
            if (!w.stuck(waited)) {
                set.remove(w);
                leaving.add(w);
            }
        }
        while (!leaving.isEmpty()) {
            Waiter gone = leaving.poll();
            for (JobNode k = gone.job; k != null; k = gone.fiber != null ? k.enclosing : null) {
                Counter joined = k instanceof JobHandle<?> h ? h.joinersCounter() : null;
                for (Counter c : new Counter[] {k.counter, joined}) {
                    Waited d = c != null ? waited.get(c) : null;
                    // Its waiters are looked at again only once the count is down to a target among them:
                    // 5,000 after() jobs on one counter of 5,000 parked jobs are looked at once, not 5,000 times.
                    if (d == null || --d.left > d.maxTarget) {
                        continue;
                    }
                    for (Waiter v : d.waiters) {
                        if (set.contains(v) && !v.stuck(waited)) {
                            set.remove(v);
                            leaving.add(v);
                        }
                    }
                }
            }
        }
        return set;
    }

    /** A counter some job waits on: how many jobs of the never-ending set it counts, and who waits on it. */
    private static final class Waited {
        long left;
        long maxTarget;
        final List<Waiter> waiters = new ArrayList<>(1);

        Waited(long units) {
            left = units;
        }
    }

    /** {@code w} ends only when {@code k} has ended (k is w's job, or runs inline below it): k's counters. */
    private static void countedBy(JobNode k, Waiter w, Map<Counter, List<Waiter>> completers) {
        if (k.counter != null) {
            add(completers, k.counter, w);
        }
        // A handle's joiners and after(handle) dependents wait on a counter of its own, made on first need.
        Counter joined = k instanceof JobHandle<?> h ? h.joinersCounter() : null;
        if (joined != null) {
            add(completers, joined, w);
        }
    }

    private static void add(Map<Counter, List<Waiter>> completers, Counter c, Waiter w) {
        List<Waiter> ws = completers.computeIfAbsent(c, x -> new ArrayList<>());
        if (ws.isEmpty() || ws.get(ws.size() - 1) != w) {   // two jobs of one fiber on one counter: one edge
            ws.add(w);
        }
    }

    /** Iterative depth-first search: a chain of thousands of after() jobs must not overflow the stack. */
    private static void search(Waiter start, Map<Counter, List<Waiter>> completers, Set<Waiter> neverEnding,
                               Map<Waiter, Boolean> onPath, List<Found> out) {
        List<Frame> path = new ArrayList<>();
        path.add(new Frame(start));
        onPath.put(start, true);
        while (!path.isEmpty()) {
            Frame top = path.get(path.size() - 1);
            Waiter next = top.nextEdge(completers, neverEnding);
            if (next == null) {
                path.remove(path.size() - 1);
                onPath.put(top.waiter, false);
                continue;
            }
            Boolean s = onPath.get(next);
            if (s == null) {
                onPath.put(next, true);
                path.add(new Frame(next));
            } else if (s) {                                     // a back edge: next .. top is a cycle
                int from = 0;
                while (path.get(from).waiter != next) {
                    from++;
                }
                Found f = cycle(path.subList(from, path.size()));
                if (f != null) {
                    out.add(f);
                }
            }
        }
    }

    /** The cycle along {@code frames}, each through the wait it is following; null if one wait has ended. */
    private static Found cycle(List<Frame> frames) {
        List<Entry> entries = new ArrayList<>(frames.size());
        List<String> notStarted = new ArrayList<>();
        List<WaitNode> waits = new ArrayList<>(frames.size());
        long oldest = frames.get(0).following().sinceNanos;
        for (Frame fr : frames) {
            WaitNode n = fr.following();
            waits.add(n);
            if (n.sinceNanos - oldest < 0) {                    // nanoTime: compare by difference
                oldest = n.sinceNanos;
            }
            Waiter w = fr.waiter;
            String waitsOn = n.target == 0 ? n.counter.name()
                    : n.counter.name() + " (until at most " + n.target + " remain)";
            entries.add(new Entry(w.name(), waitsOn,
                    w.fiber != null ? WatchdogReport.stackOf(w.fiber.thread) : List.of()));
            if (w.fiber == null) {
                notStarted.add(w.job.name());
            }
        }
        for (Frame fr : frames) {                               // after the stacks: they show a waiting job
            if (!fr.waiter.stillWaits(fr.following())) {
                return null;
            }
        }
        return new Found(new WaitCycle(List.copyOf(entries)), oldest, List.copyOf(notStarted), List.copyOf(waits));
    }

    /**
     * A waiting job: parked on {@code fiber} (its innermost job {@code job}), or, with no fiber, a job
     * waiting for its prerequisites. {@code waits}: the wait nodes seen WAITING (a fiber's one, whatever its
     * target; a pending job's, each with target 0).
     * Kept in identity maps: a vertex is this object, whatever its fields.
     */
    private record Waiter(Fiber fiber, JobNode job, List<WaitNode> waits) {

        String name() {
            String name = job.name();
            for (JobNode k = fiber != null ? job.enclosing : null; k != null; k = k.enclosing) {
                name += " (run inline inside '" + k.name() + "')";
            }
            return name;
        }

        /** Still in the wait {@code n}: a node leaves WAITING once; a fiber parks in a new node for each wait. */
        boolean stillWaits(WaitNode n) {
            return n.isWaiting() && (fiber == null || fiber.waitNode == n);
        }

        /** Still in every wait the snapshot saw it in. */
        boolean stillWaitsAll() {
            return waits.stream().allMatch(this::stillWaits);
        }

        /** How many of its jobs (its own and, on a fiber, those below it) {@code c} counts: each ends once. */
        long unitsOn(Counter c) {
            long units = 0;
            for (JobNode k = job; k != null; k = fiber != null ? k.enclosing : null) {
                if (k.counter == c || (k instanceof JobHandle<?> h && h.joinersCounter() == c)) {
                    units++;
                }
            }
            return units;
        }

        /** One of its waits is on a counter counting more never-ending jobs than the wait's target. */
        boolean stuck(Map<Counter, Waited> waited) {
            for (WaitNode n : waits) {
                if (waited.get(n.counter).left > n.target) {
                    return true;
                }
            }
            return false;
        }
    }

    /** A vertex on the DFS path and where it is in its edges: which wait, which job counted by its counter. */
    private static final class Frame {
        final Waiter waiter;
        private int wait;
        private int completer;

        Frame(Waiter waiter) {
            this.waiter = waiter;
        }

        /** The wait whose counter the edge last returned goes through. */
        WaitNode following() {
            return waiter.waits.get(wait);
        }

        /**
         * The next waiting job this one waits for, or null when all were followed. A wait with a target is
         * followed only if it never ends (its job is in {@code neverEnding}), and only to jobs of that set.
         */
        Waiter nextEdge(Map<Counter, List<Waiter>> completers, Set<Waiter> neverEnding) {
            while (wait < waiter.waits.size()) {
                WaitNode n = waiter.waits.get(wait);
                boolean targeted = n.target > 0;
                List<Waiter> cs = targeted && !neverEnding.contains(waiter) ? List.of()
                        : completers.getOrDefault(n.counter, List.of());
                while (completer < cs.size()) {
                    Waiter c = cs.get(completer++);
                    if (!targeted || neverEnding.contains(c)) {
                        return c;
                    }
                }
                wait++;
                completer = 0;
            }
            return null;
        }
    }
}
