package com.example.pair;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/** Starts {@link Greeter} in a second JVM, runs {@link Caller} in this one against it, then stops the greeter. */
public final class Both {

    private Both() {
    }

    /**
     * @param args unused
     * @throws Exception if either side fails
     */
    public static void main(String[] args) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process greeter = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), Greeter.class.getName())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(greeter.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            if (line == null || !line.startsWith("READY ")) {
                throw new IllegalStateException("the greeter did not start: " + line);
            }
            Caller.main(new String[] {line.substring("READY ".length())});
        } finally {
            greeter.getOutputStream().close();
            if (!greeter.waitFor(30, TimeUnit.SECONDS)) {
                greeter.destroyForcibly();
            }
        }
    }
}
