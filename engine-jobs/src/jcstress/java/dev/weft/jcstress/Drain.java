package dev.weft.jcstress;

import dev.weft.internal.WorkStealingDeque;

/** Arbiter helper: what is left in a deque once all actors have finished. */
final class Drain {
    private Drain() {
    }

    /** Pops everything (the arbiter runs after the actors, so it may act as the owner) into a bit mask. */
    static int mask(WorkStealingDeque<Integer> deque) {
        int mask = 0;
        Integer e;
        while ((e = deque.pop()) != null) {
            int bit = 1 << (e - 1);
            if ((mask & bit) != 0) {
                return -1;                    // the same element twice inside the deque
            }
            mask |= bit;
        }
        return mask;
    }
}
