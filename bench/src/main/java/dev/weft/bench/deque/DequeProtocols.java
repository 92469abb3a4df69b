package dev.weft.bench.deque;

import dev.weft.bench.CrossCore;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicLong;
import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * What the deque protocol alone costs per stolen job: {@code EmptyJobs} from a job reduced to one owner
 * thread and one thief, with Weft's deque or another protocol, and Weft's per-job extras each switchable.
 *
 * <p>Each round the owner pushes {@value #JOBS} no-op jobs, then pops what is left; a thief thread steals
 * and runs them the whole time. The score is ns per job over a round, median of the second half of
 * the rounds. The jobs can carry Weft's other per-job costs, each on its own ({@code --counter},
 * {@code --steal-batch}, {@code --node-return}) or all three ({@code --weft-extras}): the owner's counter
 * {@code add} CAS per push, with decrements held back and flushed 64 at a time (SYNCHRONIZATION.md §13);
 * the thief's batch of up to 7 more into its own Chase–Lev deque ({@code WorkPicker.stealMore}); and
 * recycled nodes, each one the thief ran sent home through an MPSC queue to the owner's free list
 * (without it the owner reuses one fixed node per job index, which the round's end has freed). Compare protocols
 * side by side in one session, alternated, with the {@code [cross-core N ns]} tag each line starts with
 * (bench/README.md, "two modes"):
 *
 * <pre>
 * for r in 1 2 3; do for p in chase-lev slot-claim node-claim; do
 *   java -cp bench/target/benchmarks.jar dev.weft.bench.deque.DequeProtocols --protocol $p --weft-extras
 * done; done
 * </pre>
 *
 * Every run checks that each job ran exactly once (a protocol that loses or repeats one fails).
 */
@Command(name = "DequeProtocols", mixinStandardHelpOptions = true,
        description = "ns per job, one owner pushing and one thief stealing, by deque protocol.")
public final class DequeProtocols implements Callable<Integer> {
    static final int JOBS = 10_000;
    private static final int HELD_MAX = 64;
    private static final int STEAL_BATCH = 8;
    private static final long LOST_AFTER_NANOS = 10_000_000_000L;   // a round takes milliseconds

    @Spec
    CommandSpec spec;

    @Option(names = "--protocol", defaultValue = "chase-lev",
            description = "chase-lev (Weft's), slot-claim (ForkJoinPool's) or node-claim (default: ${DEFAULT-VALUE})")
    String protocol;

    @Option(names = "--weft-extras", description = "all three of Weft's extras below")
    boolean weftExtras;

    @Option(names = "--counter", description = "the owner's add CAS per push; decrements held, flushed 64 at a time")
    boolean counter;

    @Option(names = "--steal-batch", description = "the thief takes up to 7 more into its own Chase-Lev deque")
    boolean stealBatch;

    @Option(names = "--node-return", description = "recycled nodes; the thief sends each one home through an MPSC queue")
    boolean nodeReturn;

    @Option(names = "--add-chunk", defaultValue = "1", description = "with the counter: the owner's add reserves this "
            + "many units at a time and subtracts the surplus after its pops (adds reserved in chunks: not what Weft "
            + "does, see SYNCHRONIZATION.md section 13; default: ${DEFAULT-VALUE}, one add CAS per push)")
    int addChunk;

    @Option(names = "--rounds", defaultValue = "2000", description = "rounds of " + JOBS + " jobs (default: ${DEFAULT-VALUE})")
    int rounds;

    /**
     * Weft's per-job costs beside the deque, each switchable (SYNCHRONIZATION.md §4), and with the counter
     * how many units the owner's add takes at a time ({@code addChunk}, 1 as in Weft).
     */
    public record Extras(boolean counter, boolean stealBatch, boolean nodeReturn, int addChunk) {
        public static final Extras NONE = new Extras(false, false, false);
        public static final Extras ALL = new Extras(true, true, true);

        public Extras {
            if (addChunk < 1) {
                throw new IllegalArgumentException("--add-chunk must be at least 1, got " + addChunk);
            }
        }

        public Extras(boolean counter, boolean stealBatch, boolean nodeReturn) {
            this(counter, stealBatch, nodeReturn, 1);
        }

        @Override
        public String toString() {
            String chunk = counter && addChunk > 1 ? " +add-chunk " + addChunk : "";
            return (counter && stealBatch && nodeReturn ? " +weft-extras"
                    : (counter ? " +counter" : "") + (stealBatch ? " +steal-batch" : "") + (nodeReturn ? " +node-return" : ""))
                    + chunk;
        }
    }

    /** One run: ns per job of each measured round (sorted), and how the jobs were shared. */
    public record Result(String protocol, Extras extras, double[] sortedNsPerJob, double thiefShare, long crossCoreNanos) {
        public double median() {
            return sortedNsPerJob[sortedNsPerJob.length / 2];
        }

        public String line() {
            return String.format("[cross-core %d ns] %s%s: ns/job median %.1f p10 %.1f p90 %.1f, thief ran %.0f%%",
                    crossCoreNanos, protocol, extras, median(),
                    sortedNsPerJob[sortedNsPerJob.length / 10], sortedNsPerJob[sortedNsPerJob.length * 9 / 10],
                    thiefShare * 100);
        }
    }

    public static void main(String[] args) {
        System.exit(new CommandLine(new DequeProtocols()).execute(args));
    }

    @Override
    public Integer call() throws InterruptedException {
        Result result;
        try {
            Extras extras = weftExtras ? new Extras(true, true, true, addChunk)
                    : new Extras(counter, stealBatch, nodeReturn, addChunk);
            result = measure(protocol, extras, rounds);
        } catch (IllegalArgumentException badOption) {           // named protocol or rounds: say which
            throw new CommandLine.ParameterException(spec.commandLine(), badOption.getMessage(), badOption);
        }
        System.out.println(result.line());
        return 0;
    }

    /** Runs {@code rounds} rounds; throws {@link IllegalStateException} if a job was lost or ran twice. */
    public static Result measure(String protocol, Extras extras, int rounds) throws InterruptedException {
        return measure(ModelDeque.create(protocol), protocol, extras, rounds);
    }

    /** {@link #measure(String, Extras, int)} on a given deque (tests give it broken ones). */
    static Result measure(ModelDeque deque, String protocol, Extras extras, int rounds) throws InterruptedException {
        if (rounds < 2) {
            throw new IllegalArgumentException("rounds must be at least 2 (the first half warms up), got " + rounds);
        }
        long crossCore = CrossCore.roundTripNanos();
        Run run = new Run(deque, extras);
        double[] ns = run.rounds(rounds);
        double[] tail = Arrays.copyOfRange(ns, rounds / 2, rounds);
        Arrays.sort(tail);
        return new Result(protocol, extras, tail, run.thiefShare(), crossCore);
    }

    /** One owner (the calling thread) and one thief thread over one deque. */
    private static final class Run {
        private final ModelDeque deque;
        private final Extras extras;
        private final AtomicLong pending = new AtomicLong();     // the jobs' counter (--counter)
        private final MpscVarHandleArrayQueue<ModelNode> sentHome = new MpscVarHandleArrayQueue<>(2 * JOBS);
        private final ArrayDeque<ModelNode> free = new ArrayDeque<>();
        // The exactly-once check: how many jobs each side ran, and the sums of their indices and squares.
        // The thief's are plain, published by its volatile store of thiefRan after each job.
        private long thiefSum;
        private long thiefSquares;
        private volatile long thiefRan;
        private volatile boolean stop;
        private long ownerRan;
        private long ownerSum;
        private long ownerSquares;

        Run(ModelDeque deque, Extras extras) {
            this.deque = deque;
            this.extras = extras;
        }

        double[] rounds(int rounds) throws InterruptedException {
            Thread thief = new Thread(this::thiefLoop, "thief");
            thief.setDaemon(true);
            thief.start();
            ModelNode[] fixed = new ModelNode[JOBS];
            Runnable noop = () -> { };
            for (int i = 0; i < JOBS; i++) {
                fixed[i] = new ModelNode();
            }
            double[] ns = new double[rounds];
            try {
                for (int r = 0; r < rounds; r++) {
                    long t0 = System.nanoTime();
                    oneRound(noop, fixed, (long) (r + 1) * JOBS);
                    ns[r] = (System.nanoTime() - t0) / (double) JOBS;
                    checkEachRanOnce(r + 1);
                }
            } finally {
                stop = true;
                thief.join();
            }
            return ns;
        }

        private void oneRound(Runnable job, ModelNode[] fixed, long ranAfter) {
            int reserved = 0;                              // units added ahead of their pushes (--add-chunk)
            for (int i = 0; i < JOBS; i++) {
                ModelNode n = extras.nodeReturn ? freeNode() : fixed[i];
                if (extras.counter) {
                    if (extras.addChunk == 1) {
                        long v;
                        do {
                            v = pending.get();
                        } while (!pending.compareAndSet(v, v + 1));
                    } else {
                        if (reserved == 0) {
                            pending.addAndGet(extras.addChunk);
                            reserved = extras.addChunk;
                        }
                        reserved--;
                    }
                    n.counter = pending;
                }
                n.job = job;
                n.index = i;
                deque.push(n);
            }
            int held = reserved;                           // the surplus goes with the owner's held decrements
            ModelNode n;
            while ((n = deque.pop()) != null) {
                long i = n.runAndClear();
                ownerRan++;
                ownerSum += i;
                ownerSquares += i * i;
                if (extras.nodeReturn) {
                    free.push(n);
                }
                if (extras.counter) {
                    held++;
                }
            }
            pending.addAndGet(-held);
            long since = System.nanoTime();
            while (ownerRan + thiefRan < ranAfter || (extras.counter && pending.get() != 0)) {
                if (System.nanoTime() - since > LOST_AFTER_NANOS) {
                    throw new IllegalStateException(ownerRan + thiefRan + " jobs ran of " + ranAfter + " after "
                            + LOST_AFTER_NANOS / 1_000_000_000 + " s: the deque lost or repeated a job");
                }
                Thread.onSpinWait();
            }
        }

        private ModelNode freeNode() {
            ModelNode n = free.poll();
            if (n == null) {
                sentHome.drain(free::push, 32);
                n = free.poll();
            }
            return n != null ? n : new ModelNode();
        }

        private void thiefLoop() {
            ChaseLevModel own = new ChaseLevModel();
            long ran = 0;
            int held = 0;
            while (!stop) {
                ModelNode n = deque.steal();
                if (n == null) {
                    if (held > 0) {
                        pending.addAndGet(-held);
                        held = 0;
                    }
                    Thread.onSpinWait();
                    continue;
                }
                if (extras.stealBatch) {
                    ModelNode more;
                    for (int k = 1; k < STEAL_BATCH && (more = deque.steal()) != null; k++) {
                        own.push(more);
                    }
                }
                do {
                    long i = n.runAndClear();
                    thiefSum += i;
                    thiefSquares += i * i;
                    if (extras.nodeReturn) {
                        sentHome.offer(n);
                    }
                    if (extras.counter && ++held == HELD_MAX) {
                        pending.addAndGet(-held);
                        held = 0;
                    }
                    thiefRan = ++ran;
                } while (extras.stealBatch && (n = own.pop()) != null);
            }
        }

        /** After a round: every index 0..JOBS-1 ran once a round (count, sum and sum of squares agree). */
        private void checkEachRanOnce(int rounds) {
            long ran = ownerRan + thiefRan;                  // volatile read first: the thief's sums are visible
            long sum = ownerSum + thiefSum;
            long squares = ownerSquares + thiefSquares;
            long n = JOBS;
            if (ran != rounds * n || sum != rounds * (n * (n - 1) / 2) || squares != rounds * ((n - 1) * n * (2 * n - 1) / 6)) {
                throw new IllegalStateException("after " + rounds + " rounds of " + JOBS + " jobs: " + ran
                        + " runs, index sum " + sum + ", squares " + squares + ": the deque lost or repeated a job");
            }
        }

        double thiefShare() {
            return thiefRan / (double) (ownerRan + thiefRan);
        }
    }
}
