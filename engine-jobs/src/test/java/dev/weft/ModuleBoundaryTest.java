package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.jctools.queues.MpscArrayQueue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * engine-jobs as a JPMS module, seen from a consumer module: {@code dev.weft} is the whole API,
 * {@code dev.weft.internal} cannot be compiled against, and on the module path the missing-flag message
 * names the flag for the module ({@code =dev.weft}), not the class path's {@code =ALL-UNNAMED}
 * (DiagnosticsTest checks that one).
 */
class ModuleBoundaryTest {
    private static final String GOOD_MAIN = """
            package game;

            public class Main {
                public static void main(String[] args) throws Exception {
                    try (dev.weft.JobSystem jobs = dev.weft.JobSystem.builder().workers(2).build()) {
                        dev.weft.Counter done = new dev.weft.Counter();
                        java.util.concurrent.atomic.AtomicInteger ran = new java.util.concurrent.atomic.AtomicInteger();
                        for (int i = 0; i < 100; i++) {
                            jobs.run(ran::incrementAndGet, done);
                        }
                        done.await();
                        System.out.println("ran " + ran.get() + " in module " + dev.weft.JobSystem.class.getModule().getName());
                    } catch (IllegalStateException e) {
                        System.out.println(e.getMessage());
                    }
                }
            }
            """;

    @Test
    void aConsumerModuleCannotCompileAgainstTheInternalPackage(@TempDir Path dir) throws Exception {
        String errors = compileConsumer(dir, """
                package game;

                public class Main {
                    public static void main(String[] args) {
                        System.out.println(dev.weft.internal.FiberSupport.currentCarrier());
                    }
                }
                """);
        assertFalse(errors.isEmpty(), "a consumer module compiled against dev.weft.internal");
        assertTrue(errors.contains("package dev.weft.internal is not visible"), errors);
        assertTrue(errors.contains("does not export it"), errors);
    }

    @Test
    void onTheModulePathTheMissingFlagMessageNamesTheModuleAndThatFlagWorks(@TempDir Path dir) throws Exception {
        String errors = compileConsumer(dir, GOOD_MAIN);
        assertEquals("", errors, "the control consumer (public API only) must compile");

        String withoutFlag = runConsumer(dir);
        assertTrue(withoutFlag.contains("`--add-opens java.base/java.lang=dev.weft`"), withoutFlag);
        assertFalse(withoutFlag.contains("ran "), withoutFlag);

        String withFlag = runConsumer(dir, "--add-opens", "java.base/java.lang=dev.weft");
        assertTrue(withFlag.contains("ran 100 in module dev.weft"), withFlag);
    }

    /** Compiles module {@code game} (requires dev.weft) with {@code main}; javac's errors, or "". */
    private static String compileConsumer(Path dir, String main) throws Exception {
        Path src = dir.resolve("src/game");
        Files.createDirectories(src.resolve("game"));
        Files.writeString(src.resolve("module-info.java"), "module game { requires dev.weft; }\n");
        Files.writeString(src.resolve("game/Main.java"), main);
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        StringWriter out = new StringWriter();
        // An explicit, empty class path: javac in this JVM would otherwise take java.class.path (the test
        // class path, engine-jobs included), and then say either "declared in module dev.weft, which does
        // not export it" or "declared in the unnamed module", whichever copy it happens to look at first.
        Path emptyClassPath = Files.createDirectories(dir.resolve("empty-class-path"));
        int rc = javac.getTask(out, null, null,
                List.of("--module-path", modulePath(), "--class-path", emptyClassPath.toString(),
                        "-d", dir.resolve("out").toString()), null,
                javac.getStandardFileManager(null, null, null).getJavaFileObjects(
                        src.resolve("module-info.java"), src.resolve("game/Main.java"))).call() ? 0 : 1;
        return rc == 0 ? "" : out.toString();
    }

    private static String runConsumer(Path dir, String... jvmFlags) throws Exception {
        List<String> javaArgs = new ArrayList<>(List.of(jvmFlags));
        javaArgs.addAll(List.of("--module-path", modulePath() + java.io.File.pathSeparator + dir.resolve("out"),
                "-m", "game/game.Main"));
        return ChildJvm.java(javaArgs).output();
    }

    /** engine-jobs' compiled classes (with module-info.class) and the JCTools jar it requires. */
    private static String modulePath() throws Exception {
        return locationOf(JobSystem.class) + java.io.File.pathSeparator + locationOf(MpscArrayQueue.class)
                + java.io.File.pathSeparator + locationOf(org.jctools.queues.varhandle.MpscVarHandleArrayQueue.class);
    }

    private static String locationOf(Class<?> c) throws Exception {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
