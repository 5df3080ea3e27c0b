package io.weft.actors.bench.remote;

import io.weft.actors.remote.transport.AeronSettings;
import io.weft.actors.remote.transport.GrpcSettings;
import io.weft.actors.remote.transport.InboundHandler;
import io.weft.actors.remote.transport.InboundLink;
import io.weft.actors.remote.transport.Lane;
import io.weft.actors.remote.transport.OutboundLink;
import io.weft.actors.remote.transport.Transport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The transport engines compared at the SPI level, one frame per message: two engines of a kind in
 * this JVM on loopback; one-way frames per second on the ordinary lane, and round trips (a frame
 * each way, one outstanding) with their p50 and p99. Rounds alternate the engines.
 */
public final class TransportProbe {

    private static int aeronMtu;

    private TransportProbe() {
    }

    /**
     * Runs the probe.
     *
     * @param args {@code [--engine grpc|aeron|grpc,aeron] [--sizes 64,1024] [--seconds S] [--rounds N] [--pings N]
     *     [--aeron-mtu BYTES]}
     * @return the exit status
     * @throws Exception if an engine fails
     */
    public static int run(String[] args) throws Exception {
        List<String> engines = List.of("grpc", "aeron");
        int[] sizes = {64, 1024};
        double seconds = 3;
        int rounds = 3;
        int pings = 20_000;
        aeronMtu = AeronSettings.DEFAULT_MTU;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--engine" -> engines = List.of(args[++i].split(","));
                case "--sizes" -> sizes = Arrays.stream(args[++i].split(",")).mapToInt(Integer::parseInt).toArray();
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--pings" -> pings = Integer.parseInt(args[++i]);
                case "--aeron-mtu" -> aeronMtu = Integer.parseInt(args[++i]);
                default -> {
                    System.err.println("unknown option " + args[i]
                            + "; usage: transport [--engine grpc,aeron] [--sizes 64,1024] [--seconds S] [--rounds N] [--pings N] [--aeron-mtu BYTES]");
                    return 2;
                }
            }
        }
        System.out.printf(Locale.ROOT, "transport probe: JDK %s, %d cores, %d rounds, one-way %.1f s, %d round trips, Aeron MTU %d%n",
                Runtime.version(), Runtime.getRuntime().availableProcessors(), rounds, seconds, pings, aeronMtu);
        for (String engine : engines) {
            System.out.printf(Locale.ROOT, "idle: two %s engines with a link up used %.1f%% of one core over 3 s%n", engine, idle(engine));
        }
        System.out.println("round engine size   one-way frames/s   rtt p50 us   rtt p99 us");
        List<double[]> results = new ArrayList<>();
        List<String> keys = new ArrayList<>();
        for (int r = 1; r <= rounds; r++) {
            for (int size : sizes) {
                for (String engine : engines) {
                    double rate = oneWay(engine, size, seconds);
                    double[] rtt = roundTrips(engine, size, pings);
                    System.out.printf(Locale.ROOT, "%5d %-6s %5d %18.0f %12.1f %12.1f%n", r, engine, size, rate, rtt[0], rtt[1]);
                    keys.add(engine + " " + size);
                    results.add(new double[] {rate, rtt[0], rtt[1]});
                }
            }
        }
        if (rounds < 1) {
            return 0;
        }
        System.out.println("median over rounds:");
        System.out.println("engine size   one-way frames/s   rtt p50 us   rtt p99 us");
        for (int size : sizes) {
            for (String engine : engines) {
                String key = engine + " " + size;
                double[] m = new double[3];
                for (int k = 0; k < 3; k++) {
                    List<Double> v = new ArrayList<>();
                    for (int j = 0; j < keys.size(); j++) {
                        if (keys.get(j).equals(key)) {
                            v.add(results.get(j)[k]);
                        }
                    }
                    v.sort(null);
                    m[k] = v.get(v.size() / 2);
                }
                System.out.printf(Locale.ROOT, "%-6s %5d %18.0f %12.1f %12.1f%n", engine, size, m[0], m[1], m[2]);
            }
        }
        return 0;
    }

    private static Transport engine(String name) {
        return switch (name) {
            case "grpc" -> Transport.grpc(GrpcSettings.defaults());
            case "aeron" -> Transport.aeron(AeronSettings.defaults().withMtu(aeronMtu));
            default -> throw new IllegalArgumentException("unknown engine " + name + ": grpc or aeron");
        };
    }

    private static InetSocketAddress loopback() {
        return new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
    }

    /** A handler that passes frames to a consumer and ignores the rest. */
    private abstract static class Handler implements InboundHandler {
        @Override
        public void onRefused(InboundLink from, String reason) {
            System.err.println("refused: " + reason);
        }

        @Override
        public void onClosed(InboundLink link, Throwable cause) {
        }
    }

    /** The process's CPU use, as a share of one core, while two engines idle with a link up. */
    private static double idle(String name) throws Exception {
        AtomicLong received = new AtomicLong();
        try (Transport receiver = engine(name); Transport sender = engine(name)) {
            InetSocketAddress at = receiver.bind(loopback(), new Handler() {
                @Override
                public void onFrame(InboundLink from, Lane lane, byte[] frame) {
                    received.incrementAndGet();
                }
            });
            sender.connect(at, e -> { }).send(Lane.CONTROL, new byte[8]);
            await(received, 1);
            long cpu0 = cpu();
            long t0 = System.nanoTime();
            Thread.sleep(3_000);
            return 100.0 * (cpu() - cpu0) / (System.nanoTime() - t0);
        }
    }

    private static long cpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElseThrow().toNanos();
    }

    private static double oneWay(String name, int size, double seconds) throws Exception {
        AtomicLong received = new AtomicLong();
        try (Transport receiver = engine(name); Transport sender = engine(name)) {
            InetSocketAddress at = receiver.bind(loopback(), new Handler() {
                @Override
                public void onFrame(InboundLink from, Lane lane, byte[] frame) {
                    received.incrementAndGet();
                }
            });
            OutboundLink link = sender.connect(at, e -> { });
            byte[] frame = new byte[size];
            // warm up: 2 s of sending, every frame received
            long sent = send(link, frame, 2.0);
            await(received, sent);
            received.set(0);
            long start = System.nanoTime();
            sent = send(link, frame, seconds);
            await(received, sent);
            return sent / ((System.nanoTime() - start) / 1e9);
        }
    }

    private static long send(OutboundLink link, byte[] frame, double seconds) throws InterruptedException {
        long end = System.nanoTime() + (long) (seconds * 1e9);
        long n = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 256; i++) {
                link.send(Lane.ORDINARY, frame);
            }
            n += 256;
        }
        return n;
    }

    private static void await(AtomicLong received, long count) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (received.get() < count) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("only " + received.get() + " of " + count + " frames arrived in 60 s");
            }
            LockSupport.parkNanos(100_000);
        }
    }

    private static double[] roundTrips(String name, int size, int pings) throws Exception {
        AtomicLong replies = new AtomicLong();
        Thread pinger = Thread.currentThread();
        try (Transport a = engine(name); Transport b = engine(name)) {
            OutboundLink[] back = new OutboundLink[1];
            InetSocketAddress atB = b.bind(loopback(), new Handler() {
                @Override
                public void onFrame(InboundLink from, Lane lane, byte[] frame) {
                    replies.incrementAndGet();
                    LockSupport.unpark(pinger);
                }
            });
            back[0] = a.connect(atB, e -> { });
            InetSocketAddress atA = a.bind(loopback(), new Handler() {
                @Override
                public void onFrame(InboundLink from, Lane lane, byte[] frame) {
                    try {
                        back[0].send(Lane.ORDINARY, frame);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            OutboundLink out = b.connect(atA, e -> { });
            byte[] frame = new byte[size];
            int warm = Math.max(1_000, pings / 4);
            long[] rtt = new long[pings];
            for (int i = 0; i < warm + pings; i++) {
                long t0 = System.nanoTime();
                long want = replies.get() + 1;
                out.send(Lane.ORDINARY, frame);
                long deadline = t0 + TimeUnit.SECONDS.toNanos(30);
                while (replies.get() < want) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("no reply in 30 s over " + name);
                    }
                    LockSupport.parkNanos(50_000);
                }
                if (i >= warm) {
                    rtt[i - warm] = System.nanoTime() - t0;
                }
            }
            Arrays.sort(rtt);
            return new double[] {rtt[pings / 2] / 1e3, rtt[(int) (pings * 0.99)] / 1e3};
        }
    }
}
