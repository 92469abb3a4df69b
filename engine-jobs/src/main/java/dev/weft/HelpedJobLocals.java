package dev.weft;

import dev.weft.internal.FiberSupport;
import dev.weft.internal.ThreadSettings;

/**
 * What a waiting thread's helped job runs with instead of the thread's own (WaitingHelp.run): an empty
 * ThreadLocal map holding only Weft's entries, and the thread's settings to put back after. Both used to
 * be made per helped job, about 200 B each time: a game's main thread waiting on its frame allocated that
 * for every job it ran. Now the map a job left as it found it (no entry added) is kept for the next helped
 * job on the same thread, and the settings are kept while they stay the thread's.
 *
 * <p>Owned by the seat's holder: plain fields, handed from one holder to the next by the holder CAS
 * (acquire) and its release store, as the seat's WorkerLocal values are. The kept map is a thread's own
 * object, so it is reused only on that thread, and only with the mailbox entry it was made with. It is
 * not kept when it would hold on to something past its use: a main-thread job (a helped job inside that
 * job's wait: its handle and result) or another job system's mailbox. The kept settings hold the
 * thread's own name, class loader and handler, as the thread does.
 */
final class HelpedJobLocals {
    /**
     * Weft's entries in a helped job's map: the seat (WaitingHelp), the mailbox the thread owns and the
     * main-thread job it runs (MainThreadMailbox.keepOwnership sets both, null or not).
     */
    private static final int WEFT_ENTRIES = 3;

    private Object keptMap;                    // a helped job's map that job added nothing to, or null
    private Thread keptMapThread;              // the thread it belongs to
    private MainThreadMailbox keptMailbox;     // its OWNED entry (its RUNNING entry is null)
    private ThreadSettings keptSettings;       // a thread's settings, as ThreadSettings.of read them

    /**
     * Gives {@code me} (the current thread, whose own maps the caller holds) a map for a helped job of
     * {@code seat}: the kept one if it was made here with these entries, else a new one.
     */
    void install(WaitingHelp seat, Thread me, MainThreadMailbox mailbox, JobHandle<?> mainJob) {
        Object kept = keptMap;
        if (kept != null && keptMapThread == me && keptMailbox == mailbox && mainJob == null) {
            keptMap = null;                        // in use until keepIfUntouched
            FiberSupport.setThreadLocals(me, kept, null);
            return;
        }
        FiberSupport.setThreadLocals(me, null, null);
        MainThreadMailbox.keepOwnership(mailbox, mainJob);
        seat.markRunningHere();
    }

    /**
     * After the helped job of {@code seat}, before the caller puts {@code me}'s own maps back: keeps the
     * job's map if it holds Weft's entries alone (the job set no ThreadLocal, or removed what it set), no
     * inheritable map was made, and it holds nothing past its use (see the class comment). The entries are
     * counted, not read: reading an absent one would add it.
     */
    void keepIfUntouched(WaitingHelp seat, Thread me, MainThreadMailbox mailbox, JobHandle<?> mainJob) {
        Object used = FiberSupport.threadLocals(me);
        if (mainJob == null && (mailbox == null || mailbox == seat.scheduler.mainThread) && used != null
                && FiberSupport.inheritableThreadLocals(me) == null
                && FiberSupport.threadLocalCount(used) == WEFT_ENTRIES) {
            keptMap = used;
            keptMapThread = me;
            keptMailbox = mailbox;
        }
    }

    /**
     * {@code me}'s settings now (the current thread): the kept ones while they are still its values (read
     * on whichever holder: only the values matter), else read anew.
     */
    ThreadSettings settingsOf(Thread me) {
        ThreadSettings s = keptSettings;
        if (s != null && s.heldBy(me)) {
            return s;
        }
        s = ThreadSettings.of(me);
        keptSettings = s;
        return s;
    }
}
