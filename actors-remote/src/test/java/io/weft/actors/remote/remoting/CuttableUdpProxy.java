package io.weft.actors.remote.remoting;

import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.SocketException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A UDP relay on loopback that can be cut. Each source that sends to it gets an upstream socket of
 * its own towards the target, so the target's answers (Aeron's status messages and NAKs) go back to
 * that source. Once cut, it drops every datagram both ways.
 */
final class CuttableUdpProxy implements Cuttable {

    private final DatagramSocket front;
    private final Map<SocketAddress, DatagramSocket> upstream = new ConcurrentHashMap<>();
    private volatile int target;
    private volatile boolean cut;
    private volatile boolean closed;

    CuttableUdpProxy() throws SocketException {
        front = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        Thread.ofPlatform().daemon().name("udp-proxy-front").start(this::relayFront);
    }

    @Override
    public int port() {
        return front.getLocalPort();
    }

    @Override
    public void target(int port) {
        target = port;
    }

    @Override
    public void cut() {
        cut = true;
    }

    private void relayFront() {
        byte[] buf = new byte[65536];
        DatagramPacket p = new DatagramPacket(buf, buf.length);
        while (!closed) {
            try {
                p.setLength(buf.length);
                front.receive(p);
                if (cut) {
                    continue;
                }
                SocketAddress source = p.getSocketAddress();
                DatagramSocket up = upstream.computeIfAbsent(source, this::open);
                up.send(new DatagramPacket(buf, p.getLength(), new InetSocketAddress(InetAddress.getLoopbackAddress(), target)));
            } catch (IOException | RuntimeException e) {
                if (closed) {
                    return;
                }
            }
        }
    }

    private DatagramSocket open(SocketAddress source) {
        try {
            DatagramSocket up = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Thread.ofPlatform().daemon().name("udp-proxy-back").start(() -> {
                byte[] buf = new byte[65536];
                DatagramPacket p = new DatagramPacket(buf, buf.length);
                while (!closed) {
                    try {
                        p.setLength(buf.length);
                        up.receive(p);
                        if (!cut) {
                            front.send(new DatagramPacket(buf, p.getLength(), source));
                        }
                    } catch (IOException e) {
                        if (closed) {
                            return;
                        }
                    }
                }
            });
            return up;
        } catch (SocketException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        closed = true;
        front.close();
        for (DatagramSocket s : upstream.values()) {
            s.close();
        }
    }
}
