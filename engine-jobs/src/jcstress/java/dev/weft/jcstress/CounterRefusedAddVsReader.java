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
 * Guarantee: an {@code add} refused for overflow is invisible to readers and waiters. Counter at 1; one
 * actor does {@code add(Integer.MAX_VALUE)} (always refused: 1 + MAX_VALUE does not fit), the other waits
 * for 0 with a zero timeout (r1 = 1 if it returned "reached") and then reads {@code value()} (r2). The
 * true value is 1 throughout.
 *
 * <p>Regression test: the XADD-then-undo {@code add} left 0x80000000 in the value's 32 bits between its
 * two XADDs, which reads as Integer.MIN_VALUE: {@code await(0)} returned with a unit still pending.
 */
@JCStressTest
@Description("Counter at 1: refused add(MAX_VALUE) vs await(0, 0 s) then value(): the reader sees 1")
@Outcome(id = "0, 1", expect = ACCEPTABLE, desc = "the waiter timed out at 1 and read 1")
@Outcome(id = "1, .*", expect = FORBIDDEN, desc = "the waiter returned early: it saw the overflowed (negative) value")
@Outcome(id = "0, -2147483648", expect = FORBIDDEN, desc = "value() read the overflowed value")
@Outcome(expect = FORBIDDEN, desc = "anything else (await threw, or another value)")
@State
public class CounterRefusedAddVsReader {
    private final Counter counter = new Counter("jcstress");

    public CounterRefusedAddVsReader() {
        counter.add(1);
    }

    @Actor
    public void misuse() {
        try {
            counter.add(Integer.MAX_VALUE);
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
