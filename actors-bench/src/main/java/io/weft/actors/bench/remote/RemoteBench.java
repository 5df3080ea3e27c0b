package io.weft.actors.bench.remote;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigFactory;
import io.weft.actors.Receive;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import io.weft.actors.remote.transport.AeronSettings;
import io.weft.actors.remote.transport.GrpcSettings;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.apache.pekko.actor.AbstractActor;
import org.apache.pekko.actor.ActorSelection;
import org.apache.pekko.actor.Props;
import org.apache.pekko.pattern.Patterns;

/**
 * Remote ping-pong and one-way throughput between two JVMs on loopback: Weft over gRPC and over
 * Aeron against Pekko Artery over TCP (and over Aeron UDP), alternating JVM pairs, in one run.
 * Both JVMs of every pair run with {@code --add-exports java.base/jdk.internal.misc=ALL-UNNAMED},
 * which Aeron's Agrona needs.
 *
 * <p>Ping-pong: sequential asks of a 64-byte array to an echo actor in the peer JVM, p50 and p99 of
 * the round trip. One-way: byte arrays of 64 B and 1 KiB to a counting actor, in windows of 5,000
 * closed by a numbered mark the peer answers, at most 4 windows in flight (both sides' outbound
 * queues hold 100,000, so nothing is dropped); messages per second from the first send to the
 * last mark's answer. Asks in flight: 64-byte asks to the echo actor, 64 pending at a time (the
 * next sent as the oldest is answered), asks per second and the CPU time of both JVMs per ask
 * (from {@link ProcessHandle.Info#totalCpuDuration()}).
 */
public final class RemoteBench {

    private static final int WINDOW = 5_000;
    private static final int IN_FLIGHT = 4;
    private static final int ASKS_IN_FLIGHT = 64;
    private static final List<String> IMPLS = List.of("weft-grpc", "weft-aeron", "pekko-tcp", "pekko-aeron");

    private RemoteBench() {
    }

    /** What one implementation must do on the driver side. */
    private interface Driver extends AutoCloseable {
        CompletableFuture<Object> ask(boolean sink, Object message);

        void tell(Object message);

        @Override
        void close();
    }

