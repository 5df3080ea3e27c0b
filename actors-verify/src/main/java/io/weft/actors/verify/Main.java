package io.weft.actors.verify;

import java.util.Arrays;

/**
 * The command line of the verification jar ({@code actors-verify/target/actors-verify.jar}): the
 * message-conservation fuzz and the soak run. One subcommand per tool; keep it a plain switch.
 */
public final class Main {

    private Main() {
    }

    /**
     * @param args the subcommand and its options
     */
    public static void main(String[] args) {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (command) {
            case "fuzz" -> {
                // injected failures are expected: do not log each one with its stack trace
                System.setProperty("org.slf4j.simpleLogger.log.io.weft.actors.runtime.internal.system.WeftSystem", "off");
                ConservationFuzz.main(rest);
            }
            case "soak" -> Soak.main(rest);
            case "help", "-h", "--help" -> usage(0);
            default -> {
                System.err.println("unknown command: " + command);
                usage(2);
            }
        }
    }

    private static void usage(int status) {
        System.out.println("""
                usage: java -jar actors-verify.jar <command> [options]
                  fuzz      [firstSeed] [count]: message-conservation fuzz seeds (default 1, 100);
                            -Dweft.fuzz.verbose=true prints every run
                  soak      [minutes] [seed]: conservation-fuzz seeds back to back (default 10 minutes
                            from seed 1) with a heap check at the start and the end
                """);
        System.exit(status);
    }
}
