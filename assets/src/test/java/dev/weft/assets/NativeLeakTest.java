package dev.weft.assets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** No native memory leaks, counted by LWJGL's debug allocator in a fresh JVM (see {@link NativeLeakProbe}). */
@Timeout(300)
class NativeLeakTest {

    @Test
    void brokenGoodAndCancelledLoadsFreeEveryNativeByte() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<String> cmd = new ArrayList<>(List.of(java, "--add-opens", "java.base/java.lang=ALL-UNNAMED",
                "--enable-native-access=ALL-UNNAMED",
                "-cp", classpath, NativeLeakProbe.class.getName()));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(Fixture.TIMEOUT.toSeconds(), TimeUnit.SECONDS), "probe hung");
        String text = new String(out, StandardCharsets.UTF_8);
        System.out.print("native leak probe: " + text);
        assertEquals(0, p.exitValue(), text);
        assertTrue(text.contains("live native bytes after 3 rounds: +0 (fibers parked 0)"), text);
    }
}
