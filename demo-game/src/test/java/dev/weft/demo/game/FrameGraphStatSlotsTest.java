package dev.weft.demo.game;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Every FrameStage has its own range-counter slot, distinct from the other per-worker fields. */
class FrameGraphStatSlotsTest {
    @Test
    void eachStageHasItsOwnSlot() {
        Set<Integer> slots = new HashSet<>();
        for (FrameStage s : FrameStage.values()) {
            slots.add(FrameGraph.RANGES + s.ordinal());
        }
        assertEquals(FrameStage.values().length, slots.size());
        assertTrue(slots.add(FrameGraph.ENTITY_UPDATES), "entity-update counter shares a stage slot");
        for (int slot : slots) {
            assertTrue(slot < FrameGraph.STRIDE, "slot " + slot + " outside the stride");
        }
    }
}
