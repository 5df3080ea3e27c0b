package io.weft.actors.remote.remoting;

import java.io.IOException;

/** A proxy on loopback between two systems whose link can be cut: once cut, it forwards nothing and closes nothing. */
interface Cuttable extends AutoCloseable {

    /**
     * Makes the proxy for an engine: TCP for gRPC, UDP for Aeron.
     *
     * @param engine the engine the systems use
     * @return a proxy listening on a free loopback port
     * @throws IOException if it cannot bind
     */
    static Cuttable forEngine(Engine engine) throws IOException {
        return engine == Engine.AERON ? new CuttableUdpProxy() : new CuttableProxy();
    }

    /** @return the port the proxy listens on */
    int port();

    /** @param port the loopback port it forwards to */
    void target(int port);

    /** Cuts the link: every later byte or datagram, both ways, is swallowed. */
    void cut();

    /** Stops relaying and frees its sockets. */
    @Override
    void close() throws IOException;
}
