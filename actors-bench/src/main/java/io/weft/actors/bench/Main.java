package io.weft.actors.bench;

import java.util.Arrays;

/**
 * The command line of the benchmark jar: {@code demo}, and (as they land) {@code compare},
 * {@code memory} and {@code jmh}.
 */
public final class Main {

    private Main() {
    }

    /**
     * @param args the subcommand and its options
     * @throws Exception if the subcommand fails
     */
    public static void main(String[] args) throws Exception {
        String command = args.length == 0 ? "help" : args[0];
        String[] rest = args.length == 0 ? args : Arrays.copyOfRange(args, 1, args.length);
        switch (command) {
            case "demo" -> Demo.main(rest);
            case "ring" -> io.weft.actors.bench.loom.TokenRing.main(rest);
            case "policies" -> io.weft.actors.bench.semantics.Policies.main(rest);
            case "stream" -> io.weft.actors.bench.stream.StreamBench.main(rest);
            case "help", "-h", "--help" -> usage(0);
            default -> {
                System.err.println("unknown command: " + command);
                usage(2);
            }
        }
    }

    private static void usage(int status) {
        System.out.println("""
                usage: java -jar actors-bench.jar <command> [options]
                  demo      the seed's order manager (Fig. 1, both versions) and a react-based counter
                  ring      [n k hops] token ring of thread-based processes (seed 000 §7.1); ring memory [count]
                  policies  [rounds] [ringHops] [countMessages]: cost of each message policy (ring, counting)
                  stream    seed 002's streaming benchmarks: [pipeline|prodcons|apps|all] [-n N] [-r ROUNDS] [-p REPLICAS]
                """);
        System.exit(status);
    }
}
