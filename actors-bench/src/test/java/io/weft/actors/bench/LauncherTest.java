package io.weft.actors.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** The bench jar's launcher reads every form of Java version and says what to do on an old one. */
class LauncherTest {
    @Test
    void readsFeatureReleases() {
        assertEquals(8, Launcher.feature("1.8"));
        assertEquals(17, Launcher.feature("17"));
        assertEquals(21, Launcher.feature("21"));
        assertEquals(25, Launcher.feature("25.0.1"));
        assertEquals(0, Launcher.feature("unknown"));
    }

    @Test
    void messageNamesTheVersionAndTheFix() {
        String m = Launcher.message("17");
        assertTrue(m.contains("Java 21 or newer") && m.contains("Java 17") && m.contains("find-jdk.sh"), m);
    }
}
