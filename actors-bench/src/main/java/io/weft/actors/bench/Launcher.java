package io.weft.actors.bench;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/**
 * The bench jar's entry point. It is compiled for Java 8 (a separate compiler execution in
 * actors-bench's POM) so that any JVM can load it: on a JVM older than 21 it prints what to do
 * instead of an {@code UnsupportedClassVersionError}, and on 21 or newer it runs {@link Main}.
 */
public final class Launcher {
    /** The oldest Java feature release Weft runs on. */
    static final int REQUIRED = 21;

    private Launcher() {
    }

    /**
     * Checks the running JVM's version, then calls {@code Main.main(args)}.
     *
     * @param args the bench jar's arguments, passed on unchanged
     * @throws Throwable whatever {@code Main.main} throws
     */
    public static void main(String[] args) throws Throwable {
        String spec = System.getProperty("java.specification.version", "0");
        int found = feature(spec);
        if (found < REQUIRED) {
            System.err.println(message(spec));
            System.exit(2);
            return;
        }
        Method main = Class.forName("io.weft.actors.bench.Main").getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * The feature release of a {@code java.specification.version} value.
     *
     * @param spec "1.8", "17", "21", ...
     * @return 8, 17, 21, ...; 0 if it cannot be read
     */
    static int feature(String spec) {
        String s = spec.startsWith("1.") ? spec.substring(2) : spec;
        int dot = s.indexOf('.');
        try {
            return Integer.parseInt(dot < 0 ? s : s.substring(0, dot));
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    /**
     * The message printed on a JVM that is too old.
     *
     * @param spec the running JVM's {@code java.specification.version}
     * @return what is wrong and how to fix it
     */
    static String message(String spec) {
        return "Weft needs Java " + REQUIRED + " or newer; this JVM is Java " + spec + " ("
                + System.getProperty("java.home") + ")." + System.lineSeparator()
                + "Run the jar with a JDK " + REQUIRED + "+, e.g. \"$(scripts/find-jdk.sh)/bin/java\" -jar "
                + "actors-bench/target/actors-bench.jar ...";
    }
}
