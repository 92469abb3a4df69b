package dev.weft;

/**
 * The field layout of {@link JobDeque}, as {@code WorkStealingDeque}'s: a chain of abstract superclasses
 * that puts each of {@code top} (the thieves' index, written by the taker of its element), {@code bottom}
 * (the owner's, written on every push and pop) and {@code array} (read by every steal) between 128-byte
 * pads, so no two of them, and nothing outside the deque, share a cache line or an adjacent-line pair.
 *
 * <p>Why bytes: HotSpot lays fields out by size, not in declaration order, within a class (so eight longs
 * declared between two fields end up together, after them), but a superclass's fields come before a
 * subclass's. A subclass may still fill holes its superclasses left (the 4 bytes after a 12-byte header,
 * alignment gaps) with its smaller fields: 128 byte fields leave no hole of their own and fill the
 * header's, so no hot field can slip in before its pad. 128 bytes rather than 64: the L2's adjacent-line
 * prefetcher pulls cache lines in pairs. {@code PaddingLayoutTest} checks the offsets with JOL.
 *
 * <p>Only fields live here; {@code JobDeque} holds the VarHandles and says which access mode
 * each crossing uses.
 */
final class JobDequeLayout {
    private JobDequeLayout() {
    }

    /** Between the object header (and the object before this one) and top. */
    abstract static class PadBeforeTop {
        @SuppressWarnings("unused") private byte
                p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f,
                p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f,
                p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f,
                p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f,
                p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p4a, p4b, p4c, p4d, p4e, p4f,
                p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p5a, p5b, p5c, p5d, p5e, p5f,
                p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p6a, p6b, p6c, p6d, p6e, p6f,
                p70, p71, p72, p73, p74, p75, p76, p77, p78, p79, p7a, p7b, p7c, p7d, p7e, p7f;
    }

    abstract static class Top extends PadBeforeTop {
        volatile long top;       // the next index to claim from the old end; stored only by its claimant
    }

    /** Between top and bottom. */
    abstract static class PadBeforeBottom extends Top {
        @SuppressWarnings("unused") private byte
                p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f,
                p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f,
                p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f,
                p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f,
                p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p4a, p4b, p4c, p4d, p4e, p4f,
                p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p5a, p5b, p5c, p5d, p5e, p5f,
                p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p6a, p6b, p6c, p6d, p6e, p6f,
                p70, p71, p72, p73, p74, p75, p76, p77, p78, p79, p7a, p7b, p7c, p7d, p7e, p7f;
    }

    abstract static class Bottom extends PadBeforeBottom {
        volatile long bottom;    // index of the next free slot; written only by the owner
        // Owner only, plain: a value of top the owner read (when the ring looked full); top never
        // decreases, so push's room check against it errs towards "full". On bottom's line: the owner's.
        long topBound;
    }

    abstract static class PadBeforeArray extends Bottom {
        @SuppressWarnings("unused") private byte
                p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f,
                p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f,
                p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f,
                p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f,
                p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p4a, p4b, p4c, p4d, p4e, p4f,
                p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p5a, p5b, p5c, p5d, p5e, p5f,
                p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p6a, p6b, p6c, p6d, p6e, p6f,
                p70, p71, p72, p73, p74, p75, p76, p77, p78, p79, p7a, p7b, p7c, p7d, p7e, p7f;
    }

    abstract static class Array extends PadBeforeArray {
        volatile Object[] array; // power-of-two ring; replaced (grown) only by the owner
        // Nodes a push could not fit because the ring could not grow (the heap exhausted), linked through
        // nextFree: pushed by the owner (CAS), taken one by one by the owner (CAS) or all at once by a thief
        // or shutdownNow (getAndSet). On array's line: written only when growth failed, so the line stays
        // shared, and the two readers (the owner's empty pop, a thief's failed steal) read array there anyway.
        JobNode overflow;
    }

    /** Between array and the object after this one (often the ring itself). */
    abstract static class PadAfterArray extends Array {
        @SuppressWarnings("unused") private byte
                p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p0a, p0b, p0c, p0d, p0e, p0f,
                p10, p11, p12, p13, p14, p15, p16, p17, p18, p19, p1a, p1b, p1c, p1d, p1e, p1f,
                p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p2a, p2b, p2c, p2d, p2e, p2f,
                p30, p31, p32, p33, p34, p35, p36, p37, p38, p39, p3a, p3b, p3c, p3d, p3e, p3f,
                p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p4a, p4b, p4c, p4d, p4e, p4f,
                p50, p51, p52, p53, p54, p55, p56, p57, p58, p59, p5a, p5b, p5c, p5d, p5e, p5f,
                p60, p61, p62, p63, p64, p65, p66, p67, p68, p69, p6a, p6b, p6c, p6d, p6e, p6f,
                p70, p71, p72, p73, p74, p75, p76, p77, p78, p79, p7a, p7b, p7c, p7d, p7e, p7f;
    }
}