    /**
     * Runs the benchmark.
     *
     * @param args {@code [--rounds N] [--messages N] [--pings N] [--asks N] [--impl weft-grpc,weft-aeron,pekko-tcp,pekko-aeron]}
     * @return the exit status
     * @throws Exception if a peer fails
     */
    public static int run(String[] args) throws Exception {
        int rounds = 3;
        int messages = 500_000;
        int pings = 10_000;
        int asks = 50_000;
        List<String> impls = List.of("weft-grpc", "weft-aeron", "pekko-tcp");
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--rounds" -> rounds = Integer.parseInt(args[i + 1]);
                case "--messages" -> messages = Integer.parseInt(args[i + 1]);
                case "--pings" -> pings = Integer.parseInt(args[i + 1]);
                case "--asks" -> asks = Integer.parseInt(args[i + 1]);
                case "--impl" -> impls = Arrays.asList(args[i + 1].split(","));
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        System.out.printf(Locale.ROOT, "remote bench: %d rounds, %,d messages per one-way run, %,d pings, %,d asks (%d in flight), impls %s,"
                + " %d cores%n", rounds, messages, pings, asks, ASKS_IN_FLIGHT, impls, Runtime.getRuntime().availableProcessors());
        for (String impl : impls) {
            if (!IMPLS.contains(impl)) {
                throw new IllegalArgumentException("unknown impl " + impl + ", expected some of " + IMPLS);
            }
        }
        System.out.println("impl         round  p50_us  p99_us  oneway64_msg_s  oneway1k_msg_s  asks64_s  cpu_us_ask");
        java.util.Map<String, List<double[]>> results = new java.util.LinkedHashMap<>();
        for (int r = 1; r <= rounds; r++) {
            for (String impl : impls) {
                double[] row = round(impl, messages, pings, asks);
                results.computeIfAbsent(impl, k -> new ArrayList<>()).add(row);
                System.out.printf(Locale.ROOT, "%-12s %5d  %6.0f  %6.0f  %14.0f  %14.0f  %8.0f  %10.1f%n", impl, r, row[0], row[1], row[2], row[3],
                        row[4], row[5]);
            }
        }
        System.out.println("medians:");
        System.out.println("impl         p50_us  p99_us  oneway64_msg_s  oneway1k_msg_s  asks64_s  cpu_us_ask");
        for (var e : results.entrySet()) {
            double[] m = new double[6];
            for (int c = 0; c < 6; c++) {
                int col = c;
                m[c] = median(e.getValue().stream().mapToDouble(x -> x[col]).toArray());
            }
            System.out.printf(Locale.ROOT, "%-12s %6.0f  %6.0f  %14.0f  %14.0f  %8.0f  %10.1f%n", e.getKey(), m[0], m[1], m[2], m[3], m[4], m[5]);
        }
        return 0;
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    private static double[] round(String impl, int messages, int pings, int asks) throws Exception {
        String jar = Path.of(RemoteBench.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process peer = new ProcessBuilder(java, "-Xmx1g", "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED", "-cp", jar,
                "io.weft.actors.bench.Main", "remote-peer", impl)
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(peer.getInputStream(), StandardCharsets.UTF_8));
            String line;
            String ready = null;
            while ((line = out.readLine()) != null) {
                if (line.startsWith("READY ")) {
                    ready = line;
                    break;
                }
            }
            if (ready == null) {
                throw new IllegalStateException(impl + " peer did not start");
            }
            String[] f = ready.split(" ");
            try (Driver d = impl.startsWith("weft") ? weftDriver(impl, f[1], f[2]) : pekkoDriver(impl, f[1], f[2])) {
                double[] lat = pingPong(d, pings);
                double t64 = oneWay(d, 64, messages);
                double t1k = oneWay(d, 1024, messages);
                double[] inFlight = asks > 0 ? asksInFlight(d, peer, asks) : new double[2];
                return new double[] {lat[0], lat[1], t64, t1k, inFlight[0], inFlight[1]};
            }
        } finally {
            peer.destroyForcibly();
            peer.waitFor(30, TimeUnit.SECONDS);
        }
    }

    private static double[] pingPong(Driver d, int pings) throws Exception {
        byte[] payload = new byte[64];
        for (int i = 0; i < Math.max(1000, pings / 5); i++) {
            d.ask(false, payload).get(30, TimeUnit.SECONDS);
        }
        long[] rtt = new long[pings];
        for (int i = 0; i < pings; i++) {
            long t0 = System.nanoTime();
            d.ask(false, payload).get(30, TimeUnit.SECONDS);
            rtt[i] = System.nanoTime() - t0;
        }
        Arrays.sort(rtt);
        return new double[] {rtt[pings / 2] / 1000.0, rtt[(int) (pings * 0.99)] / 1000.0};
    }

    /** @return asks per second with 64 in flight, and microseconds of CPU (both JVMs) per ask */
    private static double[] asksInFlight(Driver d, Process peer, int asks) throws Exception {
        byte[] payload = new byte[64];
        asksInFlight(d, payload, Math.max(5_000, asks / 5));
        long cpu0 = cpuNanos(peer);
        long t0 = System.nanoTime();
        asksInFlight(d, payload, asks);
        double seconds = (System.nanoTime() - t0) / 1e9;
        long cpu = cpuNanos(peer) - cpu0;
        return new double[] {asks / seconds, cpu / 1000.0 / asks};
    }

    private static void asksInFlight(Driver d, byte[] payload, int asks) throws Exception {
        ArrayDeque<CompletableFuture<Object>> pending = new ArrayDeque<>();
        for (int i = 0; i < asks; i++) {
            if (pending.size() >= ASKS_IN_FLIGHT) {
                pending.poll().get(60, TimeUnit.SECONDS);
            }
            pending.add(d.ask(false, payload));
        }
        while (!pending.isEmpty()) {
            pending.poll().get(60, TimeUnit.SECONDS);
        }
    }

