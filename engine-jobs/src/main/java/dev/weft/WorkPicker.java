package dev.weft;

import dev.weft.internal.InjectionQueue;
import dev.weft.internal.WorkStealingDeque;

/**
 * Where queued work waits and how a worker picks it: the one place for scheduling policy (scan order,
 * the starvation bound, victim choice, steal batching), so a policy change or an A/B test touches this
 * file only.
 *
 * <p>Each {@link Worker} owns, per priority, a Chase–Lev deque of new jobs and one of ready fibers
 * ({@link WorkStealingDeque}): the owner pushes and pops at the bottom (LIFO: the freshest, cache-warm
 * child first), thieves steal at the top (FIFO: the oldest, usually largest, piece). Work from threads
 * that are not workers enters through the per-priority {@link InjectionQueue}s here (JCTools MPSC with
 * a one-consumer-at-a-time turn).
 *
 * <p>{@link #pollNext} scans priorities from FRAME to BACKGROUND; within one priority: own ready fibers,
 * own new jobs, injected ready fibers, injected jobs (a batch moves into the own deque, where others can
 * steal it), then stealing — ready fibers first — from the other workers, starting at a random victim
 * (per-worker xorshift) and visiting each once. Every {@link #STARVATION_INTERVAL}th scan starts at
 * NORMAL or BACKGROUND in turn instead ({@link #firstPriorityToScan}).
 *
 * <p>Every method that takes a {@code Worker} runs on that worker's thread (its carrier or a fiber
 * mounted on it); the injection queues and steals are the only cross-thread paths.
 */
final class WorkPicker {
    /** Every this-many scans for work, a worker starts at a lower priority (see {@link Priority}). */
    static final int STARVATION_INTERVAL = 64;
    private static final int INJECTED_BATCH = 32;
    /** Most jobs one visit to a victim takes: the first steal plus up to this minus one more (1: one per visit, for A/B). */
    static final int STEAL_BATCH = Integer.getInteger("weft.internal.stealBatch", 8);
    /** Default of {@link #readyGraceNanos} (Go's {@code runnext} grace is 3 µs); the property is for A/B runs. */
    static final long DEFAULT_READY_GRACE_NANOS = Long.getLong("weft.internal.readyGraceNanos", 5_000L);

    private final Worker[] workers;
    final StealTargets targets;                       // the victims' deques, read without touching a Worker
    final InjectionQueue<JobNode>[] injectedJobs;     // offered by outside submitters, drained by workers
    final InjectionQueue<Object>[] injectedReady;     // fibers woken from outside the workers
    private final WorkerParking parking;
    private final Observation observation;
    private final PriorityCaps caps;
    /** How long a thief leaves a lone ready fiber to its awake owner (see {@link #stealReady}); 0: never. */
    private final long readyGraceNanos;

    @SuppressWarnings("unchecked")
    WorkPicker(Worker[] workers, WorkerParking parking, Observation observation, PriorityCaps caps,
               long readyGraceNanos) {
        this.workers = workers;
        this.targets = new StealTargets(workers);
        this.readyGraceNanos = readyGraceNanos;
        this.parking = parking;
        this.observation = observation;
        this.caps = caps;
        this.injectedJobs = (InjectionQueue<JobNode>[]) new InjectionQueue<?>[Priority.COUNT];
        this.injectedReady = (InjectionQueue<Object>[]) new InjectionQueue<?>[Priority.COUNT];
        for (int p = 0; p < Priority.COUNT; p++) {
            injectedJobs[p] = new InjectionQueue<>();
            injectedReady[p] = new InjectionQueue<>();
        }
    }

