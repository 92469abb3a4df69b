package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/**
 * {@link JobDeque} on one thread: the orders, growth, the push's wake-up cue, and the stale thief, a
 * thief that read the top index and its node and claims long after (its {@code claim} called with those
 * old values), for each way the node it read can have moved on meanwhile.
 */
class JobDequeTest {
    private final JobDeque deque = new JobDeque(4, null);

    @Test
    void ownerTakesNewestFirstAndThievesOldestFirst() {
        TestNode a = new TestNode(1);
        TestNode b = new TestNode(2);
        TestNode c = new TestNode(3);
        deque.push(a);
        deque.push(b);
        deque.push(c);
        assertSame(c, deque.atBottom());
        assertSame(c, deque.pop());
        assertSame(a, deque.steal());
        assertSame(b, deque.pop());
        assertNull(deque.pop());
        assertNull(deque.steal());
        assertTrue(deque.isEmpty());
    }

    @Test
    void popIfTakesTheBottomOnlyWhenItIsTheExpectedNode() {
        TestNode a = new TestNode(1);
        TestNode b = new TestNode(2);
        deque.push(a);
        deque.push(b);
        assertNull(deque.popIf(a), "a is not at the bottom");
        assertNull(deque.popIf(null));
        assertSame(b, deque.atBottom(), "a refused popIf changes nothing");
        assertSame(b, deque.popIf(b));
        assertSame(a, deque.atBottom());
        assertSame(a, deque.steal(), "a thief takes a");
        assertNull(deque.popIf(a), "a thief's claim is final: popIf on what is still read in the slot fails");
        assertTrue(deque.isEmpty());
        deque.push(b);                    // the same node again, at the index a left: a fresh push
        assertSame(b, deque.popIf(b));
        assertTrue(deque.isEmpty());
    }

    /** A thief claimed the bottom (the last) element but has not cleared its slot: popIf must fail. */
    @Test
    void popIfFailsOnANodeAThiefHasClaimedButNotYetCleared() {
        TestNode a = new TestNode(1);
        deque.push(a);
        long t = deque.topIndex();
        JobNode[] ring = deque.ring();
        long claimed = (long) JobNode.DEQUE_STAMP.getVolatile(a) | JobDeque.CLAIMED;
        JobNode.DEQUE_STAMP.setVolatile(a, claimed);            // the thief's CAS, nothing after it yet
        assertSame(a, deque.atBottom(), "the slot still holds it");
        assertNull(deque.popIf(a));
        assertNull(deque.claim(t, ring, a), "and the stamp is not ours to claim again");
    }

    @Test
    void growsWithoutLosingOrRepeatingAndDropsWhatWasTaken() {
        TestNode[] nodes = new TestNode[40];
        for (int i = 0; i < nodes.length; i++) {
            nodes[i] = new TestNode(i);
        }
        for (int i = 0; i < 10; i++) {
            deque.push(nodes[i]);
        }
        for (int i = 0; i < 5; i++) {
            assertSame(nodes[i], deque.steal());
        }
        for (int i = 10; i < 40; i++) {
            deque.push(nodes[i]);                      // grows from 4 slots with 5 stolen below
        }
        assertEquals(35, deque.size());
        for (int i = 39; i >= 5; i--) {
            assertSame(nodes[i], deque.pop());
        }
        assertNull(deque.pop());
        assertTrue(Arrays.stream(deque.ring()).allMatch(n -> n == null), "a taken node is still referenced");
    }

    @Test
    void pushSaysWhetherTheNodeBelowWasTaken() {
        TestNode a = new TestNode(1);
        TestNode b = new TestNode(2);
        assertTrue(deque.push(a), "first push onto an empty deque");
        assertFalse(deque.push(b), "a is still below");
        assertSame(a, deque.steal());
        assertSame(b, deque.steal());
        assertTrue(deque.push(new TestNode(3)), "both were stolen");
        assertFalse(deque.push(new TestNode(4)));
        deque.pop();
        deque.pop();
        assertTrue(deque.push(new TestNode(5)), "both were popped");
    }

    @Test
    void aStaleThiefCannotClaimANodeSinceMovedToAnotherDeque() {
        JobDeque other = new JobDeque(4, null);
        TestNode n = new TestNode(1);
        deque.push(n);
        long t = deque.topIndex();
        JobNode[] ring = deque.ring();                 // the stale thief's reads
        assertSame(n, deque.pop());
        other.push(n);                                 // index 0 of another deque: only the id differs
        assertNull(deque.claim(t, ring, n), "claimed a node that now sits in another deque");
        assertSame(n, other.steal());
        assertEquals(0, deque.topIndex(), "a failed claim moved top");
    }

    @Test
    void aStaleThiefCannotClaimANodeAlreadyTaken() {
        TestNode n = new TestNode(1);
        TestNode m = new TestNode(2);
        deque.push(n);
        long t = deque.topIndex();
        JobNode[] ring = deque.ring();
        assertSame(n, deque.steal());                  // another thief took it; top is 1
        deque.push(m);
        assertNull(deque.claim(t, ring, n));
        assertNull(deque.claim(t + 1, ring, n), "n was never at index 1");
        assertSame(m, deque.steal());
    }

    @Test
    void aStaleThiefClaimsTheSameNodePushedAgainAtTheSameIndexAsTheTopElement() {
        TestNode n = new TestNode(1);
        deque.push(n);
        long t = deque.topIndex();
        JobNode[] ring = deque.ring();
        assertSame(n, deque.pop());
        n.value = 2;                                   // recycled for another job, pushed at index 0 again
        deque.push(n);
        assertSame(n, deque.claim(t, ring, n), "the node at the top now is the one claimed");
        assertNull(deque.pop(), "taken once");
        assertTrue(deque.isEmpty());
    }

    @Test
    void aStaleThiefCannotClaimANodePushedAgainFurtherOn() {
        TestNode n = new TestNode(1);
        TestNode m = new TestNode(2);
        deque.push(n);
        long t = deque.topIndex();
        JobNode[] ring = deque.ring();
        assertSame(n, deque.pop());
        deque.push(m);                                 // index 0
        deque.push(n);                                 // n again, at index 1
        assertNull(deque.claim(t, ring, n), "claimed n at index 0 although m is there");
        assertSame(m, deque.steal());
        assertSame(n, deque.steal());
    }
}