    /** CPU time of this JVM and the peer's so far, 0 for a side the OS does not report. */
    private static long cpuNanos(Process peer) {
        return ProcessHandle.current().info().totalCpuDuration().map(Duration::toNanos).orElse(0L)
                + peer.info().totalCpuDuration().map(Duration::toNanos).orElse(0L);
    }

    private static double oneWay(Driver d, int size, int messages) throws Exception {
        byte[] payload = new byte[size];
        send(d, payload, Math.max(WINDOW * 2, messages / 5));
        long t0 = System.nanoTime();
        send(d, payload, messages);
        return messages / ((System.nanoTime() - t0) / 1e9);
    }

    private static void send(Driver d, byte[] payload, int messages) throws Exception {
        ArrayDeque<CompletableFuture<Object>> marks = new ArrayDeque<>();
        long mark = 0;
        for (int sent = 0; sent < messages; sent += WINDOW) {
            if (marks.size() >= IN_FLIGHT) {
                marks.poll().get(60, TimeUnit.SECONDS);
            }
            for (int i = 0; i < WINDOW; i++) {
                d.tell(payload);
            }
            marks.add(d.ask(true, ++mark));
        }
        while (!marks.isEmpty()) {
            marks.poll().get(60, TimeUnit.SECONDS);
        }
    }

    // ------------------------------------------------------------------ Weft

    static CodecRegistry codec() {
        return CodecRegistry.builder(MethodHandles.lookup()).build();
    }

    static RemoteSettings weftSettings(String impl, int port) {
        RemoteSettings s = RemoteSettings.defaults().withAddress("127.0.0.1", port).withQueues(100_000, 64 * 1024);
        return impl.equals("weft-aeron") ? s.withAeron(AeronSettings.defaults()) : s.withGrpc(GrpcSettings.defaults());
    }

    private static Driver weftDriver(String impl, String echoAddress, String sinkAddress) throws Exception {
        io.weft.actors.ActorSystem system = io.weft.actors.ActorSystem.create("driver");
        Remoting remoting = Remoting.attach(system, codec(), weftSettings(impl, 0));
        io.weft.actors.ActorRef<Object> echo = system.resolve(echoAddress);
        io.weft.actors.ActorRef<Object> sink = system.resolve(sinkAddress);
        return new Driver() {
            @Override
            public CompletableFuture<Object> ask(boolean toSink, Object message) {
                return system.ask(toSink ? sink : echo, message, Duration.ofSeconds(60));
            }

            @Override
            public void tell(Object message) {
                sink.tell(message);
            }

            @Override
            public void close() {
                remoting.close();
                system.close();
            }
        };
    }

    static void weftPeer(String impl) throws Exception {
        io.weft.actors.ActorSystem system = io.weft.actors.ActorSystem.create("peer");
        Remoting remoting = Remoting.attach(system, codec(), weftSettings(impl, 0));
        io.weft.actors.ActorRef<Object> echo = system.spawn("echo", self -> self.become(Receive.handler()
                .match(byte[].class, b -> self.reply(b))
                .build()));
        long[] count = new long[1];
        io.weft.actors.ActorRef<Object> sink = system.spawn("sink", self -> self.become(Receive.handler()
                .match(byte[].class, b -> count[0]++)
                .match(Long.class, l -> self.reply(l))
                .build()));
        System.out.println("READY " + remoting.addressOf(echo) + " " + remoting.addressOf(sink));
        System.out.flush();
        awaitEndOfInput();
    }

    // ------------------------------------------------------------------ Pekko