    /**
     * shutdownNow: takes every queued job out and cancels it (reported through {@code s}). Any thread:
     * a steal is safe from anywhere, and the injection queue's one-consumer turn serializes us with the
     * workers. A job a worker takes concurrently is the worker's (the take is one CAS, or the owner's
     * pop): it runs, seeing isCancelled(). So every job that never ran is cancelled here, and nothing
     * that ran is.
     */
    void cancelAllQueued(Scheduler s) {
        for (int p = 0; p < Priority.COUNT; p++) {
            JobNode j;
            InjectionQueue<JobNode> injected = injectedJobs[p];
            while ((j = injected.poll()) != null || !injected.isEmpty()) {
                if (j != null) {
                    j.cancelBeforeStart(s);
                }
            }
            for (Worker w : workers) {
                JobDeque d = w.jobs[p];
                while (!d.isEmpty()) {
                    j = d.steal();
                    if (j != null) {
                        j.cancelBeforeStart(s);
                    }
                }
                // Nodes a push kept aside (the ring could not grow): queued jobs too, so cancelled and listed
                // here. Taken whole by one getAndSet, exclusive with the owner's one-by-one CAS and a thief's.
                for (j = d.takeAllOverflow(); j != null; ) {
                    JobNode rest = JobDeque.unlinkHead(j);
                    j.cancelBeforeStart(s);
                    j = rest;
                }
            }
        }
    }

    /** A fiber became runnable: queue it on this worker, or inject it. */
    void enqueueReady(Worker current, Fiber item, int priority) {
        if (current != null) {
            boolean wake;
            try {
                wake = current.ready[priority].push(item);
            } catch (OutOfMemoryError noRoom) {
                // The ring could not grow (the heap exhausted): the wake must not be lost, or the fiber
                // would wait for ever. The injection queue allocates only when a whole chunk is queued.
                injectedReady[priority].offer(item);
                wake = true;
            }
            if (wake) {
                parking.signalWork(priority);
            }
        } else {
            injectedReady[priority].offer(item);
            parking.signalWork(priority);
        }
    }

    /**
     * The next thing for worker {@code w} to do: a {@link JobNode} to start, or a ready {@link Fiber}
     * to mount; null if nothing was found. Owner thread of {@code w} only.
     */
    Object pollNext(Worker w) {
        // The starvation bound counts picks, not scans: an idle worker scans as often as timing lets it,
        // so counting every scan put the rotation's phase (which priority a scan starts at) at the mercy of
        // how long the worker had spun before work came, and deterministic mode replayed a different job
        // order from one run to the next with the same seed. Counting only scans that found something
        // keeps the bound (while work is queued, scans find it) and makes the phase a function of the jobs.
        int n = w.pollCount + 1;
        Object x = scan(w, firstPriorityToScan(n));
        if (x != null) {
            w.pollCount = n;
        }
        return x;
    }

    private Object scan(Worker w, int first) {
        boolean readyOnly = w.exhaustedSinceNanos != 0 && !w.retryDryPool;
        w.retryDryPool = false;
        int skipped = 0;                               // capped levels passed over: empty or at the cap
        boolean atCap = false;
        for (int i = 0; i < Priority.COUNT; i++) {
            int p = (first + i) % Priority.COUNT;
            Object x;
            if (caps.isCapped(p)) {                    // uncapped: this one test of a final field
                if (!caps.hasRoom(p)) {
                    skipped |= 1 << p;
                    atCap = true;
                    continue;
                }
                if ((x = pollCapped(w, p, readyOnly, false)) == null) {
                    skipped |= 1 << p;                 // empty, or lost the slot (put back, signalled)
                    continue;
                }
            } else {
                x = pollPriority(w, p, readyOnly);
                if (x == null) {
                    continue;
                }
                // A ready fiber whose stack holds a capped priority (a FRAME job running BACKGROUND
                // inline, or the reverse) needs that slot too; refused, it went back to our ready deque.
                if (caps.cappedMask != 0 && x instanceof Fiber f && f.capMask != 0
                        && !admitFiber(w, f, p, false)) {
                    skipped |= 1 << p;
                    atCap = true;
                    continue;
                }
            }
            if (atCap) {
                // We pass over capped work at its cap for other work: a sleeping worker must look at it
                // (it takes it, over the cap if it finds nothing else), or it could wait with a worker idle.
                parking.signalWork();
            }
            return x;
        }
        // Work conservation: nothing else was found, so capped work runs over its cap rather than leave
        // this worker idle (overflow slots; non-preemptive: see PriorityCaps).
        for (int i = 0; skipped != 0 && i < Priority.COUNT; i++) {
            int p = (first + i) % Priority.COUNT;
            if ((skipped & (1 << p)) != 0) {
                Object x = caps.isCapped(p) ? pollCapped(w, p, readyOnly, true) : pollPriority(w, p, readyOnly);
                if (x instanceof Fiber f && !caps.isCapped(p)) {
                    admitFiber(w, f, p, true);         // never refused with overflow
                }
                if (x != null) {
                    return x;
                }
            }
        }
        return null;
    }

