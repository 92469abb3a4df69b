package dev.weft;

import dev.weft.internal.LincheckBudget;
import java.util.ArrayDeque;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The main-thread mailbox through the public API: {@link JobSystem#onMainThread} from every thread,
 * {@link JobSystem#runMainThreadJobs} with a zero budget (exactly one job) on one thread (the owner:
 * {@code nonParallelGroup = "main"}), checked against a FIFO queue ({@link Model}): every posted job runs
 * exactly once, on the owner, in the order the offers linearized. Stress runs side by side with model
 * checking. {@code MainThreadMailbox} needs a {@code Scheduler}, so every invocation builds a one-worker
 * job system and {@link #closeSystem()} closes it.
 *
 * <p>No init or post part: the first {@code runMainThreadJobs} binds the calling thread as the owner,
 * and Lincheck runs those parts on another thread than the parallel part's "main" thread.
 */
@Tag("lincheck")
@Param(name = "v", gen = IntGen.class, conf = "1:9")
public class MainThreadMailboxLincheckTest {
    private final JobSystem jobs = JobSystem.builder().name("lincheck").workers(1).withoutShutdownKeeper().build();   // no thread started under the model checker
    private Integer lastRun;              // written by the main-thread job, read by the owner after it ran
    private boolean bound;                // owner only: this invocation's system is bound to the owner

    @Operation
    public void post(@Param(name = "v") int v) {
        jobs.onMainThread(() -> {
            lastRun = v;
            return v;
        });
    }

    @Operation(nonParallelGroup = "main")
    public Integer runOne() {
        if (!bound) {
            // Lincheck reuses its threads across invocations, and only the owner itself can unbind a
            // mailbox (close() on the owner does). Forget the previous invocation's system first.
            MainThreadMailbox stale = MainThreadMailbox.ownedByCurrentThread();
            if (stale != null) {
                stale.unbind();
            }
            jobs.bindMainThread();
            bound = true;
        }
        lastRun = null;
        int n = jobs.runMainThreadJobs(0);   // budget 0: stops after the first job
        if (n > 1) {
            throw new AssertionError("runMainThreadJobs(0) ran " + n + " jobs");
        }
        return n == 0 ? null : lastRun;
    }

    @Validate
    public void closeSystem() {
        jobs.shutdownNow();
    }

    /** The sequential specification: a FIFO queue. */
    public static final class Model {
        private final ArrayDeque<Integer> queue = new ArrayDeque<>();

        public void post(int v) {
            queue.add(v);
        }

        public Integer runOne() {
            return queue.poll();
        }
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .sequentialSpecification(Model.class)
                .iterations(LincheckBudget.iterations(10))
                .invocationsPerIteration(LincheckBudget.invocations(300))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(0)
                .actorsAfter(0)
                .check(getClass());
    }

    @Test
    void stress() {
        new StressOptions()
                .sequentialSpecification(Model.class)
                .iterations(LincheckBudget.iterations(10))
                .invocationsPerIteration(LincheckBudget.invocations(500))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(0)
                .actorsAfter(0)
                .check(getClass());
    }
}
