package dev.weft.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/**
 * What {@link WorkStealingDeque#push} returns: true when the deque may have been empty before the push,
 * the scheduler's cue to wake a sleeping worker (the empty-to-non-empty transition). Push reads neither
 * {@code top} nor the size for it, only the slot below the new element, so every way an element leaves
 * the deque (pop, steal, the owner's pop of the last element, a steal during growth) must leave that
 * slot cleared, or a push onto a deque that thieves emptied would wake nobody.
 */
class WorkStealingDequePushSignalTest {

    @Test
    void aPushOntoAnEmptyDequeSaysSoAndOntoANonEmptyOneDoesNot() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(4);
        assertTrue(d.push(1), "first push ever");
        assertFalse(d.push(2), "one element below");
        assertFalse(d.push(3));
    }

    @Test
    void aPushAfterThievesTookEverythingSaysEmpty() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(4);
        d.push(1);
        d.push(2);
        assertEquals(1, d.steal());
        assertFalse(d.push(3), "2 is still there");
        assertEquals(2, d.steal());
        assertEquals(3, d.steal());
        assertTrue(d.push(4), "every element was stolen: a sleeper must be woken for this one");
    }

    @Test
    void aPushAfterTheOwnerPoppedEverythingSaysEmpty() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(4);
        d.push(1);
        d.push(2);
        assertEquals(2, d.pop());
        assertFalse(d.push(5), "1 is still there");
        assertEquals(5, d.pop());
        assertEquals(1, d.pop(), "the last element: the owner's CAS race");
        assertTrue(d.push(6));
    }

    @Test
    void aPushAfterTheLastElementWasStolenFromUnderAPopSaysEmpty() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(4);
        d.push(1);
        assertEquals(1, d.steal());
        assertEquals(null, d.pop(), "empty: pop finds top past bottom");
        assertTrue(d.push(2));
    }

    @Test
    void theSignalStaysRightAcrossWrapAroundAndGrowth() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(4);
        int next = 0;
        for (int round = 0; round < 50; round++) {           // indices wrap the 4-slot ring many times
            int n = 1 + round % 7;                           // up to 7: the ring grows past 4 on the way
            for (int i = 0; i < n; i++) {
                boolean wasEmpty = d.push(next++);
                assertEquals(i == 0, wasEmpty, "round " + round + ", push " + i + " of " + n);
            }
            for (int i = 0; i < n; i++) {
                assertEquals(next - n + i, round % 2 == 0 ? d.steal() : d.stealIfTopIs(d.topIndex()));
            }
        }
        assertTrue(d.capacity() >= 8, "the ring grew: " + d.capacity());
    }

    @Test
    void aPushThatGrowsTheRingAfterStealsStillReadsTheSlotBelowInTheNewRing() {
        WorkStealingDeque<Integer> d = new WorkStealingDeque<>(4);
        for (int i = 0; i < 4; i++) {
            d.push(i);
        }
        for (int i = 0; i < 4; i++) {
            d.steal();
        }
        for (int i = 4; i < 8; i++) {                        // refill: the stale bound says full, top is read
            assertEquals(i == 4, d.push(i), "push " + i);
        }
        assertFalse(d.push(8), "grows to 8 slots with 4 below");
        assertEquals(4, d.steal());
        assertEquals(8, d.pop());
        assertEquals(3, d.size(), "5, 6 and 7 are left");
    }
}
