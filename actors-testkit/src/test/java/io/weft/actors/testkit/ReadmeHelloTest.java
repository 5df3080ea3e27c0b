package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import io.weft.actors.testkit.readme.Hello;
import org.junit.jupiter.api.Test;

/** The README's hello world is {@link Hello} (compiled by this build) and prints what it says. */
class ReadmeHelloTest {
    private static final String MARKER = "<!-- hello: actors-testkit/src/test/java/io/weft/actors/testkit/readme/Hello.java -->";

    @Test
    void readmeShowsHelloJavaWithoutItsPackageLine() throws Exception {
        String readme = Files.readString(Path.of("../README.md"));
        int marker = readme.indexOf(MARKER);
        int start = readme.indexOf("```java\n", marker) + "```java\n".length();
        int end = readme.indexOf("```", start);
        String shown = readme.substring(start, end);
        String source = Files.readString(Path.of("src/test/java/io/weft/actors/testkit/readme/Hello.java"))
                .replaceFirst("^package io\\.weft\\.actors\\.testkit\\.readme;\n\n", "");
        assertEquals(source, shown, "README.md's hello world differs from Hello.java: change both");
    }

    @Test
    void helloPrintsHelloWorld() {
        PrintStream before = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            Hello.main(new String[0]);
        } finally {
            System.setOut(before);
        }
        assertEquals("hello, world", bytes.toString(StandardCharsets.UTF_8).strip());
    }
}
