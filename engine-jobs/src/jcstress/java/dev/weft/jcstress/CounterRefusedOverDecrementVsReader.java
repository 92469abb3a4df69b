package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
import java.time.Duration;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Guarantee: a refused decrement is invisible to readers and waiters: they never see a value below the
 * true one. Counter at 1; one actor does the misuse {@code decrement(2)} (always refused), the other
 * waits for 0 with a zero timeout (r1 = 1 if it returned "reached") and then reads {@code value()}
 * (r2). The true value is 1 throughout.
 *
 * <p>Regression test: the XADD-then-undo {@code decrement} left -1 visible between its two XADDs, so
 * {@code await(0)} returned as if the pending unit were done (r1 = 1) and {@code value()} read -1.
 */
@JCStressTest
@Description("Counter at 1: refused decrement(2) vs await(0, 0 s) then value(): the reader sees 1")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the waiter timed out at 1 and read 1")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the waiter returned early: it saw the misuse's transient -1")
@Outcome(id = "0, -1", expect = FORBIDDEN, desc = "value() read the misuse's transient -1")
@Outcome(expect = FORBIDDEN, desc = "anything else (await threw, or another value)")
@State
public class CounterRefusedOverDecrementVsReader {
    private final Counter counter = new Counter("jcstress");

    public CounterRefusedOverDecrementVsReader() {
        counter.add(1);
    }

    @Actor
    public void misuse() {
        try {
            counter.decrement(2);
        } catch (IllegalStateException refused) {
            // expected: the value stays 1
        }
    }

    @Actor
    public void reader(II_Result r) {
        try {
            r.r1 = counter.await(0, Duration.ZERO) ? 1 : 0;
        } catch (RuntimeException e) {
            r.r1 = -2;
        }
        r.r2 = (int) counter.value();
    }
}
