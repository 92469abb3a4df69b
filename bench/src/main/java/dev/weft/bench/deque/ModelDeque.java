package dev.weft.bench.deque;

/**
 * One work-stealing deque protocol under test: one owner calls {@link #push} and {@link #pop} at one end,
 * any thread calls {@link #steal} at the other. Elements are {@link ModelNode}s, as Weft's job deques hold
 * recycled nodes.
 */
interface ModelDeque {
    /**
     * Slots per deque: 2^20, so that a test's few hundred thousand pushes never wrap the ring. Only a
     * wrap lets {@link SlotClaimDeque}'s ABA happen (a stalled thief, the same node in the same slot a
     * ring later); in a long run it would make the exactly-once check fail loudly, not skew a figure.
     */
    int CAPACITY = 1 << 20;

    /** Owner only. */
    void push(ModelNode node);

    /** Owner only: the newest node, or null if none is left. */
    ModelNode pop();

    /** Any thread: the oldest node, or null if none was seen or another taker won it. */
    ModelNode steal();

    /** The protocols this tool knows, by the name {@code --protocol} takes. */
    static ModelDeque create(String protocol) {
        return switch (protocol) {
            case "chase-lev" -> new ChaseLevModel();
            case "slot-claim" -> new SlotClaimDeque();
            case "node-claim" -> new NodeClaimDeque();
            default -> throw new IllegalArgumentException("unknown protocol '" + protocol
                    + "': use chase-lev, slot-claim or node-claim");
        };
    }
}
