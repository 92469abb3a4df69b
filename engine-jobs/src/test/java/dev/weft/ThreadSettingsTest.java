package dev.weft;

import static dev.weft.TestSupport.join;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What a job sets on its thread with {@link Thread}'s setters (name, context class loader, uncaught-exception
 * handler) stays with the job: a later job on the same pooled fiber, the job a nested job ran inside, and a
 * waiting thread that ran a job for itself all see their own again. InheritableThreadLocal values of the
 * thread that built the system reach no job (documented on {@link Jobs}). Every check that a later job does
 * not see a change first checks that the later job ran on the same thread, so none passes for want of reuse.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ThreadSettingsTest {
    private static final ClassLoader MOD_LOADER = new ClassLoader("mod", null) {};
    private static final Thread.UncaughtExceptionHandler MOD_HANDLER = (t, e) -> {};

    /** One per-thread setting a job can change: how the job changes it and how a later job would see it. */
    enum Setting {
        NAME {
            @Override
            void change(Thread t) {
                t.setName("mod-job-name");
            }

            @Override
            boolean changed(Thread t) {
                return t.getName().equals("mod-job-name");
            }
        },
        CONTEXT_CLASS_LOADER {
            @Override
            void change(Thread t) {
                t.setContextClassLoader(MOD_LOADER);
            }

            @Override
            boolean changed(Thread t) {
                return t.getContextClassLoader() == MOD_LOADER;
            }
        },
        UNCAUGHT_EXCEPTION_HANDLER {
            @Override
            void change(Thread t) {
                t.setUncaughtExceptionHandler(MOD_HANDLER);
            }

            @Override
            boolean changed(Thread t) {
                return t.getUncaughtExceptionHandler() == MOD_HANDLER;
            }
        };

        abstract void change(Thread t);

        abstract boolean changed(Thread t);
    }

    static Stream<Arguments> settingsAndWorkers() {
        List<Arguments> all = new ArrayList<>();
        for (Setting s : Setting.values()) {
            all.add(Arguments.of(s, 1));
            all.add(Arguments.of(s, 2));
        }
        return all.stream();
    }

    /** What a job saw: the thread it ran on, and whether the setting looked changed when it started. */
    private record Seen(Thread thread, boolean changedAtStart) {}

    /**
     * A job changes the setting; the next job, submitted after it ended, must not see the change when it
     * runs on the same fiber. With 1 worker it always does (the worker's spare fiber); with 2 it does about
     * half of the time, and the test counts those runs.
     */
    @ParameterizedTest(name = "{0}, workers={1}")
    @MethodSource("settingsAndWorkers")
    void aLaterJobOnTheSameFiberDoesNotSeeTheChange(Setting setting, int workers) {
        try (JobSystem jobs = TestSupport.workersOnly(workers)) {
            int reused = 0;
            int leaked = 0;
            for (int i = 0; i < 100; i++) {
                Seen changer = join(jobs.submit(() -> {
                    Thread me = Thread.currentThread();
                    Seen seen = new Seen(me, setting.changed(me));
                    setting.change(me);
                    return seen;
                }));
                leaked += changer.changedAtStart() ? 1 : 0;     // only jobs make the change: an earlier one's
                Seen later = join(jobs.submit(() -> new Seen(Thread.currentThread(),
                        setting.changed(Thread.currentThread()))));
                if (later.thread() == changer.thread()) {
                    reused++;
                    leaked += later.changedAtStart() ? 1 : 0;
                }
            }
            assertTrue(reused > 0, "no later job ran on the changing job's fiber: the test checked nothing");
            assertEquals(0, leaked, setting + " set by a job was seen by " + leaked + " later jobs ("
                    + reused + " of 100 ran on the changing job's fiber)");
        }
    }

    /**
     * A child joined while at the bottom of the worker's deque runs inline on the parent's fiber. It starts
     * with the fiber's own settings, not the parent's change, and its own change is gone when the join
     * returns: the parent sees its own setting again.
     */
    @ParameterizedTest(name = "{0}, workers={1}")
    @MethodSource("settingsAndWorkers")
    void aNestedJobNeitherSeesNorLeavesAChange(Setting setting, int workers) {
        try (JobSystem jobs = TestSupport.workersOnly(workers)) {
            int inline = 0;
            for (int attempt = 0; attempt < 50 && inline < 5; attempt++) {   // 2 workers: a thief may take it
                boolean[] result = join(jobs.submit(() -> parentWithChild(jobs, setting)));
                if (!result[0]) {
                    continue;                                // stolen: ran on another fiber, checks nothing
                }
                inline++;
                assertTrue(!result[1], "the inline child started with the parent's " + setting + " or name");
                assertTrue(result[2], "the parent lost its own " + setting + " after running a child inline");
                assertTrue(result[3], "the parent's name is not its own after running a child inline");
            }
            assertTrue(inline > 0, "the child never ran inline on the parent's fiber: the test checked nothing");
        }
    }

    /** {ran inline, the child saw the parent's change, the parent kept its setting, the parent kept its name}. */
    private static boolean[] parentWithChild(JobSystem jobs, Setting setting) {
        Thread parent = Thread.currentThread();
        String parentName = parent.getName();
        setting.change(parent);
        parent.setName(parentName + "-parent");          // a change of the parent's own, kept over the join
        JobHandle<Seen> child = jobs.submit(() -> {
            Thread me = Thread.currentThread();
            Seen seen = new Seen(me, setting.changed(me) || me.getName().endsWith("-parent"));
            setting.change(me);
            me.setName("child");
            return seen;
        });
        Seen inChild = child.join();                     // at the bottom of our deque unless stolen: runs here
        return new boolean[] {inChild.thread() == parent, inChild.changedAtStart(),
            setting == Setting.NAME || setting.changed(parent), parent.getName().equals(parentName + "-parent")};
    }

    /**
     * InheritableThreadLocal values of the thread that built the system: no job sees them, the first on a
     * fiber included (it used to, and later jobs did not). The fiber's context class loader is still the
     * builder's.
     */
    @ParameterizedTest(name = "workers={0}")
    @org.junit.jupiter.params.provider.ValueSource(ints = {1, 2})
    void noJobSeesTheBuildersInheritableThreadLocals(int workers) {
        InheritableThreadLocal<String> inheritable = new InheritableThreadLocal<>();
        inheritable.set("builder's");
        try (JobSystem jobs = TestSupport.workersOnly(workers)) {
            Counter done = new Counter();
            List<String> seen = java.util.Collections.synchronizedList(new ArrayList<>());
            List<ClassLoader> loaders = java.util.Collections.synchronizedList(new ArrayList<>());
            for (int i = 0; i < 20; i++) {
                jobs.run(() -> {
                    seen.add(inheritable.get());
                    loaders.add(Thread.currentThread().getContextClassLoader());
                }, done);
            }
            TestSupport.await(done);
            assertEquals(20, seen.size());
            for (String s : seen) {
                assertNull(s, "a job saw the building thread's InheritableThreadLocal: " + seen);
            }
            for (ClassLoader l : loaders) {
                assertSame(Thread.currentThread().getContextClassLoader(), l, "a fiber's class loader");
            }
        } finally {
            inheritable.remove();
        }
    }

    /** A job the waiting test thread runs for itself (WaitingHelp) leaves the thread's settings as they were. */
    @Test
    void aJobAWaitingThreadRunsLeavesItsSettingsAsTheyWere() {
        Thread me = Thread.currentThread();
        String name = me.getName();
        ClassLoader loader = me.getContextClassLoader();
        Thread.UncaughtExceptionHandler handler = me.getUncaughtExceptionHandler();
        try (JobSystem jobs = TestSupport.system(1)) {
            AtomicBoolean release = new AtomicBoolean();
            AtomicBoolean holding = new AtomicBoolean();
            Counter busy = new Counter("busy");
            jobs.run(Priority.NORMAL, "hold the worker", () -> {
                holding.set(true);
                while (!release.get()) {
                    Thread.onSpinWait();
                }
            }, busy);
            TestSupport.eventually("the worker is held", holding::get);   // else it would take the FRAME job
            Counter frame = new Counter("frame");
            List<Thread> ranOn = java.util.Collections.synchronizedList(new ArrayList<>());
            jobs.run(Priority.FRAME, "frame job", () -> {
                ranOn.add(Thread.currentThread());
                for (Setting s : Setting.values()) {
                    s.change(Thread.currentThread());
                }
            }, frame);
            frame.await();                                   // the test thread runs the FRAME job
            release.set(true);
            TestSupport.await(busy);
            assertEquals(List.of(me), ranOn, "the waiting thread did not run the job: the test checked nothing");
            assertEquals(name, me.getName());
            assertSame(loader, me.getContextClassLoader());
            assertSame(handler, me.getUncaughtExceptionHandler());
        } finally {
            me.setName(name);                                // whatever happened, the next test gets them back
            me.setContextClassLoader(loader);
            me.setUncaughtExceptionHandler(null);
        }
    }
}
