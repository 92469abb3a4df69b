package dev.weft.bench.deque;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * {@link DequeProtocols}: every protocol runs every job exactly once, with and without Weft's extras, and
 * the exactly-once check catches a protocol that does not (a thief that never claims).
 */
class DequeProtocolsTest {

    @ParameterizedTest
    @CsvSource({"chase-lev,false", "chase-lev,true", "slot-claim,false", "slot-claim,true",
            "node-claim,false", "node-claim,true"})
    void eachProtocolRunsEveryJobOnce(String protocol, boolean extras) throws InterruptedException {
        DequeProtocols.Result r = DequeProtocols.measure(protocol,
                extras ? DequeProtocols.Extras.ALL : DequeProtocols.Extras.NONE, 40);
        assertEquals(20, r.sortedNsPerJob().length);
        assertTrue(r.median() > 0 && r.thiefShare() >= 0 && r.thiefShare() <= 1, r.line());
        assertTrue(r.line().contains(protocol + (extras ? " +weft-extras" : "") + ": ns/job median "), r.line());
    }

    /** A thief that takes the oldest node without claiming it: the owner's pop runs it again. */
    @Test
    void aThiefThatDoesNotClaimIsCaught() {
        ModelDeque unclaimed = new ModelDeque() {
            private final java.util.concurrent.ConcurrentLinkedDeque<ModelNode> d = new java.util.concurrent.ConcurrentLinkedDeque<>();

            @Override
            public void push(ModelNode node) {
                d.addLast(node);
            }

            @Override
            public ModelNode pop() {
                return d.pollLast();
            }

            @Override
            public ModelNode steal() {
                ModelNode n = d.peekFirst();              // looks, never removes: a lost claim
                return n == null ? null : copyOf(n);
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> org.junit.jupiter.api.Assertions
                .assertTimeoutPreemptively(Duration.ofSeconds(60), () -> DequeProtocols.measure(unclaimed, "unclaimed", DequeProtocols.Extras.NONE, 40)));
        assertTrue(e.getMessage().contains("lost or repeated a job"), e.getMessage());
    }

    private static ModelNode copyOf(ModelNode n) {
        ModelNode copy = new ModelNode();
        copy.job = () -> { };
        copy.index = n.index;
        return copy;
    }

    @Test
    void refusesAnUnknownProtocolAndTooFewRounds() {
        IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                () -> DequeProtocols.measure("lifo", DequeProtocols.Extras.NONE, 10));
        assertTrue(unknown.getMessage().contains("use chase-lev, slot-claim or node-claim"), unknown.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> DequeProtocols.measure("chase-lev", DequeProtocols.Extras.NONE, 1));
    }

    /**
     * Adds reserved 64 at a time: the counter still ends every round at exactly zero (the round waits for
     * it, and reports a lost job after 10 s if the surplus were kept or subtracted twice).
     */
    @Test
    void addsReservedInChunksStillEndAtZero() throws InterruptedException {
        DequeProtocols.Extras chunked = new DequeProtocols.Extras(true, true, true, 64);
        DequeProtocols.Result r = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(60),
                () -> DequeProtocols.measure("node-claim", chunked, 40));
        assertTrue(r.line().contains("node-claim +weft-extras +add-chunk 64: ns/job median "), r.line());
        assertThrows(IllegalArgumentException.class, () -> new DequeProtocols.Extras(true, false, false, 0));
    }
}
