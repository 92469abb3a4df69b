package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.junit.jupiter.api.Test;

/**
 * A refused {@link Counter#decrement(long)} (below zero) or {@link Counter#add(long)} (past
 * Integer.MAX_VALUE) leaves the whole state word unchanged: the value in the low 32 bits and the
 * add-epoch in the high 32. The epoch decides which waiters a later decrement may fire
 * ({@code CounterStaleDecrementVsRearmedAwait}), so a refused add must not count as an add.
 * The concurrent half (no other thread sees a transient value) is jcstress's:
 * {@code CounterDecrementVsRefusedOverDecrement}, {@code CounterRefused*VsReader}.
 */
class CounterRefusalTest {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.privateLookupIn(Counter.class, MethodHandles.lookup())
                    .findVarHandle(Counter.class, "state", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static long state(Counter c) {
        return (long) STATE.getVolatile(c);
    }

    private static int epoch(Counter c) {
        return (int) (state(c) >>> 32);
    }

    @Test
    void aRefusedDecrementLeavesValueAndEpochUnchanged() {
        Counter c = new Counter("refusal");
        c.add(2);
        c.add(1);                                     // value 3, epoch 2
        long before = state(c);

        assertThrows(IllegalStateException.class, () -> c.decrement(4));

        assertEquals(before, state(c), "state word");
        assertEquals(3, c.value());
        assertEquals(2, epoch(c));
        c.decrement(3);                               // the three units are all still there
        assertEquals(0, c.value());
    }

    @Test
    void aRefusedDecrementOfAZeroCounterLeavesItUnchanged() {
        Counter c = new Counter("refusal");
        c.add(1);
        c.decrement();                                // value 0, epoch 1: a decrement would borrow from the epoch
        long before = state(c);

        assertThrows(IllegalStateException.class, c::decrement);

        assertEquals(before, state(c), "state word");
        assertEquals(0, c.value());
        assertEquals(1, epoch(c));
    }

    @Test
    void aRefusedAddLeavesValueAndEpochUnchanged() {
        Counter c = new Counter("refusal");
        c.add(Integer.MAX_VALUE - 1);                 // value MAX - 1, epoch 1
        long before = state(c);

        assertThrows(IllegalStateException.class, () -> c.add(2));

        assertEquals(before, state(c), "state word (a refused add is not an add: the epoch stays)");
        assertEquals(Integer.MAX_VALUE - 1, c.value());
        assertEquals(1, epoch(c));
        c.add(1);                                     // exactly MAX_VALUE fits
        assertEquals(Integer.MAX_VALUE, c.value());
        assertEquals(2, epoch(c));
    }
}
