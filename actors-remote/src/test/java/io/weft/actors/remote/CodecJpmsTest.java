package io.weft.actors.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.weft.actors.remote.fixtures.HiddenTypes;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.spi.ToolProvider;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CodecJpmsTest {

    @Test
    void aPackagePrivateRecordIsBuiltThroughThePassedLookup() {
        Class<?> hidden = HiddenTypes.hiddenType();
        CodecRegistry registry = CodecRegistry.builder(HiddenTypes.LOOKUP).register(100, hidden).build();
        Object original = HiddenTypes.make("through the lookup", 3);
        Object back = registry.decode(registry.encode(original), null);
        assertSame(hidden, back.getClass());
        assertNotSame(original, back);
        assertEquals(original, back);
    }

    @Test
    void theCodecRunsAsANamedModule() {
        // surefire runs the tests on the module path, patched into the codec's module
        assertEquals("io.weft.actors.remote", CodecRegistry.class.getModule().getName());
        assertEquals("io.weft.actors.api", io.weft.actors.ActorRef.class.getModule().getName());
    }

    /**
     * A user's module keeps its records in a package it does not export or open; the codec still
     * builds them, through the Lookup the module passes, and without it is refused with the fix.
     */
    @Test
    void aRecordInAnotherModulesUnexportedPackageIsBuiltThroughItsLookup(@TempDir Path dir) throws Exception {
        Optional<ToolProvider> javac = ToolProvider.findFirst("javac");
        assumeTrue(javac.isPresent(), "javac is not in this runtime");
        Path src = dir.resolve("src/demo.msgs");
        Map<String, String> sources = Map.of(
                "module-info.java", "module demo.msgs { exports demo.api; }",
                "demo/api/Entry.java", """
                        package demo.api;
                        import java.lang.invoke.MethodHandles;
                        public final class Entry {
                            public static MethodHandles.Lookup lookup() { return MethodHandles.lookup(); }
                            public static Class<?> type() { return demo.internal.Secret.class; }
                            public static Object sample() { return new demo.internal.Secret("inside", 3); }
                        }
                        """,
                "demo/internal/Secret.java", """
                        package demo.internal;
                        public record Secret(String text, int n) {
                            public Secret {
                                if (n < 0) throw new IllegalArgumentException("n must not be negative");
                            }
                        }
                        """);
        for (Map.Entry<String, String> e : sources.entrySet()) {
            Path file = src.resolve(e.getKey());
            Files.createDirectories(file.getParent());
            Files.writeString(file, e.getValue());
        }
        Path out = dir.resolve("out");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        PrintStream print = new PrintStream(log, true, StandardCharsets.UTF_8);
        int rc = javac.get().run(print, print, "--release", "21", "-d", out.resolve("demo.msgs").toString(),
                src.resolve("module-info.java").toString(), src.resolve("demo/api/Entry.java").toString(),
                src.resolve("demo/internal/Secret.java").toString());
        assertEquals(0, rc, () -> log.toString(StandardCharsets.UTF_8));

        Configuration cf = ModuleLayer.boot().configuration().resolve(ModuleFinder.of(out), ModuleFinder.of(), Set.of("demo.msgs"));
        ModuleLayer layer = ModuleLayer.boot().defineModulesWithOneLoader(cf, ClassLoader.getSystemClassLoader());
        Class<?> entry = layer.findLoader("demo.msgs").loadClass("demo.api.Entry");
        MethodHandles.Lookup lookup = (MethodHandles.Lookup) entry.getMethod("lookup").invoke(null);
        Class<?> secret = (Class<?>) entry.getMethod("type").invoke(null);
        Object sample = entry.getMethod("sample").invoke(null);
        assertEquals("demo.msgs", secret.getModule().getName());
        assertTrue(!secret.getModule().isExported("demo.internal") && !secret.getModule().isOpen("demo.internal"));

        CodecRegistry registry = CodecRegistry.builder(lookup).register(64, secret).build();
        Object back = registry.decode(registry.encode(sample), null);
        assertSame(secret, back.getClass());
        assertNotSame(sample, back);
        assertEquals(sample, back);
        // the record's own validation runs on decoded values: n = -1 (zigzag 1)
        CodecException refused = assertThrows(CodecException.class,
                () -> registry.decode(new byte[] {64, 10, 1, 'x', 1}, null));
        assertTrue(refused.getMessage().contains("n must not be negative"), refused.getMessage());

        // without the module's own lookup, registration is refused and says what to pass
        for (MethodHandles.Lookup foreign : new MethodHandles.Lookup[] {MethodHandles.lookup(), MethodHandles.publicLookup()}) {
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class,
                    () -> CodecRegistry.builder(foreign).register(64, secret));
            assertTrue(x.getMessage().contains("demo.internal.Secret") && x.getMessage().contains("id 64")
                    && x.getMessage().contains("MethodHandles.lookup()"), x.getMessage());
        }
    }
}