    static Config pekkoConfig(String impl, int port) {
        // aeron-udp: an embedded media driver per system, Artery's default idle level
        String transport = impl.equals("pekko-aeron") ? "aeron-udp" : "tcp";
        return ConfigFactory.parseString("""
                pekko {
                  loglevel = "WARNING"
                  stdout-loglevel = "OFF"
                  log-dead-letters = off
                  jvm-shutdown-hooks = off
                  coordinated-shutdown.run-by-jvm-shutdown-hook = off
                  actor.provider = remote
                  actor.allow-java-serialization = off
                  remote.artery {
                    transport = %s
                    canonical.hostname = "127.0.0.1"
                    canonical.port = %d
                    advanced.outbound-message-queue-size = 100000
                    advanced.aeron.embedded-media-driver = on
                  }
                }
                """.formatted(transport, port)).withFallback(ConfigFactory.load());
    }

    /** The Pekko peer's echo. */
    public static final class PekkoEcho extends AbstractActor {
        @Override
        public Receive createReceive() {
            return receiveBuilder().match(byte[].class, b -> getSender().tell(b, getSelf())).build();
        }
    }

    /** The Pekko peer's counting sink. */
    public static final class PekkoSink extends AbstractActor {
        private long count;

        @Override
        public Receive createReceive() {
            return receiveBuilder()
                    .match(byte[].class, b -> count++)
                    .match(Long.class, l -> getSender().tell(l, getSelf()))
                    .build();
        }
    }

    private static Driver pekkoDriver(String impl, String echoPath, String sinkPath) throws Exception {
        org.apache.pekko.actor.ActorSystem system = org.apache.pekko.actor.ActorSystem.create("driver", pekkoConfig(impl, 0));
        Function<String, org.apache.pekko.actor.ActorRef> resolve = p -> {
            ActorSelection sel = system.actorSelection(p);
            try {
                return sel.resolveOne(Duration.ofSeconds(30)).toCompletableFuture().get(60, TimeUnit.SECONDS);
            } catch (Exception e) {
                throw new IllegalStateException("cannot resolve " + p, e);
            }
        };
        org.apache.pekko.actor.ActorRef echo = resolve.apply(echoPath);
        org.apache.pekko.actor.ActorRef sink = resolve.apply(sinkPath);
        return new Driver() {
            @Override
            public CompletableFuture<Object> ask(boolean toSink, Object message) {
                CompletionStage<Object> s = Patterns.ask(toSink ? sink : echo, message, Duration.ofSeconds(60));
                return s.toCompletableFuture();
            }

            @Override
            public void tell(Object message) {
                sink.tell(message, org.apache.pekko.actor.ActorRef.noSender());
            }

            @Override
            public void close() {
                try {
                    system.terminate();
                    system.getWhenTerminated().toCompletableFuture().get(30, TimeUnit.SECONDS);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        };
    }

    static void pekkoPeer(String impl) throws Exception {
        org.apache.pekko.actor.ActorSystem system = org.apache.pekko.actor.ActorSystem.create("peer", pekkoConfig(impl, 0));
        system.actorOf(Props.create(PekkoEcho.class), "echo");
        system.actorOf(Props.create(PekkoSink.class), "sink");
        org.apache.pekko.actor.Address a = ((org.apache.pekko.actor.ExtendedActorSystem) system).provider().getDefaultAddress();
        String base = a.toString();
        System.out.println("READY " + base + "/user/echo " + base + "/user/sink");
        System.out.flush();
        awaitEndOfInput();
    }

    private static void awaitEndOfInput() throws Exception {
        while (System.in.read() >= 0) {
            // the driver kills this JVM when it is done
        }
    }

    /**
     * The peer JVM's entry.
     *
     * @param args the implementation, one of {@code weft-grpc, weft-aeron, pekko-tcp, pekko-aeron}
     * @throws Exception if it fails
     */
    public static void peer(String[] args) throws Exception {
        if (args[0].startsWith("weft")) {
            weftPeer(args[0]);
        } else {
            pekkoPeer(args[0]);
        }
    }
}
