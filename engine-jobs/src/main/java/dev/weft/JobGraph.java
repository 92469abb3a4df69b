package dev.weft;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A job graph built once and run every frame: nodes (jobs and parallel loops, each with a priority),
 * edges ("a before b"), checked for cycles when built. Each {@link #run} makes fresh counters and
 * submits every node with its predecessors as {@link Prerequisites}, so a node is queued by the job that
 * completes its last predecessor and nothing parks waiting (Taskflow's reusable graphs, UE::Tasks
 * prerequisites).
 *
 * <pre>{@code
 * JobGraph.Builder b = JobGraph.builder("frame");
 * JobGraph.Node simulate = b.parallelFor("simulate", Priority.FRAME, 0, n, 256, this::simulate);
 * JobGraph.Node cull     = b.parallelFor("cull", Priority.FRAME, 0, n, 256, this::cull);
 * JobGraph.Node audio    = b.job("audio", Priority.NORMAL, this::mixAudio);
 * JobGraph.Node merge    = b.job("merge", Priority.FRAME, this::merge);
 * simulate.precedes(cull);
 * cull.precedes(merge);
 * JobGraph frameGraph = b.build();              // throws if the edges make a cycle, naming it
 *
 * for (;;) {                                    // every frame
 *     Counter frame = new Counter("frame");
 *     frameGraph.run(jobs, frame);              // returns at once
 *     frame.await();                            // every node ended (or throws the first failure)
 * }
 * }</pre>
 *
 * <p>A failed node fails the nodes after it without running them (each failure names the node it waited
 * on, down to the root cause), and the run's counter records it. Nodes read their inputs from fields the
 * caller sets before {@code run}: the submission publishes them to the jobs. A graph is immutable once
 * built and may run again before the previous run ended (each run has its own counters), if its jobs
 * allow that. Cost per run: per node one counter, one job, and one wait node per incoming edge; plus one
 * job that completes the run's counter after the last nodes.
 */
public final class JobGraph {
    private final String name;
    private final Node[] order;          // topological: every node after all of its predecessors
    private final Node[] sinks;          // nodes nothing comes after
    // The completion job's: the most urgent sink's. The first sink's made a graph whose first sink was NORMAL
    // (audio) end in a NORMAL job after its FRAME sinks, which a main thread waiting on the frame may not
    // run (it helps with FRAME jobs only): the frame then waited for a worker to finish a loading job.
    private final Priority endPriority;

    private JobGraph(String name, Node[] order) {
        this.name = name;
        this.order = order;
        List<Node> s = new ArrayList<>();
        Priority end = Priority.NORMAL;                // no sink: an empty graph
        for (Node n : order) {
            if (n.successors.isEmpty()) {
                end = s.isEmpty() || n.priority.ordinal() < end.ordinal() ? n.priority : end;
                s.add(n);
            }
        }
        this.sinks = s.toArray(Node[]::new);
        this.endPriority = end;
    }

    /**
     * Starts building a graph; {@code name} names its completion job in traces and errors.
     *
     * @param name the graph's name, also that of the job that completes a run; not null
     * @return a new, empty builder
     */
    public static Builder builder(String name) {
        return new Builder(Objects.requireNonNull(name, "name"));
    }

    /**
     * The graph's name.
     *
     * @return the name given to {@link #builder(String)}
     */
    public String name() {
        return name;
    }

    /**
     * The nodes, each after all of its predecessors.
     *
     * @return an immutable list of the nodes in topological order
     */
    public List<Node> nodes() {
        return List.of(order);
    }

    /**
     * Runs the graph once and returns at once: {@code done} counts the run until every node ended, and
     * records the first failure. Nodes are in the submitting job's group, as with {@link JobSystem#run}.
     * The job that completes {@code done} after the last nodes runs at the most urgent priority among the
     * graph's sinks, so a frame graph with a FRAME sink ends at FRAME priority (a main thread waiting on
     * {@code done} may run it) whatever the priority of its other sinks.
     *
     * <p>A known limit: after {@link JobSystem#shutdownNow()}, or a cancel of the group the nodes run in,
     * {@code done} can reach zero while a node that had already started still runs, because the graph's own
     * completion job is cancelled at once (as every job waiting on prerequisites is) instead of waiting for
     * the running nodes. A frame loop that stops there should also wait for termination
     * ({@link JobSystem#awaitTermination}) before it touches what the nodes write.
     *
     * @param jobs the job system to run the nodes on; not null
     * @param done incremented now and decremented when every node ended; it records the first failure; not
     *             null
     * @throws RejectedExecutionException if the system refuses submissions. Refused at the first node,
     *         nothing was queued and {@code done} is unchanged. Refused midway (a {@code close()} or
     *         {@code shutdownNow()} racing the call), the nodes queued before the refusal run, or are
     *         cancelled by the shutdown, and {@code done} counts them until every one of them ended, as it
     *         would count a whole run (the message says how many): wait on {@code done} before touching
     *         what they write
     */
    public void run(JobSystem jobs, Counter done) {
        Objects.requireNonNull(jobs, "jobs");
        Objects.requireNonNull(done, "done: the counter that says when the whole graph ran");
        start(jobs, null, done);
    }

    /**
     * {@link #run(JobSystem, Counter)} with every node in {@code group}, which can cancel the run.
     *
     * @param group the group the nodes run in; cancelling it cancels the run; not null
     * @param done incremented now and decremented when every node ended; it records the first failure; not
     *             null
     * @throws RejectedExecutionException as {@link #run(JobSystem, Counter)}, with the same promise for
     *         {@code done}
     */
    public void run(JobGroup group, Counter done) {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(done, "done: the counter that says when the whole graph ran");
        start(null, group, done);
    }

    private void start(JobSystem jobs, JobGroup group, Counter done) {
        Counter[] ended = new Counter[order.length];   // by Node.index
        int queued = 0;                                // order[0 .. queued) were accepted
        try {
            for (Node n : order) {                     // topological: predecessors' counters already count
                Counter[] before = new Counter[n.predecessors.size()];
                for (int i = 0; i < before.length; i++) {
                    before[i] = ended[n.predecessors.get(i).index];
                }
                Counter mine = new Counter(n.name);
                mine.standsForItsJob = true;           // a failure names it as its job (Prerequisites)
                ended[n.index] = mine;
                Prerequisites p = group != null ? group.after(before) : jobs.after(before);
                if (n.job != null) {
                    p.run(n.priority, n.name, n.job, mine);
                } else {
                    p.parallelFor(n.priority, n.from, n.to, n.grain, n.body, mine);
                }
                queued++;
            }
            Counter[] last = new Counter[sinks.length];
            for (int i = 0; i < sinks.length; i++) {
                last[i] = ended[sinks[i].index];
            }
            Prerequisites end = group != null ? group.after(last) : jobs.after(last);
            end.run(endPriority, name, () -> { }, done);
        } catch (RejectedExecutionException refused) {
            throw refusedMidway(refused, ended, queued, done);
        }
    }

    /**
     * A close or shutdownNow refused a node (or the completion job) after {@code queued} nodes were
     * accepted. Those run, or are cancelled by the shutdown, and nothing counted them for the caller: the
     * refusal used to leave {@code done} untouched, so a caller that caught it could not wait for nodes
     * still writing its frame's data. Now {@code done} counts them: one unit, given back when the counter
     * of every queued node is at zero (each completes: the system runs or cancels every accepted job, and
     * a queued node's predecessors were all queued before it), with the first failure among them.
     */
    private RejectedExecutionException refusedMidway(RejectedExecutionException refused, Counter[] ended,
                                                     int queued, Counter done) {
        String refusedAt = queued < order.length ? "node '" + order[queued].name + "'" : "its completion job";
        if (queued == 0) {
            return new RejectedExecutionException("graph '" + name + "' refused at " + refusedAt + ", before"
                    + " any node was queued; 'done' is unchanged: " + refused.getMessage(), refused);
        }
        Counter[] accepted = new Counter[queued];
        for (int i = 0; i < queued; i++) {
            accepted[i] = ended[order[i].index];
        }
        done.add(1);
        QueuedNodesEnded countdown = new QueuedNodesEnded(accepted, done);
        for (Counter c : accepted) {
            c.whenZero(countdown);
        }
        return new RejectedExecutionException("graph '" + name + "' refused at " + refusedAt + " after " + queued
                + " of its " + order.length + " nodes were queued: those run, or are cancelled if the system"
                + " stops, and 'done' (" + done.name() + ") counts them until every one ended; wait on it before"
                + " touching what they write: " + refused.getMessage(), refused);
    }

    /**
     * Gives {@code done} its unit back once every queued node's counter is at zero. Each counter runs this
     * once ({@link Counter#whenZero}), so exactly one decrement of {@code remaining} reaches zero; the
     * counters' failures were recorded before their last decrements, which happen before that one (each
     * decrement to zero, then this XADD, in order), so the failures are all visible to it.
     */
    private static final class QueuedNodesEnded implements Runnable {
        private final Counter[] queued;
        private final Counter done;
        private final AtomicInteger remaining;

        QueuedNodesEnded(Counter[] queued, Counter done) {
            this.queued = queued;
            this.done = done;
            this.remaining = new AtomicInteger(queued.length);
        }

        @Override
        public void run() {
            if (remaining.decrementAndGet() != 0) {
                return;
            }
            for (Counter c : queued) {                  // topological: the first failure is a root cause
                JobFailedException f = c.failure();
                if (f != null) {
                    done.recordFailure(f, f.getCause() != null ? f.getCause() : f);
                    break;
                }
            }
            done.decrement();
        }
    }

    @Override
    public String toString() {
        return "JobGraph[" + name + ", " + order.length + " nodes]";
    }

    /** One node: a job or a parallel loop. Made by a {@link Builder}; edges with {@link #precedes}. */
    public static final class Node {
        private final Builder owner;
        private final int index;
        private final String name;
        private final Priority priority;
        private final Job job;               // a job node; null for a parallelFor node
        private final RangeJob body;
        private final int from;
        private final int to;
        private final int grain;
        private final List<Node> successors = new ArrayList<>();
        private final List<Node> predecessors = new ArrayList<>();

        private Node(Builder owner, int index, String name, Priority priority, Job job, RangeJob body, int from,
                     int to, int grain) {
            this.owner = owner;
            this.index = index;
            this.name = name;
            this.priority = priority;
            this.job = job;
            this.body = body;
            this.from = from;
            this.to = to;
            this.grain = grain;
        }

        /**
         * The node's name.
         *
         * @return the name given when the node was added, unique in its graph
         */
        public String name() {
            return name;
        }

        /**
         * Makes {@code later} start only after this node ended. Returns {@code later}, so chains read
         * {@code a.precedes(b).precedes(c)}.
         *
         * @param later the node to run after this one; of the same builder, not null
         * @return {@code later}
         * @throws IllegalArgumentException if {@code later} belongs to another builder
         * @throws IllegalStateException if the graph was already built
         */
        public Node precedes(Node later) {
            Objects.requireNonNull(later, "later");
            if (later.owner != owner) {
                throw new IllegalArgumentException("node '" + later.name + "' belongs to another graph builder than '"
                        + name + "': edges join nodes of one builder");
            }
            owner.checkOpen();
            if (owner.edges.add(((long) index << 32) | later.index)) {   // a set: a list's contains was O(edges)
                successors.add(later);
                later.predecessors.add(this);
            }
            return later;
        }

        @Override
        public String toString() {
            return name;
        }
    }

    /** Builds a {@link JobGraph}; not thread-safe (build on one thread, then share the graph). */
    public static final class Builder {
        private final String name;
        private final List<Node> nodes = new ArrayList<>();
        // Names and edges (from index << 32 | to index) seen so far: a scan of the node list per name, and of
        // the successor list per edge, made building N nodes O(N^2) (40,000 nodes in a chain: 7.5 s).
        private final Set<String> names = new HashSet<>();
        private final Set<Long> edges = new HashSet<>();
        private boolean built;

        private Builder(String name) {
            this.name = name;
        }

        /**
         * Adds a job node.
         *
         * @param name the node's name, unique in the graph; not null
         * @param priority the priority the node's job runs at; not null
         * @param job the work to run; not null
         * @return the new node, to join with edges
         * @throws IllegalArgumentException if the graph already has a node of that name
         * @throws IllegalStateException if the graph was already built
         */
        public Node job(String name, Priority priority, Job job) {
            Objects.requireNonNull(job, "job");
            return add(new Node(this, nodes.size(), checkName(name), Objects.requireNonNull(priority, "priority"),
                    job, null, 0, 0, 0));
        }

        /**
         * Adds a parallel loop node: {@code body} over {@code [from, to)} in ranges of at most {@code grain}.
         *
         * @param name the node's name, unique in the graph; not null
         * @param priority the priority of the loop's ranges; not null
         * @param from the first index, inclusive
         * @param to the end index, exclusive; not less than {@code from}
         * @param grain the largest number of indices one call of {@code body} gets; at least 1
         * @param body called with each range {@code [start, end)} and the index of the worker running it; not
         *             null
         * @return the new node, to join with edges
         * @throws IllegalArgumentException if {@code grain} is less than 1, {@code to} is less than {@code
         *                                  from}, or the graph already has a node of that name
         * @throws IllegalStateException if the graph was already built
         */
        public Node parallelFor(String name, Priority priority, int from, int to, int grain, RangeJob body) {
            Objects.requireNonNull(body, "body");
            if (grain < 1 || to < from) {
                throw new IllegalArgumentException("node '" + name + "': need grain >= 1 and from <= to, got grain "
                        + grain + " over [" + from + ", " + to + ")");
            }
            return add(new Node(this, nodes.size(), checkName(name), Objects.requireNonNull(priority, "priority"),
                    null, body, from, to, grain));
        }

        private String checkName(String n) {
            Objects.requireNonNull(n, "node name");
            if (names.contains(n)) {
                throw new IllegalArgumentException("graph '" + name + "' already has a node named '" + n
                        + "': names identify nodes in errors and cycles, give each its own");
            }
            return n;
        }

        private Node add(Node n) {
            checkOpen();
            names.add(n.name);
            nodes.add(n);
            return n;
        }

        private void checkOpen() {
            if (built) {
                throw new IllegalStateException("graph '" + name + "' was already built: a built graph is immutable;"
                        + " make a new builder to change it");
            }
        }

        /**
         * Checks the edges and builds the graph.
         *
         * @return the immutable graph, which may be run any number of times; this builder is then closed
         * @throws IllegalStateException if the edges make a cycle; the message names it, e.g.
         *         {@code cycle: cull -> build -> cull}
         */
        public JobGraph build() {
            checkOpen();
            List<Node> cycle = findCycle();
            if (cycle != null) {
                StringBuilder sb = new StringBuilder();
                for (Node n : cycle) {
                    sb.append(sb.isEmpty() ? "" : " -> ").append(n.name);
                }
                throw new IllegalStateException("graph '" + name + "' has a cycle: " + sb
                        + " (a node would wait for itself; remove one of these edges)");
            }
            built = true;
            return new JobGraph(name, topologicalOrder());
        }

        /** Kahn's algorithm; only called on an acyclic graph. */
        private Node[] topologicalOrder() {
            int[] incoming = new int[nodes.size()];
            for (Node n : nodes) {
                incoming[n.index] = n.predecessors.size();
            }
            List<Node> ready = new ArrayList<>();
            for (Node n : nodes) {
                if (incoming[n.index] == 0) {
                    ready.add(n);
                }
            }
            List<Node> order = new ArrayList<>();
            for (int i = 0; i < ready.size(); i++) {
                Node n = ready.get(i);
                order.add(n);
                for (Node s : n.successors) {
                    if (--incoming[s.index] == 0) {
                        ready.add(s);
                    }
                }
            }
            return order.toArray(Node[]::new);
        }

        /** Depth-first search with three colours; a back edge closes a cycle, read off the path. */
        private List<Node> findCycle() {
            int[] colour = new int[nodes.size()];          // 0 unvisited, 1 on the path, 2 done
            for (Node root : nodes) {
                if (colour[root.index] != 0) {
                    continue;
                }
                List<Node> path = new ArrayList<>();
                List<Integer> nextEdge = new ArrayList<>();
                path.add(root);
                nextEdge.add(0);
                colour[root.index] = 1;
                while (!path.isEmpty()) {
                    int top = path.size() - 1;
                    Node n = path.get(top);
                    int e = nextEdge.get(top);
                    if (e == n.successors.size()) {
                        colour[n.index] = 2;
                        path.remove(top);
                        nextEdge.remove(top);
                        continue;
                    }
                    nextEdge.set(top, e + 1);
                    Node s = n.successors.get(e);
                    if (colour[s.index] == 1) {
                        List<Node> cycle = new ArrayList<>(path.subList(path.indexOf(s), path.size()));
                        cycle.add(s);
                        return cycle;
                    }
                    if (colour[s.index] == 0) {
                        colour[s.index] = 1;
                        path.add(s);
                        nextEdge.add(0);
                    }
                }
            }
            return null;
        }
    }
}
