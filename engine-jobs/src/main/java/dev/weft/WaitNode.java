package dev.weft;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One waiter on a {@link Counter}: a thread (a fiber or a plain thread) and the value it waits for; or a
 * continuation ({@link Counter#whenZero}), which runs an action instead of unparking anyone: that is how
 * a job with prerequisites ({@link Prerequisites}) waits with nothing parked.
 * Its state moves once, by CAS, out of WAITING; whoever wins that CAS owns the wake-up:
 * <pre>
 *   WAITING --fire (decrementer)--------> FIRED      (the waiter returns normally)
 *   WAITING --cancel (job/group/system)--> CANCELLED  (the waiter throws JobCancelledException)
 *   WAITING --abandon (waiter timed out,-> ABANDONED  (the waiter returns false; a continuation's
 *                      or its job cancelled)                 action is dropped, never run)
 * </pre>
 */
final class WaitNode {
    static final int WAITING = 0;
    static final int FIRED = 1;
    static final int CANCELLED = 2;
    static final int ABANDONED = 3;

    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(WaitNode.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final Thread thread;         // who to unpark; null for a continuation
    // A continuation's action (thread null): run once by whoever wins the fire CAS, then dropped, so a
    // dead node left on the stack keeps no dependent job alive; dropped unrun by whoever wins the abandon
    // CAS instead (a cancelled pending job). Plain: written before the publishing push, then touched only
    // by the one winner of the CAS out of WAITING.
    private Runnable onFire;
    final long target;           // wake when the counter's value is <= target
    final Counter counter;       // what it waits on (for the watchdog and wait-graph reports)
    // The innermost job of the waiting fiber, whose cancellation ends this wait; or null. Cleared by the
    // waiter when its wait ends, so a dead node left on a long-lived counter's stack keeps no job (closure,
    // result) alive. Plain: written before the push CAS that publishes the node; a canceller that reads a
    // stale value finds the node out of WAITING (a wait ends only after leaving WAITING) and does nothing.
    JobNode job;
    final long sinceNanos;       // System.nanoTime() at registration, for the watchdog
    // The counter's add-epoch read just before registering (see Counter). Moved forward, never back, by
    // Counter.ageWaiters once every 2^28 adds, so that it stays within 2^31 of the counter's. Plain: an
    // int is never torn, and a decrementer that reads the older value fires no node it should not.
    int epoch;
    WaitNode next;               // Treiber-stack link; written before the CAS that publishes the node, and
                                 // shortened later (plain) only past dead nodes (Counter.unlinkDeadBelow)
    private volatile int state;  // see class comment

    WaitNode(Thread thread, long target, Counter counter, int epoch, JobNode job) {
        this.thread = thread;
        this.job = job;
        this.epoch = epoch;
        this.target = target;
        this.counter = counter;
        this.sinceNanos = System.nanoTime();
    }

    /** A continuation: {@code onFire} runs once, on the thread whose decrement reaches {@code target}. */
    WaitNode(Runnable onFire, long target, Counter counter, int epoch) {
        this(null, target, counter, epoch, null);
        this.onFire = onFire;
    }

    /** Waiter, when its wait is over (the node has left WAITING): forget the job. */
    void ended() {
        job = null;
    }

    int state() {
        return state;
    }

    boolean isWaiting() {
        return state == WAITING;
    }

    /**
     * Decrementer: the counter reached the target. Unparks the waiter, or runs the continuation, if this
     * call won. A continuation's action must not throw (Prerequisites catches its own failures): it runs
     * inside a decrementer's walk of the stack.
     */
    boolean fire() {
        if (STATE.compareAndSet(this, WAITING, FIRED)) {
            Thread t = thread;
            if (t != null) {
                LockSupport.unpark(t);
            } else {
                Runnable action = onFire;        // the CAS made us its only reader
                onFire = null;
                action.run();
            }
            return true;
        }
        return false;
    }

    /** Canceller: wakes the waiter with a cancellation. */
    boolean cancel() {
        if (STATE.compareAndSet(this, WAITING, CANCELLED)) {
            LockSupport.unpark(thread);
            return true;
        }
        return false;
    }

    /**
     * Waiter, on timeout: gives up unless a decrementer fired first. Also a continuation whose job was
     * cancelled while pending (Prerequisites.Release#drop): the CAS makes us {@code onFire}'s only owner, so
     * we drop it; the dead node then keeps nothing of the job alive until a push's sweep unlinks it.
     */
    boolean abandon() {
        if (STATE.compareAndSet(this, WAITING, ABANDONED)) {
            onFire = null;                       // null already for a thread's node
            return true;
        }
        return false;
    }
}
