package dev.weft.internal;

import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Linearizability of {@link InjectionQueue} as a FIFO queue, by Lincheck model checking and by a stress
 * run side by side: producers offer from every thread, and consumers poll and drain from every thread
 * too, so the consumer turn is what keeps the single-consumer JCTools queue from being polled by two
 * threads at once (without it, two pollers can take one element twice or skip one).
 *
 * <p>{@code poll} and {@code drain} return nothing when another consumer holds the turn, even if the
 * queue is non-empty: that is their contract (the loser retries after its pre-park re-check), and not
 * linearizable as a plain queue's poll. The operations here therefore retry while the queue reads
 * non-empty, as a worker's scan does; a poll that failed with no other consumer would spin forever,
 * which Lincheck reports as a hang. {@code drain(sink, max)} is a loop of polls under one turn, not one
 * atomic step (offers that land meanwhile join the batch), so only {@code max = 1} is checked here;
 * {@link InjectionQueueStressTest} checks larger batches for exactly-once delivery.
 */
@Tag("lincheck")
@Param(name = "e", gen = IntGen.class, conf = "1:9")
public class InjectionQueueLincheckTest {
    private final InjectionQueue<Integer> queue = new InjectionQueue<>();

    @Operation
    public void offer(@Param(name = "e") int e) {
        queue.offer(e);
    }

    @Operation
    public Integer poll() {
        for (;;) {
            Integer e = queue.poll();
            if (e != null || queue.isEmpty()) {
                return e;
            }
            Thread.onSpinWait();
        }
    }

    @Operation
    public Integer drainOne() {
        for (;;) {
            List<Integer> taken = new ArrayList<>(1);
            int n = queue.drain(taken::add, 1);
            if (n != taken.size()) {
                throw new AssertionError("drain returned " + n + " but handed over " + taken);
            }
            if (n > 0) {
                return taken.get(0);
            }
            if (queue.isEmpty()) {
                return null;
            }
            Thread.onSpinWait();
        }
    }

    @Operation
    public boolean isEmpty() {
        return queue.isEmpty();
    }

    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(LincheckBudget.iterations(15))
                .invocationsPerIteration(LincheckBudget.invocations(500))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(getClass());
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(LincheckBudget.iterations(15))
                .invocationsPerIteration(LincheckBudget.invocations(1_500))
                .threads(3)
                .actorsPerThread(3)
                .actorsBefore(2)
                .actorsAfter(2)
                .check(getClass());
    }
}
