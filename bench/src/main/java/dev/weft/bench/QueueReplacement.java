package dev.weft.bench;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.MpmcUnboundedXaddArrayQueue;
import org.jctools.queues.MpscArrayQueue;
import org.jctools.queues.MpscUnboundedXaddArrayQueue;
import org.jctools.queues.varhandle.MpmcVarHandleArrayQueue;
import org.jctools.queues.varhandle.MpscUnboundedVarHandleArrayQueue;
import org.jctools.queues.varhandle.MpscVarHandleArrayQueue;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Group;
import org.openjdk.jmh.annotations.GroupThreads;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Each JCTools queue Weft replaced, against its replacement, in one run: the Unsafe-based queues of
 * {@code jctools-core} ({@code impl=unsafe}) against the VarHandle ones of {@code jctools-core-jdk11}
 * ({@code impl=varhandle}) that let Weft drop {@code --sun-misc-unsafe-memory-access}. Two threads per
 * group, as on this 2-core machine. Score: ns per operation (average time).
 * <ul>
 *   <li>{@code injection}: the injection queue, one producer offering and one consumer polling
 *       (MPSC unbounded: Xadd against the linked-chunk VarHandle queue). The producer backs off above
 *       4,096 queued, so an unbounded queue cannot grow without bound in the run.</li>
 *   <li>{@code returned}: a worker's return queue of finished nodes (MPSC bounded, 1,024): one thread
 *       offers, the home worker polls.</li>
 *   <li>{@code idlePool}: the idle fiber pool, each thread taking a fiber and giving it back (MPMC:
 *       unbounded Xadd against the bounded VarHandle array of {@code IdleFibers}, whose overflow queue a
 *       steady state never reaches).</li>
 * </ul>
 */
@State(Scope.Group)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(value = 3)
public class QueueReplacement {
    private static final Object TOKEN = new Object();
    private static final int BACKLOG_LIMIT = 4_096;

    @Param({"unsafe", "varhandle"})
    public String impl;

    private MessagePassingQueue<Object> injection;
    private MessagePassingQueue<Object> returned;
    private MessagePassingQueue<Object> idle;
    private final ConcurrentLinkedQueue<Object> idleOverflow = new ConcurrentLinkedQueue<>();

    @Setup
    public void setUp() {
        boolean unsafe = "unsafe".equals(impl);
        injection = unsafe ? new MpscUnboundedXaddArrayQueue<>(256) : new MpscUnboundedVarHandleArrayQueue<>(256);
        returned = unsafe ? new MpscArrayQueue<>(1024) : new MpscVarHandleArrayQueue<>(1024);
        idle = unsafe ? new MpmcUnboundedXaddArrayQueue<>(64) : new MpmcVarHandleArrayQueue<>(1024);
        for (int i = 0; i < 8; i++) {
            idle.offer(new Object());             // a few idle fibers, as in a steady state
        }
    }

    @Benchmark
    @Group("injection")
    @GroupThreads(1)
    public boolean injectionOffer() {
        return injection.size() < BACKLOG_LIMIT && injection.offer(TOKEN);
    }

    @Benchmark
    @Group("injection")
    @GroupThreads(1)
    public Object injectionPoll() {
        return injection.poll();
    }

    @Benchmark
    @Group("returned")
    @GroupThreads(1)
    public boolean returnedOffer() {
        return returned.relaxedOffer(TOKEN);      // as Worker.giveBack: full drops the node
    }

    @Benchmark
    @Group("returned")
    @GroupThreads(1)
    public Object returnedPoll() {
        return returned.relaxedPoll();
    }

    @Benchmark
    @Group("idlePool")
    @GroupThreads(2)
    public Object idleTakeAndGiveBack() {
        Object f = idle.poll();
        if (f == null) {
            f = idleOverflow.poll();              // IdleFibers.poll: the array, then the overflow
        }
        if (f == null) {
            f = TOKEN;
        }
        if (!idle.offer(f)) {
            idleOverflow.offer(f);
        }
        return f;
    }
}
