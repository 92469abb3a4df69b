package dev.weft.bench.deque;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/** {@code base}, the thieves' index, alone on its cache lines (128-byte pads on both sides, as Weft's). */
abstract class PaddedBase extends BaseField {
    @SuppressWarnings("unused")
    private long q0, q1, q2, q3, q4, q5, q6, q7, q8, q9, q10, q11, q12, q13, q14, q15;
}

/** The pad before {@code base} (a superclass, so HotSpot keeps it before the field). */
abstract class BasePad {
    @SuppressWarnings("unused")
    private long p0, p1, p2, p3, p4, p5, p6, p7, p8, p9, p10, p11, p12, p13, p14, p15;
}

/** The thieves' index: the next index to claim. */
abstract class BaseField extends BasePad {
    private static final VarHandle BASE;

    static {
        try {
            BASE = MethodHandles.lookup().findVarHandle(BaseField.class, "base", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused")         // through BASE
    private volatile long base;

    final long base() {
        return (long) BASE.getVolatile(this);
    }

    /** Only by the taker that just claimed index {@code b - 1}: claims are in index order. */
    final void setBase(long b) {
        BASE.setRelease(this, b);
    }
}
