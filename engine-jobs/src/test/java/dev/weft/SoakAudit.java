package dev.weft;

import static dev.weft.TestSupport.LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicIntegerArray;

/** The audit of one soak lifetime after termination: what {@link SoakTest} promises, checked on the state {@link SoakModel} holds. */
abstract class SoakAudit extends SoakModel {
    SoakAudit(int workers, int life, long seed, Ending ending) {
        super(workers, life, seed, ending);
    }

    void audit(Totals totals, int groupCancels) {
        JobSystemStats s = jobs.stats();
        long knownSubmitted = 0, started = 0, mainSubmitted = 0, mainStarted = 0, orphanFailures = 0;
        Map<String, Rec> byName = new HashMap<>();
        for (Rec r : all) {
            byName.put(r.name, r);
            int runs = r.runs.get();
            if (runs > 1 || (!r.submitted && runs != 0)) {
                violation(r.name + " submitted=" + r.submitted + " ran " + runs + " times");
            }
            if (runs == 1 && (r.outcome == NONE || r.outcome == UNEXPECTED)) {
                violation(r.name + " ran but its outcome is " + r.outcome);
            }
            if (r.submitted) {
                if (r.onMain) {
                    mainSubmitted++;
                    mainStarted += runs;
                } else {
                    knownSubmitted++;
                    started += runs;
                }
            }
            if (r.counterless && r.outcome == FAILED) {
                orphanFailures++;
            }
            JobHandle<?> h = r.handle;
            if (h != null) {
                checkHandle(r, h, runs);
            }
        }
        for (int i = 0; i < top.length; i++) {
            Rec r = top[i];
            if (r.submitted && r.hasCounter && (finished[i].failure() != null) != (r.outcome == FAILED)) {
                violation(r.name + ": counter failure " + finished[i].failure() + " but outcome " + r.outcome);
            }
        }
        long uncovered = 0;
        for (AtomicIntegerArray cov : ranges) {
            for (int k = 0; k < cov.length(); k++) {
                int c = cov.get(k);
                if (c > 1) {
                    violation("a parallelFor element ran " + c + " times");
                }
                uncovered += c == 0 ? 1 : 0;
            }
        }
        checkNoViolations();
        assertEquals(0, waitTimeouts.get(), "waits that timed out");
        assertEquals(workerStarts.sum(), started, "bodies started on workers vs per-job run counts");
        assertEquals(started + rangeBodies.sum(), s.jobsRun(), "stats().jobsRun() = job bodies that started on workers");
        assertEquals(mainStarted, s.mainThreadJobsRun(), "stats().mainThreadJobsRun()");
        assertEquals(mainStarts.get(), mainStarted);
        long cancelledKnown = knownSubmitted + mainSubmitted - started - mainStarted;
        long cancelledPieces = s.jobsCancelled() - cancelledKnown;
        assertTrue(cancelledPieces >= 0 && cancelledPieces <= uncovered && (uncovered == 0) == (cancelledPieces == 0),
                "submitted " + (knownSubmitted + mainSubmitted) + " = started " + (started + mainStarted)
                        + " + cancelled; stats().jobsCancelled() = " + s.jobsCancelled() + ", which leaves "
                        + cancelledPieces + " cancelled parallelFor pieces for " + uncovered + " uncovered elements");
        assertEquals(orphanFailures, uncaught.get(), "failures of fire-and-forget jobs reached the uncaught handler");
        List<JobInfo> reported = nowList.get();
        if (reported != null) {
            assertTrue(reported.size() <= s.jobsCancelled(), reported.size() + " reported > " + s.jobsCancelled());
            java.util.Set<String> seen = new java.util.HashSet<>();
            for (JobInfo info : reported) {
                Rec r = byName.get(info.name());
                if (r != null) {
                    assertTrue(seen.add(info.name()), "shutdownNow reported " + info.name() + " twice");
                    assertEquals(0, r.runs.get(), "shutdownNow reported " + info.name() + ", which ran");
                    assertTrue(r.submitted, "shutdownNow reported " + info.name() + ", which was never submitted");
                }
            }
        }
        for (Counter c : counters) {
            assertEquals(0, c.value(), c + " did not end at zero");
        }
        assertEquals(0, s.fibersParked(), "fibers parked after termination");
        assertEquals(0, s.fibersAlive(), "fibers alive after termination: " + s);
        String prefix = name + "-worker-";
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                join(t);                               // it counted down termination and is leaving
            }
        }
        if (!helping) {
            assertEquals(0, s.jobsRunByWaiters(), "jobs run by waiters with waitersHelp(false)");
        }
        assertEquals(helpedStarts.sum(), s.jobsRunByWaiters() - helpedRangePieces.sum(),
                "stats().jobsRunByWaiters() = job bodies the main thread ran while it waited");
        Totals mine = new Totals();
        mine.lifetimes = 1;
        mine.helped = s.jobsRunByWaiters();
        mine.jobsRun = s.jobsRun();
        mine.mainThreadJobsRun = s.mainThreadJobsRun();
        mine.cancelled = s.jobsCancelled();
        mine.rejected = rejected.sum();
        mine.reportedByShutdownNow = reported == null ? 0 : reported.size();
        mine.unchecked = unchecked.sum();
        mine.checked = checked.sum();
        mine.errors = errors.sum();
        mine.handleCancels = handleCancels.sum();
        mine.groupCancels = groupCancels;
        mine.honoured = honoured.sum();
        mine.waits = s.waits();
        mine.rangePieces = rangeBodies.sum();
        mine.endings.put(ending, 1);
        totals.add(mine);
    }

    private void checkHandle(Rec r, JobHandle<?> h, int runs) {
        if (!h.isDone()) {
            violation(h + " of " + r.name + " is not done after termination");
            return;
        }
        int o = r.outcome;
        if (runs == 0) {
            if (!h.isCancelled()) {
                violation(h + " never ran but is not cancelled");
            }
            return;
        }
        switch (o) {
            case OK -> {
                if (h.isCancelled() || !r.name.equals(h.getNow(null))) {
                    violation(h + " ended OK but reports " + h.getNow(null));
                }
            }
            case FAILED -> {
                try {
                    h.join(LONG);
                    violation(h + " failed but join returned");
                } catch (JobFailedException e) {
                    if (e.getCause() != r.thrown) {
                        violation(h + ": join's cause " + e.getCause() + " is not what the job threw");
                    }
                } catch (TimeoutException | JobCancelledException e) {
                    violation(h + " failed but join threw " + e);
                }
            }
            case HONOURED -> {
                if (!h.isCancelled()) {
                    violation(h + " ended by honouring a cancellation but is not cancelled");
                }
            }
            default -> violation(h + " ran with outcome " + o);
        }
    }

    void join(Thread t) {
        try {
            t.join(LONG.toMillis());
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        if (t.isAlive()) {
            fail(t.getName() + " still alive after " + LONG + " (terminated: " + jobs.isTerminated() + ")\n" + dump());
        }
    }
}