    /** Polls capped priority {@code p} and takes the slot for what it found; null if none or refused. */
    private Object pollCapped(Worker w, int p, boolean readyOnly, boolean overflow) {
        Object x = pollPriority(w, p, readyOnly);
        if (x == null) {
            return null;
        }
        if (x instanceof Fiber f) {
            return admitFiber(w, f, p, overflow) ? x : null;
        }
        JobNode j = (JobNode) x;                       // ready queues hold fibers only
        if (caps.take(w, p, overflow)) {
            return x;
        }
        if (w.jobs[p].push(j)) {                       // lost the slot to another worker: put it back
            parking.signalWork(p);
        }
        return null;
    }

    /**
     * Takes the slots of ready fiber {@code f}'s stack for the worker's hand ({@link Worker#capTaken},
     * moved to {@code capHeld} when it is mounted); refused: {@code f} goes back to our ready deque.
     */
    private boolean admitFiber(Worker w, Fiber f, int p, boolean overflow) {
        int mask = f.capMask;
        if (mask == 0) {
            return true;
        }
        int before = w.capHeld;
        if (caps.takeAll(w, mask, overflow)) {
            int taken = w.capHeld & ~before;
            w.capHeld = before;
            w.capTaken |= taken;
            return true;
        }
        if (w.ready[p].push(f)) {
            parking.signalWork(p);
        }
        return false;
    }

    /**
     * The starvation bound. Most scans start at FRAME. Every {@link #STARVATION_INTERVAL}th
     * pick (a scan that found something; see {@link #pollNext}) starts at a lower priority instead, taking
     * turns (NORMAL, then BACKGROUND, then NORMAL...) and wrapping round to FRAME after BACKGROUND. So
     * while a priority has queued work, each worker picks it at least once every
     * {@code STARVATION_INTERVAL × (Priority.COUNT − 1)} picks (128), whatever
     * keeps the other two busy. (A plain reverse scan, BACKGROUND first, let NORMAL starve whenever FRAME
     * and BACKGROUND both always had work.)
     */
    static int firstPriorityToScan(int pollCount) {
        if ((pollCount & (STARVATION_INTERVAL - 1)) != 0) {
            return 0;
        }
        int turn = pollCount >>> Integer.numberOfTrailingZeros(STARVATION_INTERVAL);   // >= 0
        return 1 + turn % (Priority.COUNT - 1);
    }

    private Object pollPriority(Worker w, int p, boolean readyOnly) {
        Object x;
        WorkStealingDeque<Object> ownReady = w.ready[p];
        if (!ownReady.isEmpty() && (x = ownReady.pop()) != null) {
            return x;
        }
        if (!readyOnly) {
            JobDeque own = w.jobs[p];
            java.util.SplittableRandom seeded = w.seededChoices;   // deterministic mode only
            JobNode j = null;
            if (seeded == null) {
                j = own.pop();                     // no isEmpty() first: it reads top, the thieves' line
            } else if (!own.isEmpty()) {
                // Draw only for a non-empty deque: a draw per empty poll would tie the choices to timing.
                j = seeded.nextBoolean() ? own.steal() : own.pop();
            } else if (own.hasOverflow()) {
                j = own.pop();                     // the ring is empty: pop takes from its overflow list
            }
            if (j != null) {
                return j;
            }
        }
        if ((x = injectedReady[p].poll()) != null) {
            return x;
        }
        if (!readyOnly && (x = pollInjectedJobs(w, p)) != null) {
            return x;
        }
        return steal(w, p, readyOnly);
    }

    private Object pollInjectedJobs(Worker w, int p) {
        InjectionQueue<JobNode> q = injectedJobs[p];
        if (q.isEmpty()) {
            return null;
        }
        JobDeque own = w.jobs[p];
        // Into a ring our own pop has just found empty, so no growth; and push never throws for lack of
        // room (JobDeque.keepOverflow), so drain never loses an element it polled.
        int moved = q.drain(own::push, INJECTED_BATCH);
        if (moved > 1) {
            parking.signalWork(p);                 // the batch is stealable now: let a sleeping worker share it
        }
        return moved > 0 ? own.pop() : null;
    }

