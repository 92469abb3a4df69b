package dev.weft.examples;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A README's snippet is the text between an example's {@code // README snippet begin} and {@code end}
 * lines, without their common indentation; the README must hold it as one whole {@code java} block, so
 * the README's code is code that compiles and runs.
 */
class ReadmeSnippetTest {
    private static final String BEGIN = "// README snippet begin";
    private static final String END = "// README snippet end";

    @ParameterizedTest
    @CsvSource({
            "LwjglLoopExample.java, demo-game/README.md",
            "CompletableFutureExample.java, README.md",
    })
    void theReadmeShowsTheExampleExactly(String exampleFile, String readme) throws IOException {
        Path root = Path.of(System.getProperty("weft.repo.root", ".."));
        String source = Files.readString(root.resolve("examples/src/main/java/dev/weft/examples").resolve(exampleFile));
        String snippet = snippet(source, exampleFile);
        String block = "```java\n" + snippet + "```\n";
        String readmeText = Files.readString(root.resolve(readme)).replace("\r\n", "\n");
        assertTrue(readmeText.contains(block), readme + " must hold, as one ```java block, the snippet of "
                + exampleFile + " (copy it from there):\n" + block);
    }

    static String snippet(String source, String name) {
        List<String> lines = source.replace("\r\n", "\n").lines().toList();
        int begin = -1;
        int end = -1;
        for (int i = 0; i < lines.size(); i++) {
            String t = lines.get(i).strip();
            if (t.equals(BEGIN)) {
                begin = i;
            } else if (t.equals(END)) {
                end = i;
            }
        }
        if (begin < 0 || end <= begin + 1) {
            throw new AssertionError(name + " needs a '" + BEGIN + "' line, then code, then a '" + END + "' line");
        }
        List<String> body = new ArrayList<>(lines.subList(begin + 1, end));
        int indent = body.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder out = new StringBuilder();
        for (String l : body) {
            out.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return out.toString();
    }
}
