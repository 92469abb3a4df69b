package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;
import org.junit.jupiter.api.Test;

/** A worker's free list of recycled nodes: last in, first out, bounded, and it lets go of what it hands out. */
class FreeNodesTest {

    @Test
    void theMostRecentlyFreedNodeIsTakenFirstAndLinksAreCleared() {
        FreeNodes free = new FreeNodes(8);
        TestNode a = new TestNode(1);
        TestNode b = new TestNode(2);
        assertNull(free.pop(), "an empty list");
        assertTrue(free.push(a));
        assertTrue(free.push(b));
        assertEquals(2, free.size());
        assertSame(b, free.pop(), "last freed, first taken (still in cache)");
        assertNull(b.nextFree, "a node handed out keeps no link into the list");
        assertSame(a, free.pop());
        assertNull(free.pop());
        assertEquals(0, free.size());
    }

    @Test
    void aFullListRefusesTheNodeAndKeepsWhatItHas() {
        FreeNodes free = new FreeNodes(2);
        assertTrue(free.push(new TestNode(1)));
        assertTrue(free.push(new TestNode(2)));
        TestNode extra = new TestNode(3);
        assertFalse(free.push(extra), "over capacity: the node is left to the garbage collector");
        assertNull(extra.nextFree);
        assertEquals(2, free.size());
        assertEquals(2, ((TestNode) free.pop()).value);
    }

    @Test
    void nodesReturnedByOtherWorkersAreDrainedIntoTheList() {
        FreeNodes free = new FreeNodes(16);
        MpscVarHandleArrayQueue<JobNode> returned = new MpscVarHandleArrayQueue<>(16);
        for (int i = 0; i < 5; i++) {
            returned.offer(new TestNode(i));
        }
        assertEquals(5, returned.drain(free.pushAll, 256));
        assertEquals(5, free.size());
        assertEquals(4, ((TestNode) free.pop()).value, "drained in order, so the last returned is on top");
    }
}
