package dev.weft;

import dev.weft.internal.LincheckBudget;
import java.lang.reflect.Method;
import java.util.List;
import kotlin.Unit;
import org.jetbrains.kotlinx.lincheck.Actor;
import org.jetbrains.kotlinx.lincheck.execution.ExecutionScenario;
import org.jetbrains.lincheck.datastructures.CustomScenarioDSLKt;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.ManagedOptions;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Options;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The blocking {@link Counter#await(long)} of plain threads, by model checking and a stress run side by
 * side, on fixed scenarios in which every wait can be satisfied: no await returns before its target is
 * reached (the sequential {@link Model} has no place for it), and none stays parked after it was
 * reached (Lincheck reports the hang: a lost wake-up). The zero-timeout checks of
 * {@link CounterAwaitLincheckTest} cannot see a lost wake-up: an unwoken waiter there times out, as it
 * may.
 *
 * <p>Both halves caught a waiter that skips its re-check after registering; only the stress run caught
 * two subtler lost wake-ups planted to check this test (decrement reading the wait stack before its
 * XADD; the walk stopping after the first node it fires), which the model checker did not report in its
 * budget. So both run.
 *
 * <p>Scenarios, counter at 2: one waiter for 0 against two decrements; waiters for 1 and for 0 against
 * two decrements (one decrement fires one of them, the next the other); two waiters for 0 (one
 * decrement fires both); and the ping-pong {@code await(1); decrement || decrement; await(0)}.
 */
@Tag("lincheck")
public class CounterBlockingAwaitLincheckTest {
    private static final int START = 2;

    private final Counter counter = new Counter("lincheck");

    public CounterBlockingAwaitLincheckTest() {
        counter.add(START);
    }

    @Operation
    public void decrement() {
        counter.decrement();
    }

    @Operation(blocking = true)
    public void await(int target) {
        counter.await(target);
    }

    /** Sequential specification: an await that would block has no sequential place, so it fails. */
    public static final class Model {
        private long value = START;

        public void decrement() {
            value--;
        }

        public void await(int target) {
            if (value > target) {
                throw new IllegalStateException("would block");
            }
        }
    }

    @Test
    void modelChecking() {
        check(new ModelCheckingOptions(), LincheckBudget.invocations(2_000));
    }

    @Test
    void stress() {
        check(new StressOptions(), LincheckBudget.invocations(5_000));
    }

    private static <O extends Options<O, ?>> void check(O options, int invocations) {
        options.iterations(0)                         // only the scenarios below: random ones may block for good
                .invocationsPerIteration(invocations)
                .sequentialSpecification(Model.class);
        for (ExecutionScenario s : scenarios()) {
            options.addCustomScenario(s);
        }
        if (options instanceof ManagedOptions<?, ?> managed) {
            managed.checkObstructionFreedom(false);   // a waiter parks by design
        }
        options.check(CounterBlockingAwaitLincheckTest.class);
    }

    private static List<ExecutionScenario> scenarios() {
        return List.of(
                scenario(List.of(awaitOp(0)), List.of(decrementOp(), decrementOp())),
                scenario(List.of(awaitOp(1)), List.of(awaitOp(0)), List.of(decrementOp(), decrementOp())),
                scenario(List.of(awaitOp(0)), List.of(awaitOp(0)), List.of(decrementOp(), decrementOp())),
                scenario(List.of(awaitOp(1), decrementOp()), List.of(decrementOp(), awaitOp(0))));
    }

    @SafeVarargs
    private static ExecutionScenario scenario(List<Actor>... threads) {
        return CustomScenarioDSLKt.scenario(b -> {
            b.parallel(p -> {
                for (List<Actor> actors : threads) {
                    p.thread((DSLThreadScenario t) -> {
                        t.addAll(actors);
                        return Unit.INSTANCE;
                    });
                }
                return Unit.INSTANCE;
            });
            return Unit.INSTANCE;
        });
    }

    private static Actor awaitOp(int target) {
        return new Actor(method("await", int.class), List.of(target), false, true, false);
    }

    private static Actor decrementOp() {
        return new Actor(method("decrement"), List.of(), false, false, false);
    }

    private static Method method(String name, Class<?>... params) {
        try {
            return CounterBlockingAwaitLincheckTest.class.getMethod(name, params);
        } catch (NoSuchMethodException e) {
            throw new AssertionError(e);
        }
    }
}
