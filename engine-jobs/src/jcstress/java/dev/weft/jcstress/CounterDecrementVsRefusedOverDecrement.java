package dev.weft.jcstress;

import static org.openjdk.jcstress.annotations.Expect.ACCEPTABLE;
import static org.openjdk.jcstress.annotations.Expect.FORBIDDEN;

import dev.weft.Counter;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Description;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Guarantee: a refused decrement has no effect, not even for a moment, so it cannot make a legitimate
 * decrement fail. Counter at 1 (one pending unit): one actor does the legitimate {@code decrement()},
 * the other the misuse {@code decrement(2)}, which no order of the two can allow. r1 = 1 if the
 * legitimate one threw, r2 = 1 if the misuse one threw, r3 = the final value.
 *
 * <p>Regression test: {@code decrement} used to XADD first and undo when the old value was too small.
 * The misuse took 1 to -1; the legitimate XADD then saw old -1 < 1, undid itself and threw; the misuse
 * undid to 1: the legitimate decrement was lost ({@code 1, 1, 1}).
 */
@JCStressTest
@Description("Counter at 1: decrement() vs refused decrement(2): the legitimate one succeeds, value 0")
@Outcome(id = "0, 1, 0", expect = ACCEPTABLE, desc = "the legitimate decrement took 1 to 0; decrement(2) was refused")
@Outcome(id = "1, 1, 1", expect = FORBIDDEN, desc = "the misuse's transient -1 made the legitimate decrement throw: its unit is lost")
@Outcome(expect = FORBIDDEN, desc = "the legitimate decrement threw, the misuse succeeded, or the value is not 0")
@State
public class CounterDecrementVsRefusedOverDecrement {
    private final Counter counter = new Counter("jcstress");

    public CounterDecrementVsRefusedOverDecrement() {
        counter.add(1);
    }

    @Actor
    public void legitimate(III_Result r) {
        r.r1 = threw(1);
    }

    @Actor
    public void misuse(III_Result r) {
        r.r2 = threw(2);
    }

    @Arbiter
    public void value(III_Result r) {
        r.r3 = (int) counter.value();
    }

    private int threw(long n) {
        try {
            counter.decrement(n);
            return 0;
        } catch (IllegalStateException refused) {
            return 1;
        }
    }
}
