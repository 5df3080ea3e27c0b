package io.weft.actors.remote.remoting;

import io.weft.actors.runtime.testing.PeerProcess;
import java.io.IOException;
import java.util.List;

/** A {@link PeerMain} in a second JVM over one {@link Engine}: a {@link PeerProcess}. */
final class Peer implements AutoCloseable {

    final PeerProcess process;
    final String echo;
    final String checker;
    final String sizer;
    final long incarnation;

    Peer(int port, int advertised, Engine engine) throws IOException, InterruptedException {
        // the peer runs on the class path: Aeron's Agrona needs jdk.internal.misc exported to it there
        process = new PeerProcess("peer-" + port, List.of("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "--add-exports", "java.base/jdk.internal.misc=ALL-UNNAMED"), PeerMain.class,
                List.of(Integer.toString(port), Integer.toString(advertised), engine.name()), "READY", 60);
        String[] f = process.line("READY", 1).split(" ");
        echo = f[1];
        checker = f[2];
        sizer = f[3];
        incarnation = Long.parseLong(f[4]);
    }

    long drops() throws IOException, InterruptedException {
        process.send("drops");
        String l = process.nextLine("DROPS", 30);
        return l == null ? -1 : Long.parseLong(l.substring(6));
    }

    void kill() throws InterruptedException {
        process.kill();
    }

    @Override
    public void close() {
        process.close();
    }
}
