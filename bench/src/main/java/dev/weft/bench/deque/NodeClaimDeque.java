package dev.weft.bench.deque;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The protocol proposed for Weft's job deques: each node carries the index it was pushed at
 * ({@link ModelNode#STAMP}, written before the slot is published), and a taker, thief or owner, claims
 * index i by a CAS of that node's stamp from i to ~i. A thief reads {@code base} (thieves' own line) and
 * the slot, never the owner's index. A taker then clears the slot, so that nothing taken stays reachable
 * from the deque: a thief with a plain store before its release store of {@code base}, as Weft's
 * {@code JobDeque} does (the owner pushes into that slot again only a ring later; here a round ends only
 * after every job ran, so before the next round's pushes wrap onto the slot).
 *
 * <p>No ABA although nodes are recycled: a stamp is the push index, which only grows, so a stale thief's
 * CAS for index i fails on a node pushed again (its stamp is larger) as on one already claimed (~i).
 * Thieves claim in index order (index i only when {@code base} read i, and the claimant alone then
 * stores i + 1), so an owner whose pop loses its CAS has lost the last element. Fixed capacity here;
 * growth would only copy slots, since the claim is in the node and not in the array.
 */
final class NodeClaimDeque extends PaddedBase implements ModelDeque {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Object[].class);

    private final Object[] slots = new Object[ModelDeque.CAPACITY];
    private long top;                                   // owner only

    @Override
    public void push(ModelNode node) {
        ModelNode.STAMP.setOpaque(node, top);           // published by the slot's release store below
        SLOT.setRelease(slots, (int) (top & (slots.length - 1)), node);
        top++;
    }

    @Override
    public ModelNode pop() {
        long s = top - 1;
        int i = (int) (s & (slots.length - 1));
        ModelNode n = (ModelNode) slots[i];
        if (n == null || !ModelNode.STAMP.compareAndSet(n, s, ~s)) {
            return null;                                // empty, or a thief claimed index s: it was the last
        }
        top = s;
        slots[i] = null;
        return n;
    }

    @Override
    public ModelNode steal() {
        long b = base();
        ModelNode n = (ModelNode) SLOT.getAcquire(slots, (int) (b & (slots.length - 1)));
        // Read the stamp before the CAS: a CAS that fails still takes the node's line exclusive, and an
        // empty deque's slot at base holds a node the owner already took and may be reusing.
        int i = (int) (b & (slots.length - 1));
        if (n == null || (long) ModelNode.STAMP.getVolatile(n) != b || !ModelNode.STAMP.compareAndSet(n, b, ~b)) {
            return null;
        }
        slots[i] = null;                                // nothing taken stays reachable; before base (class comment)
        setBase(b + 1);
        return n;
    }
}