    /**
     * Victims by index, through {@link StealTargets}: a scan reads no other worker's {@code Worker}, except
     * {@code parkState} (padded) when a victim holds one lone ready fiber ({@link #stealReady}).
     */
    private Object steal(Worker w, int p, boolean readyOnly) {
        int n = workers.length;
        if (n == 1) {
            return null;
        }
        int start = w.nextRandom() % n;
        for (int k = 0; k < n; k++) {
            int v = (start + k) % n;
            if (v == w.index) {
                continue;
            }
            Object x = stealReady(w, v, targets.ready(v, p));
            if (x == null && !readyOnly) {
                x = stealJobs(w, targets.jobs(v, p), w.jobs[p]);
            }
            if (x != null) {
                return x;
            }
        }
        return null;
    }

    /**
     * Steals a ready fiber from worker {@code v}, except the one case where its owner will very likely run
     * it within a microsecond: a lone fiber on an awake worker. That is what a wait/resume hand-off looks
     * like (job A readies fiber B on its own worker, then parks, and the worker pops B next): stealing B
     * there moves B's stack and every line the two touch to the other core on each hand-off (WaitResume:
     * 3.7-4.2 µs per round trip instead of 0.6-1.0). So a thief leaves such a fiber alone for
     * {@link #readyGraceNanos} and then takes it if it is still the same one, as Go's scheduler does
     * with {@code runnext} (3 µs). A readied fiber left behind a long job therefore waits at most the grace
     * for an idle worker. Several ready fibers, or a parked owner: no grace.
     */
    private Object stealReady(Worker thief, int v, WorkStealingDeque<Object> victim) {
        int size = victim.size();                      // an empty deque costs this one read
        if (size == 0) {
            return null;
        }
        if (size > 1 || readyGraceNanos <= 0 || workers[v].parkState == Worker.PARKED) {
            return takeTop(thief, victim);
        }
        long t = victim.topIndex();
        long now = System.nanoTime();
        if (thief.graceDeque != victim || thief.graceTop != t) {
            thief.graceDeque = victim;                 // first sight of this fiber: start its grace
            thief.graceTop = t;
            thief.graceEndNanos = now + readyGraceNanos;
            thief.graceWaiting = true;
            return null;
        }
        if (now - thief.graceEndNanos < 0) {
            thief.graceWaiting = true;
            return null;
        }
        thief.count(Worker.STEAL_ATTEMPTS);
        Object x = victim.stealIfTopIs(t);             // still the same fiber, or nothing
        if (x != null) {
            countSteal(thief, x);
        }
        return x;
    }

    /** Steals from a ready deque seen non-empty, and wakes a sleeper if more is left. */
    private Object takeTop(Worker thief, WorkStealingDeque<?> victim) {
        thief.count(Worker.STEAL_ATTEMPTS);
        Object x = victim.steal();
        if (x != null) {
            countSteal(thief, x);
            if (!victim.isEmpty()) {
                parking.signalWork();              // the chain: more is left for a sleeping worker
            }
        }
        return x;
    }

