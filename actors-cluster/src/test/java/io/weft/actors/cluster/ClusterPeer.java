package io.weft.actors.cluster;

import io.weft.actors.runtime.testing.PeerProcess;
import java.io.IOException;
import java.util.List;

/** A {@link ClusterPeerMain} (or a main class with its arguments and READY line) in its own JVM: a {@link PeerProcess}. */
final class ClusterPeer implements AutoCloseable {

    final PeerProcess process;
    final Member member;
    final String echo;

    ClusterPeer(String name, int port, String seeds) throws IOException, InterruptedException {
        this(ClusterPeerMain.class, name, port, seeds);
    }

    /** A peer running another main class that takes the same arguments and prints the same READY line. */
    ClusterPeer(Class<?> main, String name, int port, String seeds) throws IOException, InterruptedException {
        process = new PeerProcess("cluster-" + name, List.of("-Xmx192m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Djava.net.preferIPv4Stack=true"), main, List.of(name, Integer.toString(port), seeds), "READY", 90);
        String[] f = process.line("READY", 1).split(" ");
        member = Member.parse(f[1]);
        echo = f[2];
    }

    /** A line starting with the prefix among all the peer has printed (lines are not consumed); null if none within {@code seconds}. */
    String line(String prefix, int seconds) throws InterruptedException {
        return process.line(prefix, seconds);
    }

    void send(String command) throws IOException {
        process.send(command);
    }

    void kill() throws InterruptedException {
        process.kill();
    }

    @Override
    public void close() {
        process.close();
    }
}
