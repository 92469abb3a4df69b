package dev.weft.bench;

import java.util.concurrent.locks.LockSupport;

/**
 * A token handed between two threads with {@link LockSupport#park()} / {@link LockSupport#unpark(Thread)}
 * and a volatile turn flag: the handoff the fork-join and virtual-thread variants of {@code WaitResume} use.
 *
 * <p>Each side publishes its thread before it first reads {@link #turn}; the other side writes
 * {@code turn} before it reads that thread, so (both being volatile) either the unpark reaches a
 * registered thread or the waiter sees the new turn without parking. Spurious wake-ups re-check
 * {@code turn}.
 */
final class ParkingPingPong {
    private volatile int turn;          // 0: side A may go, 1: side B may go; written by the side that hands over
    private volatile Thread threadA;    // written once by side A before its first read of turn
    private volatile Thread threadB;    // written once by side B before its first read of turn
    private final int rounds;

    ParkingPingPong(int rounds) {
        this.rounds = rounds;
    }

    /** Side A: runs first each round. */
    void sideA() {
        threadA = Thread.currentThread();
        for (int r = 0; r < rounds; r++) {
            while (turn != 0) {
                LockSupport.park(this);
            }
            turn = 1;
            LockSupport.unpark(threadB);   // null (B not started yet) is a no-op; B then sees turn == 1
        }
    }

    /** Side B: answers each round. */
    void sideB() {
        threadB = Thread.currentThread();
        for (int r = 0; r < rounds; r++) {
            while (turn != 1) {
                LockSupport.park(this);
            }
            turn = 0;
            LockSupport.unpark(threadA);
        }
    }
}
