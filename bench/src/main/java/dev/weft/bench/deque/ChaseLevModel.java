package dev.weft.bench.deque;

import dev.weft.internal.WorkStealingDeque;

/**
 * Weft's own deque (Chase–Lev): a thief reads the owner's {@code bottom} on every steal and claims by CAS
 * on {@code top}; the owner's pop is a full fence (its store of {@code bottom} before its load of top).
 */
final class ChaseLevModel implements ModelDeque {
    private final WorkStealingDeque<ModelNode> deque = new WorkStealingDeque<>(ModelDeque.CAPACITY);

    @Override
    public void push(ModelNode node) {
        deque.push(node);
    }

    @Override
    public ModelNode pop() {
        return deque.pop();
    }

    @Override
    public ModelNode steal() {
        return deque.steal();
    }
}
