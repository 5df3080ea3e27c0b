package io.weft.actors.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Every Java code block of docs/guide.md must be preceded by {@code <!-- snippet: name -->} and
 * equal the {@code tag::name[]} regions of {@link GuideSnippetsTest} and the other
 * {@code GuideSnippets*Test} classes (dedented, regions of one name joined), so every example in
 * the guide is compiled and run by the build.
 */
class GuideMatchesSnippetsTest {

    private static final Path SNIPPETS = Path.of("src/test/java/io/weft/actors/testkit/GuideSnippetsTest.java");
    private static final Path GUIDE = Path.of("../docs/guide.md");
    private static final Pattern TAG = Pattern.compile("^\\s*// (tag|end)::([a-z0-9-]+)\\[]\\s*$");
    private static final Pattern BLOCK = Pattern.compile("<!-- snippet: ([a-z0-9-]+) -->\\s*\\n```java\\n(.*?)```", Pattern.DOTALL);

    static Map<String, String> snippets(List<String> lines) {
        Map<String, List<String>> regions = new LinkedHashMap<>();
        List<String> open = new ArrayList<>();
        for (String line : lines) {
            Matcher m = TAG.matcher(line);
            if (m.matches()) {
                if (m.group(1).equals("tag")) {
                    open.add(m.group(2));
                    regions.computeIfAbsent(m.group(2), k -> new ArrayList<>());
                } else {
                    assertTrue(open.remove(m.group(2)), "end without tag: " + m.group(2));
                }
                continue;
            }
            for (String name : open) {
                regions.get(name).add(line);
            }
        }
        assertTrue(open.isEmpty(), "unclosed tags " + open);
        Map<String, String> out = new LinkedHashMap<>();
        regions.forEach((name, body) -> out.put(name, dedent(body)));
        return out;
    }

    static String dedent(List<String> body) {
        int indent = body.stream().filter(l -> !l.isBlank())
                .mapToInt(l -> l.length() - l.stripLeading().length()).min().orElse(0);
        StringBuilder sb = new StringBuilder();
        for (String l : body) {
            sb.append(l.isBlank() ? "" : l.substring(indent)).append('\n');
        }
        return sb.toString();
    }

    @Test
    void everyJavaBlockOfTheGuideIsATestedSnippet() throws IOException {
        List<String> lines = new ArrayList<>(Files.readAllLines(SNIPPETS));
        try (var more = Files.newDirectoryStream(SNIPPETS.getParent(), "GuideSnippets?*Test.java")) {
            for (Path p : more) {
                lines.addAll(Files.readAllLines(p)); // further snippet classes, one per part of the guide
            }
        }
        Map<String, String> snippets = snippets(lines);
        String guide = Files.readString(GUIDE);
        Matcher m = BLOCK.matcher(guide);
        int blocks = 0;
        while (m.find()) {
            blocks++;
            String name = m.group(1);
            assertTrue(snippets.containsKey(name), "guide uses snippet '" + name + "', which GuideSnippetsTest does not define");
            assertEquals(snippets.get(name), m.group(2), "guide block '" + name + "' differs from GuideSnippetsTest; run scripts/update-guide-snippets.py");
        }
        long javaBlocks = guide.lines().filter(l -> l.strip().equals("```java")).count();
        assertEquals(javaBlocks, blocks, "every ```java block of the guide must be preceded by <!-- snippet: name -->");
        assertFalse(snippets.isEmpty());
        for (String name : snippets.keySet()) {
            assertTrue(guide.contains("<!-- snippet: " + name + " -->"), "snippet '" + name + "' is not shown in the guide");
        }
    }
}
