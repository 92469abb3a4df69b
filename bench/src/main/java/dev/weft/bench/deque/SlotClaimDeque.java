package dev.weft.bench.deque;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * ForkJoinPool's protocol, reduced to what this model needs: a taker claims an element by a CAS of its
 * slot to null, so a thief never reads the owner's index, and the owner's pop is an atomic swap of its
 * slot. Fixed capacity, no growth. Not safe for Weft as it stands: with recycled nodes, a thief that
 * stalls between reading {@code base} and its CAS can claim the same node pushed again into the same
 * slot a ring later (ABA); {@link NodeClaimDeque} removes that. Kept here as the reference cost.
 */
final class SlotClaimDeque extends PaddedBase implements ModelDeque {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    private final Object[] slots = new Object[ModelDeque.CAPACITY];
    private long top;                                   // owner only

    @Override
    public void push(ModelNode node) {
        SLOT.setRelease(slots, (int) (top & (slots.length - 1)), node);
        top++;
    }

    @Override
    public ModelNode pop() {
        long s = top - 1;
        ModelNode n = (ModelNode) SLOT.getAndSet(slots, (int) (s & (slots.length - 1)), null);
        if (n != null) {
            top = s;
            return n;
        }
        while (base() <= s) {                            // a thief took the last: wait for its base store
            Thread.onSpinWait();
        }
        return null;
    }

    @Override
    public ModelNode steal() {
        long b = base();
        int i = (int) (b & (slots.length - 1));
        Object n = SLOT.getAcquire(slots, i);
        if (n == null || base() != b || !SLOT.compareAndSet(slots, i, n, null)) {
            return null;
        }
        setBase(b + 1);
        return (ModelNode) n;
    }
}