    /**
     * Steals a job from {@code victim} and then up to half of what it still holds (at most
     * {@link #STEAL_BATCH} − 1 more) into the thief's own deque, one ordinary steal each. A lone steal
     * moves the victim's {@code top} line and a slot line to the thief for one job; consecutive steals
     * find both lines already in the thief's cache, so a batch costs about one transfer instead of one
     * per job (EmptyJobs, 2 workers: half the jobs were stolen one at a time). Taking at most half
     * leaves the victim its freshest work. No {@code isEmpty()} before the first steal: a steal that
     * finds nothing reads only {@code top}, the slot and a stamp, never the owner's {@code bottom}; the
     * one read of {@code bottom} is the size after a successful steal. A steal attempt is counted when the
     * top element looked unclaimed, as {@link JobSystemStats.WorkerStats#stealAttempts} says. A job in flight between the two
     * deques is held by an awake worker, as a single stolen job is, and {@code admit} cancels it if
     * shutdownNow came meanwhile.
     */
    private JobNode stealJobs(Worker thief, JobDeque victim, JobDeque own) {
        if (!victim.looksStealable()) {
            // One opaque load more, on the line looksStealable has just read (the ring's array): nodes the
            // victim could not fit in its ring (the heap exhausted) are ours to run while it is busy.
            return victim.hasOverflow() ? stealOverflow(thief, victim, own) : null;
        }
        thief.count(Worker.STEAL_ATTEMPTS);
        JobNode first = victim.steal();
        if (first == null) {
            return null;
        }
        countSteal(thief, first);
        int left = victim.size();
        if (left > 0) {
            parking.signalWork();              // the chain: more is left for a sleeping worker
        }
        int more = Math.min(STEAL_BATCH - 1, left / 2);
        for (int i = 0; i < more; i++) {
            JobNode j = victim.steal();
            if (j == null) {
                break;                         // lost a race (another thief or the owner's last pop)
            }
            countSteal(thief, j);
            // The thief is awake and will pop it: nobody to wake. Our ring was empty before this visit (we
            // steal only after our own pop found nothing), so the batch never makes it grow; should it
            // have to and the heap be exhausted, push keeps j on our overflow list (JobDeque.keepOverflow).
            own.push(j);
        }
        return first;
    }

    /**
     * Cold: takes {@code victim}'s whole overflow list (JobDeque.keepOverflow: nodes its ring could not fit
     * while the heap was exhausted), runs the first and pushes the rest onto our own deque, where others may
     * steal them in turn. Before, only the owner could run them: a long job on the owner left them waiting
     * while every other worker spun on "work visible" and took nothing. Our ring was empty (we steal only
     * after our own pop found nothing); should it have to grow and fail, push keeps the rest on our own list.
     */
    private JobNode stealOverflow(Worker thief, JobDeque victim, JobDeque own) {
        JobNode first = victim.takeAllOverflow();
        if (first == null) {
            return null;                               // the owner or another thief emptied it meanwhile
        }
        thief.count(Worker.STEAL_ATTEMPTS);
        countSteal(thief, first);
        boolean moved = false;
        for (JobNode j = JobDeque.unlinkHead(first); j != null; ) {
            JobNode rest = JobDeque.unlinkHead(j);
            countSteal(thief, j);
            own.push(j);
            moved = true;
            j = rest;
        }
        if (moved) {
            parking.signalWork();                      // stealable now: let a sleeping worker share them
        }
        return first;
    }

    private void countSteal(Worker thief, Object item) {
        thief.count(Worker.STEALS);
        if (observation.isObserved()) {
            try {
                observation.stole(thief, item);
            } catch (Throwable noRoom) {
                // A trace record or JFR event could not be made (the heap exhausted): the item was taken
                // already and is in our hand alone, so the observation is dropped, never the item.
            }
        }
    }

    /**
     * The priorities above (more urgent than) {@code priority} that have queued work anywhere, as bits
     * (0: none). Reads only: the scan of {@link Jobs#checkpoint()}'s slow path (CheckpointSignal).
     */
    int queuedAbove(int priority) {
        int found = 0;
        for (int p = 0; p < priority; p++) {
            if (!injectedJobs[p].isEmpty() || !injectedReady[p].isEmpty()) {
                found |= 1 << p;
                continue;
            }
            for (int v = 0; v < targets.workerCount(); v++) {
                if (targets.hasQueued(v, p)) {
                    found |= 1 << p;
                    break;
                }
            }
        }
        return found;
    }

    /** Any queue anywhere non-empty? Reads only (used by spinning and the pre-park re-check). */
    boolean hasVisibleWork() {
        for (int p = 0; p < Priority.COUNT; p++) {
            if (!injectedJobs[p].isEmpty() || !injectedReady[p].isEmpty()) {
                return true;
            }
        }
        for (int v = 0; v < targets.workerCount(); v++) {
            for (int p = 0; p < Priority.COUNT; p++) {
                if (targets.hasQueued(v, p)) {
                    return true;
                }
            }
        }
        return false;
    }
}
