package io.weft.actors.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The runtime's shape as docs/design.md draws it, checked on its sources: the internal packages
 * form layers whose import arrows point down only, and no source file grows past about 600 lines.
 */
class ArchitectureTest {

    private static final String BASE = "io.weft.actors.runtime.internal";
    /** Lowest first: a package may use the ones before it, never the ones after it. */
    private static final List<String> LAYERS = List.of("", "telemetry", "mailbox", "schedule", "cell", "supervision", "routing", "pubsub", "system");
    private static final Path SOURCES = Path.of("src/main/java");
    private static final int MAX_LINES = 650;

    private static List<Path> sources() throws IOException {
        assertTrue(Files.isDirectory(SOURCES), "run from the actors-runtime module: " + SOURCES.toAbsolutePath());
        try (Stream<Path> files = Files.walk(SOURCES)) {
            return files.filter(p -> p.toString().endsWith(".java")).toList();
        }
    }

    private static String layerOf(String pkg) {
        String rest = pkg.length() > BASE.length() ? pkg.substring(BASE.length() + 1) : "";
        return rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest;
    }

    @Test
    void importArrowsBetweenTheInternalPackagesPointDownOnly() throws IOException {
        Pattern pkg = Pattern.compile("^package ([\\w.]+);", Pattern.MULTILINE);
        Pattern use = Pattern.compile("\\b" + Pattern.quote(BASE) + "((?:\\.[a-z]\\w*)*)\\.[A-Z]");
        TreeSet<String> up = new TreeSet<>();
        int files = 0;
        for (Path p : sources()) {
            String text = Files.readString(p);
            Matcher m = pkg.matcher(text);
            if (!m.find() || !m.group(1).startsWith(BASE)) {
                continue;
            }
            files++;
            String from = layerOf(m.group(1));
            assertTrue(LAYERS.contains(from), "package " + m.group(1) + " is in no layer of docs/design.md: add it to LAYERS");
            Matcher u = use.matcher(text);
            while (u.find()) {
                String to = layerOf(BASE + u.group(1));
                if (LAYERS.indexOf(to) > LAYERS.indexOf(from)) {
                    up.add(p.getFileName() + ": " + (from.isEmpty() ? "(root)" : from) + " -> " + to);
                }
            }
        }
        assertTrue(files > 30, "found only " + files + " internal sources");
        assertEquals(new TreeSet<String>(), up, "import arrows pointing up the layers " + LAYERS);
    }

    @Test
    void noSourceFileOverAboutSixHundredLines() throws IOException {
        List<String> long_ = new ArrayList<>();
        for (Path p : sources()) {
            long lines = Files.readAllLines(p).size();
            if (lines > MAX_LINES) {
                long_.add(p.getFileName() + " (" + lines + " lines)");
            }
        }
        assertEquals(List.of(), long_, "split these along their concerns");
    }
}
