package dev.weft;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A game's "Quit" job calls {@code System.exit(3)}; the game's shutdown hook closes the job system. The
 * exiting job waits for the hook, and the hook's {@code close()} waited for every job, that one included:
 * the JVM never exited (killed after 120 s). Now the hook's close waits for the other jobs (a save still
 * being written), then returns without the exiting one.
 */
class SystemExitInJobTest {

    @Test
    void aJobCallingSystemExitWhileAHookClosesTheSystemLetsTheJvmExit(@TempDir Path dir) throws Exception {
        ChildJvm.Result r = ChildJvm.run(dir, "QuitButton", """
                import dev.weft.*;
                public class QuitButton {
                    public static void main(String[] a) throws Exception {
                        JobSystem jobs = JobSystem.builder().workers(2).build();
                        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                            jobs.close();
                            System.out.println("hook: closed");
                        }));
                        Counter saving = new Counter("saving");
                        jobs.run(Priority.NORMAL, "save", () -> {
                            Thread.sleep(300);
                            System.out.println("save written");
                        }, saving);
                        jobs.run(Priority.NORMAL, "quit button", () -> System.exit(3), null);
                        Thread.sleep(60_000);
                        System.out.println("main: still alive after 60 s");
                    }
                }
                """, "--add-opens", "java.base/java.lang=ALL-UNNAMED");
        assertEquals(3, r.exitCode(), r.output());
        assertTrue(r.output().contains("save written"), "the other job ran to its end first: " + r.output());
        assertTrue(r.output().contains("hook: closed"), r.output());
        assertTrue(r.output().contains("'quit button'") && r.output().contains("System.exit"),
                "close() says which job it did not wait for: " + r.output());
        assertTrue(r.output().indexOf("save written") < r.output().indexOf("hook: closed"), r.output());
    }
}
