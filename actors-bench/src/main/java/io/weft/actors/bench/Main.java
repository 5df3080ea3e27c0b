package io.weft.actors.bench;

import java.util.Arrays;

/**
 * The command line of the benchmark jar. One subcommand per case; keep it a plain switch.
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
            case "compare" -> System.exit(Compare.run(rest));
            case "memory" -> System.exit(Memory.run(rest));
            case "timers" -> System.exit(TimersBench.run(rest));
            case "chart" -> System.exit(Chart.run(rest));
            case "jmh" -> org.openjdk.jmh.Main.main(rest);
            case "scheduling" -> System.exit(io.weft.actors.bench.scheduling.SchedulingBench.run(rest));
            case "ring" -> io.weft.actors.bench.loom.TokenRing.main(rest);
            case "thread-mode" -> io.weft.actors.bench.loom.ThreadModeBench.main(rest);
            case "thread-close" -> io.weft.actors.bench.loom.ThreadCloseBench.main(rest);
            case "policies" -> io.weft.actors.bench.semantics.Policies.main(rest);
            case "unhandled" -> System.exit(io.weft.actors.bench.semantics.UnhandledBacklog.run(rest));
            case "stream" -> io.weft.actors.bench.stream.StreamBench.main(rest);
            case "ingress" -> Ingress.main(rest);
            case "remote" -> System.exit(io.weft.actors.bench.remote.RemoteBench.run(rest));
            case "remote-peer" -> io.weft.actors.bench.remote.RemoteBench.peer(rest);
            case "transport" -> System.exit(io.weft.actors.bench.remote.TransportProbe.run(rest));
            case "cluster" -> System.exit(io.weft.actors.bench.cluster.ClusterBench.run(rest));
            case "cluster-member" -> io.weft.actors.bench.cluster.ClusterBench.member(rest);
            case "router" -> System.exit(io.weft.actors.bench.routing.RouterBench.run(rest));
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
                  demo      a short tour: an order manager answering with replies (two ways), then one
                            actor counting a million messages sent from outside
                  compare   [--quick] [--only a,b] [--impl weft,weft-fair,weft-thread,weft-cont,fibry,pekko,threads,vthreads,fj,loop]
                            [--runs N] [--warmup N] [--forks N] [--each] [--base IMPL] [--out DIR] [--csv FILE] [--svg FILE]
                            every workload on every implementation, interleaved, validated; prints a table and
                            a summary, writes them with a CSV and an SVG chart to DIR (default target/compare)
                  memory    [--actors N] [--csv FILE] [--burst B]   bytes per idle actor (--burst: the bare react
                            actor after B messages from two threads, its mailbox switched to the chunked form)
                  timers    [--count N] [--spread-seconds S]   actor timers: bytes per pending timer, and the
                            lateness (p50/p99/max) of N single timers due within S s
                  chart     --csv FILE --out FILE.svg [--title TEXT]   SVG chart of a compare CSV
                  jmh       [JMH options]   the JMH benchmarks (e.g. jmh -l, jmh KitBench -f 1)
                  scheduling  [--reps N] [--warmup N] [--scale tiny|quick|full] [--only optimizations|batch|workload,...]
                            ForkJoin optimizations on/off, the fair scheduler and the batch-size curve on the
                            compare workloads (docs/scheduling.md)
                  thread-mode [--n N] [--kept K] [-r|--runs R] [-w|--warmup W]   selective receive past K kept messages (a cold round, then W warm-up rounds),
                            and the cost of one receive -> react -> receive switch
                  thread-close [--actors N]   time of close() with N thread-based actors parked in receive
                  ring      [n k hops] token ring of thread-based processes (Haller and Odersky 2009, §7.1); ring memory [count]
                  policies  [rounds] [ringHops] [countMessages]: cost of each message policy (ring, counting)
                  ingress   [-n N] [-r ROUNDS] [-w WARMUP] [-k ACTORS] [-h HOPS] [--only one,many,fanout,hop] [--style loop|become|...]
                            non-actor threads telling actors, Weft in each handler style beside Pekko classic:
                            one producer, 2/4/8 producers, one producer into K actors, idle-hop latency p50/p99
                  remote    [--rounds N] [--messages N] [--pings N] [--impl weft-grpc,weft-aeron,pekko-tcp,pekko-aeron]
                            ping-pong and one-way throughput between two JVMs on loopback: Weft over gRPC and
                            Aeron against Pekko Artery TCP and Aeron UDP (default: all but pekko-aeron)
                  unhandled [--kept N] [--messages M] [--rounds R]: time per matching message with 0 and with
                            N kept (unmatched) messages, same run, and their ratio
                  cluster   [--rounds N] [--impl weft,pekko] [--entities N] [--in-flight N] [--seconds S] [--warmup S]
                            sharded entities on three JVMs on loopback, Weft's sharding against Pekko Cluster
                            Sharding: asks/s, p50/p99 with N asks in flight, and the time from killing a
                            member until every entity answers again; Weft/Pekko ratios of medians
                  router    [--messages N] [--rounds R] [--warmup W]: a round-robin pool of 4 on Weft against
                            Pekko's RoundRobinPool, alternating rounds in one JVM (docs/benchmarks.md)
                  stream    streaming benchmarks of Rinaldi et al. 2020: [pipeline|prodcons|apps|all] [-n N] [-r ROUNDS] [-p REPLICAS]
                  transport [--engine grpc,aeron] [--sizes 64,1024] [--seconds S] [--rounds N] [--pings N] [--aeron-mtu B]
                            the remote transport engines at the SPI level, two engines in this JVM on loopback:
                            one-way frames/s and round-trip p50/p99, one message per frame
                """);
        System.exit(status);
    }
}
