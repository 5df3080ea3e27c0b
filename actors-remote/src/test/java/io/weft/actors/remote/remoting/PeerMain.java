package io.weft.actors.remote.remoting;

import io.weft.actors.ActorRef;
import io.weft.actors.ActorSystem;
import io.weft.actors.Receive;
import io.weft.actors.remote.CodecRegistry;
import io.weft.actors.remote.RemoteMetrics;
import io.weft.actors.remote.RemoteSettings;
import io.weft.actors.remote.Remoting;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.invoke.MethodHandles;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * The second JVM of the multi-JVM tests: a system "beta" with an echo actor, an order checker and
 * a blob sizer. Prints {@code READY <echo address> <checker address> <sizer address>} and then
 * answers commands on stdin ({@code drops}); exits when stdin closes.
 */
public final class PeerMain {

    /** A request carrying its reply destination. */
    public record Ping(String text, ActorRef<Object> replyTo) {
    }

    /** The answer to a Ping. */
    public record Pong(String text) {
    }

    /** One numbered message of a sequence from one sender. */
    public record Seq(int n) {
    }

    /** Asks the checker how many arrived and whether in order. */
    public record Report(ActorRef<Object> replyTo) {
    }

    /** The checker's answer. */
    public record Counted(int received, int outOfOrder) {
    }

    /** A large message. */
    public record Blob(byte[] data) {
    }

    private PeerMain() {
    }

    /**
     * The codec both JVMs use.
     *
     * @return the registry
     */
    public static CodecRegistry codec() {
        return CodecRegistry.builder(MethodHandles.lookup())
                .register(100, Ping.class).register(101, Pong.class).register(102, Seq.class)
                .register(103, Report.class).register(104, Counted.class).register(105, Blob.class)
                .build();
    }

    /**
     * Fast failure detection for tests: heartbeat 200 ms, pause 1 s, lost link 2 s.
     *
     * @param base the settings to change
     * @return the settings
     */
    public static RemoteSettings fast(RemoteSettings base) {
        return base.withFailureDetection(Duration.ofMillis(200), 8.0, Duration.ofSeconds(1), Duration.ofSeconds(2))
                .withQueues(200_000, 64 * 1024);
    }

    /**
     * Runs the peer.
     *
     * @param args bind port (0 for any), advertised port (0 for the bound one), engine ({@link Engine} name, GRPC if absent)
     * @throws Exception if it cannot start
     */
    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        int advertised = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        Engine engine = args.length > 2 ? Engine.valueOf(args[2]) : Engine.GRPC;
        try (ActorSystem system = ActorSystem.create("beta");
                Remoting remoting = Remoting.attach(system, codec(),
                        fast(engine.apply(RemoteSettings.defaults()).withAddress("127.0.0.1", port).withAdvertisedPort(advertised)))) {
            ActorRef<Object> echo = system.spawn("echo", self -> self.become(Receive.handler()
                    .match(Ping.class, p -> p.replyTo().tell(new Pong(p.text())))
                    .match(String.class, t -> self.reply("echo:" + t))
                    .build()));
            int[] state = new int[3];
            ActorRef<Object> checker = system.spawn("checker", self -> self.become(Receive.handler()
                    .match(Seq.class, s -> {
                        if (s.n() != state[0]) {
                            state[1]++;
                        }
                        state[0] = s.n() + 1;
                        state[2]++;
                    })
                    .match(Report.class, r -> r.replyTo().tell(new Counted(state[2], state[1])))
                    .build()));
            ActorRef<Object> sizer = system.spawn("sizer", self -> self.become(Receive.handler()
                    .match(Blob.class, b -> self.reply(b.data().length))
                    .build()));
            System.out.println("READY " + remoting.addressOf(echo) + " " + remoting.addressOf(checker) + " "
                    + remoting.addressOf(sizer) + " " + remoting.incarnation());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String line;
            while ((line = in.readLine()) != null) {
                if (line.equals("drops")) {
                    long n = 0;
                    for (RemoteMetrics.Drop d : RemoteMetrics.Drop.values()) {
                        n += remoting.metrics().dropped(d);
                    }
                    System.out.println("DROPS " + n);
                    System.out.flush();
                }
            }
        }
    }
}
